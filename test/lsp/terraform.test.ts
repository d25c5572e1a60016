// Terraform's own files in the editor: every `expression` of a cloudflare_ruleset's rules, quoted or a
// heredoc, is checked as Terraform reads its value (escapes decoded, a `<<-` heredoc's indentation
// removed): the diagnostic is what `edgesim validate` prints for that value, on the characters of the
// file that write the part the engine's caret is under. A string with `${…}` and an expression that
// is no string are said to be Terraform's to compute, and not checked. Completion writes HCL's escapes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionItem, DocumentSymbol, TextEdit } from 'vscode-languageserver/node.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { LspClient, offsetOf } from '../helpers/lsp-client.js';
import { tempDir } from '../helpers/temp-dir.js';
import { rulesetTf } from './terraform-fixture.js';

let client: LspClient;
let dir: string;

beforeAll(async () => {
  client = await LspClient.start({ debounceMs: 0 });
  dir = tempDir('edgesim-lsp-tf-');
});

afterAll(async () => {
  expect(await client?.stop()).toBe(0);
});

const TF = rulesetTf();

/** What Terraform reads for each string expression above (escapes decoded, the heredoc's indentation removed). */
const VALUES = ['ip.proto == "tcp" and tcp.dport == 22', 'tcp.dstport in { 23 2323 }\n  and ip.src in { 10.0.0.0/33 }\n', 'ip.proto == '];

describe('a .tf file', () => {
  it('has each expression checked as Terraform reads it, at the characters that write it; interpolations and references not checked', async () => {
    const file = path.join(dir, 'main.tf');
    writeFileSync(file, TF);
    const uri = pathToFileURL(file).href;
    await client.open(uri, TF, 'terraform');
    const diagnostics = await client.settled(uri);
    const errors = diagnostics.filter((d) => d.severity === 1);
    const hints = diagnostics.filter((d) => d.severity === 4);
    // each error (and its hint) is what validate prints for the value
    for (const value of VALUES) {
      const printed = runCli(['validate', '-'], { input: value }).stdout;
      const error = errors.find((d) => printed.startsWith(`${d.message}\n`));
      expect(error, value).toBeDefined();
      const hint = hints.find((h) => h.range.start.line === error!.range.start.line && h.range.start.character === error!.range.start.character);
      expect(`${error!.message}\n${hint === undefined ? '' : `${hint.message}\n`}`).toBe(printed);
    }
    const text = (d: (typeof diagnostics)[number]) => TF.slice(offsetOf(TF, d.range.start), offsetOf(TF, d.range.end));
    expect(errors.map(text)).toEqual(['tcp.dport', '10.0.0.0/33', ' ']);
    // the heredoc's error is on its second line, where the file writes it
    expect(errors[1]!.range.start).toEqual({ line: 15, character: 24 });
    const notChecked = diagnostics.filter((d) => d.code === 'not_checked');
    expect(notChecked.map((d) => [text(d), d.message])).toEqual([
      ['"tcp.dstport == ${var.port}"', 'not checked: the string holds ${…} or %{…}, so Terraform computes its value'],
      ['local.icmp', 'not checked: the expression is not a string here (a reference or a function call), so Terraform computes it'],
    ]);
  });

  it('completes in HCL\'s own escapes, lists the rules as symbols, and reads the provider\'s v4 example with its dynamic rules', async () => {
    const file = path.join(dir, 'complete.tf');
    writeFileSync(file, TF);
    const uri = pathToFileURL(file).href;
    await client.open(uri, TF, 'terraform');
    await client.settled(uri);
    const at = (() => {
      const o = TF.indexOf('"ip.proto == "') + 13;
      const lines = TF.slice(0, o).split('\n');
      return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
    })();
    const items = await client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: at });
    expect((items.find((i) => i.label === '"udp"')!.textEdit as TextEdit).newText).toBe('\\"udp\\"');
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.map((s) => s.name)).toEqual(['cloudflare_ruleset.mt rules[0]', 'cloudflare_ruleset.mt rules[1]', 'cloudflare_ruleset.mt rules[4]']);

    const v4 = path.join(ROOT, 'test/config/terraform-source/fixtures/v4-dynamic/main.tf');
    const v4uri = pathToFileURL(v4).href;
    await client.open(v4uri, readFileSync(v4, 'utf8'), 'terraform');
    const got = await client.settled(v4uri);
    expect(got.filter((d) => d.severity === 1)).toEqual([]);
    expect(got.filter((d) => d.code === 'not_checked').length).toBeGreaterThan(0);
  });
});
