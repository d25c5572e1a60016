// A real editor drives the server: Neovim (Debian's package, headless, no user configuration but the
// README's, as a user copies it) starts `edgesim lsp --stdio` through its built-in LSP client when a
// configuration is opened, and a Lua script reads back what Neovim received: the diagnostics it
// stores for the buffer, a completion list and a hover.
// The diagnostics' words are checked against `edgesim validate` and `edgesim lint` on the same file.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The README's Neovim configuration, as a user copies it, with the command pointed at this checkout's build. */
function readmeConfiguration(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /Neovim[\s\S]*?```lua\n([\s\S]*?)```/.exec(readme)![1]!;
  const command = "{ 'npx', 'edgesim', 'lsp', '--stdio' }";
  expect(block).toContain(command);
  return block.replace(command, '{ vim.env.EDGESIM_NODE, vim.env.EDGESIM_BIN, \'lsp\', \'--stdio\' }');
}

const LUA = `
local out = {}
vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.EDGESIM_FILE))
local buf = vim.api.nvim_get_current_buf()
local function client_of(b) for _, c in pairs(vim.lsp.buf_get_clients(b)) do if c.name == 'edgesim' then return c end end end
vim.wait(20000, function() local c = client_of(buf); return c ~= nil and c.initialized end, 50)
local client = client_of(buf)
local uri = vim.uri_from_bufnr(buf)
-- the server answers once the diagnostics it published for this version are final
client.request_sync('edgesim/settle', { uri = uri }, 60000, buf)
vim.wait(500, function() return false end, 50)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, message = d.message, code = lsp.code })
end
local function at(line, col) return { textDocument = { uri = uri }, position = { line = line, character = col } } end
local completion = vim.lsp.buf_request_sync(buf, 'textDocument/completion', at(tonumber(vim.env.COMPLETE_LINE), tonumber(vim.env.COMPLETE_COL)), 20000)
out.completion = {}
for _, r in pairs(completion or {}) do
  local items = r.result and (r.result.items or r.result) or {}
  for _, item in ipairs(items) do table.insert(out.completion, { label = item.label, detail = item.detail }) end
end
local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', at(tonumber(vim.env.HOVER_LINE), tonumber(vim.env.HOVER_COL)), 20000)
out.hover = {}
for _, r in pairs(hover or {}) do if r.result then table.insert(out.hover, r.result.contents.value) end end
local f = io.open(vim.env.EDGESIM_OUT, 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.lsp.stop_client(client.id)
vim.cmd('qa!')
`;

interface NvimResult {
  diagnostics: Array<{ lnum: number; col: number; end_col: number; severity: number; message: string; code?: string }>;
  completion: Array<{ label: string; detail?: string }>;
  hover: string[];
}

function position(text: string, marker: string, shift: number): [number, number] {
  const offset = text.indexOf(marker) + shift;
  const lines = text.slice(0, offset).split('\n');
  return [lines.length - 1, lines[lines.length - 1]!.length];
}

describe('Neovim\'s built-in LSP client', () => {
  it('gets the engine\'s and lint\'s diagnostics, completion and hover from edgesim lsp --stdio', () => {
    const dir = tempDir('edgesim-nvim-');
    const demo = JSON.parse(readFileSync(path.join(ROOT, 'examples/demo-snapshot.json'), 'utf8'));
    demo.rulesets[0].rules[3].expression = 'tcp.dstport in { 23 2323 } and ip.proto == tcp';
    demo.rulesets[0].rules.push({ ref: 'telnet-again', action: 'block', expression: 'tcp.dstport == 2323' });
    demo.rulesets[0].rules.push({ ref: 'typing', action: 'block', expression: 'ip.src.country in {"KP" } and tcp.d' });
    const text = `${JSON.stringify(demo, null, 2)}\n`;
    const file = path.join(dir, 'firewall.json');
    writeFileSync(file, text);
    writeFileSync(path.join(dir, 'test.lua'), `${readmeConfiguration()}\n${LUA}`);
    const [completeLine, completeCol] = position(text, 'and tcp.d"', 9);
    const [hoverLine, hoverCol] = position(text, 'tcp.dstport == 2323', 4);
    const out = path.join(dir, 'out.json');
    const r = spawnSync('nvim', ['--headless', '--clean', '-n', '-i', 'NONE', '-c', `luafile ${path.join(dir, 'test.lua')}`], {
      env: { ...process.env, EDGESIM_FILE: file, EDGESIM_NODE: process.execPath, EDGESIM_BIN: BIN, EDGESIM_ROOT: dir, EDGESIM_OUT: out, COMPLETE_LINE: String(completeLine), COMPLETE_COL: String(completeCol), HOVER_LINE: String(hoverLine), HOVER_COL: String(hoverCol) },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const got = JSON.parse(readFileSync(out, 'utf8')) as NvimResult;

    // the engine's error, at the bare word, and its hint, as validate prints them
    const validate = runCli(['validate', '-'], { input: 'tcp.dstport in { 23 2323 } and ip.proto == tcp' }).stdout;
    const error = got.diagnostics.find((d) => d.severity === 1 && d.code === 'parse_int')!;
    const hint = got.diagnostics.find((d) => d.code === 'hint')!;
    expect(`${error.message}\n${hint.message}\n`).toBe(validate);
    const [errLine, errCol] = position(text, 'tcp",', 0);
    expect([error.lnum, error.col]).toEqual([errLine, errCol]);
    // lint's findings on the file without the rules the engine refuses: the unreachable rule, the warning
    const kept = structuredClone(demo);
    kept.rulesets[0].rules = kept.rulesets[0].rules.filter((_: unknown, i: number) => i !== 3 && i !== kept.rulesets[0].rules.length - 1);
    const keptFile = path.join(dir, 'kept.json');
    writeFileSync(keptFile, JSON.stringify(kept, null, 2));
    const lint = (JSON.parse(runCli(['lint', keptFile, '--json']).stdout) as { findings: Array<{ kind: string; message: string }> }).findings;
    expect(got.diagnostics.filter((d) => d.code !== undefined && lint.some((f) => f.kind === d.code)).map((d) => `${d.code}: ${d.message}`).sort()).toEqual(lint.map((f) => `${f.kind}: ${f.message}`).sort());
    expect(lint.map((f) => f.kind)).toContain('negated_protocol_field');

    // completion of `tcp.d`: the firewall's fields with type and unit
    expect(got.completion.find((c) => c.label === 'tcp.dstport')?.detail).toBe('Int · port number');
    expect(got.completion.find((c) => c.label === 'bit_slice')?.detail).toContain('bit_slice(');
    // hover on a field: the registry's words
    expect(got.hover[0]).toContain('**tcp.dstport** — Int, port number (0 to 65,535)');
  });
});
