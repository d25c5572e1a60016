// The VS Code extension as a user installs it: `npm run vsix` packages editors/vscode with @vscode/vsce;
// the .vsix holds the extension, its grammars and the edgesim server with everything it needs, and the
// server started from the unpacked .vsix (away from this checkout, so nothing of it is borrowed)
// answers an editor: diagnostics, hover, and a rule's traffic on the demo capture (the GeoIP data and
// the analysis thread travel with it). The grammars colour an expression in a .rules file and inside
// JSON, YAML and HCL strings, checked with vscode-textmate (VS Code's own tokenizer).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodeLens, Hover } from 'vscode-languageserver/node.js';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, type IGrammar, type IRawGrammar } from 'vscode-textmate';
import { FIELD_REGISTRY } from '../../src/field-registry.js';
import { ROOT } from '../helpers/cli.js';
import { LspClient } from '../helpers/lsp-client.js';
import { tempDir } from '../helpers/temp-dir.js';

const EXTENSION = path.join(ROOT, 'editors/vscode');
let unpacked: string;

beforeAll(() => {
  const r = spawnSync('npm', ['run', '--silent', 'vsix'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  expect(r.status, r.stderr).toBe(0);
  const vsix = r.stdout.trim().split('\n').at(-1)!;
  expect(vsix).toBe(path.join(EXTENSION, 'edgesim-0.1.0.vsix'));
  unpacked = tempDir('edgesim-vsix-');
  execFileSync('unzip', ['-q', vsix, '-d', unpacked]);
}, 300_000);

describe('the .vsix', () => {
  it('holds the extension, its grammars and languages, and the server with its data', () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'extension/package.json'), 'utf8'));
    expect(manifest.main).toBe('./dist/extension.js');
    for (const g of manifest.contributes.grammars) JSON.parse(readFileSync(path.join(unpacked, 'extension', g.path), 'utf8'));
    expect(manifest.contributes.languages[0]).toMatchObject({ id: 'edgesim-rules', extensions: ['.rules'] });
    // the language client is bundled in; VS Code's API is the one module it asks for
    const extension = readFileSync(path.join(unpacked, 'extension/dist/extension.js'), 'utf8');
    expect([...new Set([...extension.matchAll(/require\("([^"./][^"]*)"\)/g)].map((m) => m[1]))].filter((m) => !m!.startsWith('node:') && !['child_process', 'path', 'fs', 'os', 'crypto', 'net', 'util', 'events', 'url', 'stream', 'assert'].includes(m!))).toEqual(['vscode']);
    for (const file of ['server/bin/edgesim.js', 'server/dist/bundle/main.js', 'server/dist/bundle/lsp-worker.js', 'server/datasets/colos.json', 'server/node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb', 'server/node_modules/vscode-languageserver/package.json']) {
      expect(() => readFileSync(path.join(unpacked, 'extension', file)), file).not.toThrow();
    }
  });

  it('starts a server that answers an editor: diagnostics, hover, and traffic on a capture', async () => {
    const bin = path.join(unpacked, 'extension/server/bin/edgesim.js');
    const work = tempDir('edgesim-vsix-work-');
    const client = await LspClient.start({ capture: path.join(ROOT, 'examples/demo.pcap'), debounceMs: 0 }, work, [], bin);
    try {
      const file = path.join(ROOT, 'examples/demo-snapshot.json');
      const uri = pathToFileURL(file).href;
      const text = readFileSync(file, 'utf8');
      await client.open(uri, text);
      const diagnostics = await client.settled(uri);
      expect(diagnostics.map((d) => d.code)).toEqual(['negated_protocol_field']);
      const line = text.split('\n').findIndex((l) => l.includes('block-telnet'));
      const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line, character: text.split('\n')[line]!.indexOf('tcp.dstport') + 2 } });
      expect((hover.contents as { value: string }).value).toContain('**tcp.dstport**');
      await client.save(uri);
      const deadline = Date.now() + 90_000;
      while (!client.notifications.some((n) => n.method === 'edgesim/traffic') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      // geo-block reads the country: the bundled GeoIP database came with the server
      const geo = lenses.find((l) => l.range.start.line === text.split('\n').findIndex((x) => x.includes('geo-block')))!;
      expect(geo.command!.title).toMatch(/^[\d,]+ hits · [\d,]+ dropped/);
      expect(lenses.length).toBe(JSON.parse(text).rulesets[0].rules.length);
      // a .tf file: the HCL grammar's WebAssembly came with the server too
      const tf = pathToFileURL(path.join(work, 'main.tf')).href;
      await client.open(tf, 'resource "cloudflare_ruleset" "mt" {\n  rules {\n    expression = <<-EOT\n      tcp.dport == 22\n    EOT\n  }\n}\n', 'terraform');
      expect((await client.settled(tf)).map((d) => [d.code, d.range.start])).toEqual([
        ['unknown_identifier', { line: 3, character: 6 }],
        ['hint', { line: 3, character: 6 }],
      ]);
    } finally {
      expect(await client.stop()).toBe(0);
    }
  });
});

// Small host grammars with the scope names VS Code's own JSON, YAML and Terraform grammars give, for
// the injections to be tried against (the real ones are VS Code's, not in this repository).
const HOSTS: Record<string, IRawGrammar> = {
  'source.json': {
    scopeName: 'source.json',
    patterns: [{ include: '#object' }],
    repository: {
      object: {
        begin: '\\{',
        end: '\\}',
        name: 'meta.structure.dictionary.json',
        patterns: [
          { match: '"[^"]*"(?=\\s*:)', name: 'string.json support.type.property-name.json' },
          { include: '#value' },
        ],
      },
      value: { patterns: [{ include: '#object' }, { begin: '\\[', end: '\\]', name: 'meta.structure.array.json', patterns: [{ include: '#value' }] }, { begin: '"', end: '"', name: 'string.quoted.double.json', patterns: [{ match: '\\\\.', name: 'constant.character.escape.json' }] }] },
    },
  } as unknown as IRawGrammar,
  'source.yaml': { scopeName: 'source.yaml', patterns: [{ match: '#.*$', name: 'comment.line.number-sign.yaml' }, { match: '[\\w.-]+(?=:)', name: 'entity.name.tag.yaml' }] } as unknown as IRawGrammar,
  'source.hcl': { scopeName: 'source.hcl', patterns: [{ begin: '"', end: '"', name: 'string.quoted.double.hcl' }] } as unknown as IRawGrammar,
};

async function registry(): Promise<Registry> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const manifest = JSON.parse(readFileSync(path.join(EXTENSION, 'package.json'), 'utf8')) as { contributes: { grammars: Array<{ scopeName: string; path: string; injectTo?: string[] }> } };
  const own = new Map(manifest.contributes.grammars.map((g) => [g.scopeName, JSON.parse(readFileSync(path.join(EXTENSION, g.path), 'utf8')) as IRawGrammar]));
  return new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p), createOnigString: (s: string) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => own.get(scope) ?? HOSTS[scope] ?? null,
    getInjections: (scope) => manifest.contributes.grammars.filter((g) => g.injectTo?.includes(scope)).map((g) => g.scopeName),
  });
}

/**
 * The words of the lines an edgesim grammar colours, each with the outermost edgesim scope it is in
 * (a string's quotes and content, tokens of their own, are one word), blanks left out.
 */
function tokens(grammar: IGrammar, lines: string[]): string[] {
  let state = INITIAL;
  const out: Array<{ text: string; scope: string }> = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, state);
    let previous: { text: string; scope: string } | undefined;
    for (const t of r.tokens) {
      const scope = t.scopes.find((s) => s.endsWith('.edgesim') && !s.startsWith('meta.embedded'));
      const text = line.slice(t.startIndex, t.endIndex);
      if (scope === undefined || text.trim() === '') {
        previous = undefined;
        continue;
      }
      if (previous !== undefined && previous.scope === scope && /^(string|comment)/.test(scope)) previous.text += text;
      else out.push((previous = { text, scope }));
    }
    state = r.ruleStack;
  }
  return out.map((t) => `${t.text} ${t.scope.replace(/\.edgesim$/, '')}`);
}

describe('the grammars', () => {
  it('name every field of the registry, and colour a .rules line: fields, operators, lists, values, comments', async () => {
    const g = (await (await registry()).loadGrammar('source.edgesim-rules'))!;
    const grammar = JSON.parse(readFileSync(path.join(EXTENSION, 'syntaxes/rules.tmLanguage.json'), 'utf8'));
    for (const f of FIELD_REGISTRY) expect(JSON.stringify(grammar)).toContain(f.name.replace(/\./g, '\\\\.'));
    expect(tokens(g, ['# ssh from the office only', 'tcp.dstport in {22 2222} and not ip.src in $office or ip.proto == "udp" and ip.src.country in {"KP"} and bit_slice(tcp, 0, 4) > 5'])).toEqual([
      '# ssh from the office only comment.line.number-sign',
      'tcp.dstport variable.other.field',
      'in keyword.operator.comparison',
      '{ punctuation.section.set',
      '22 constant.numeric',
      '2222 constant.numeric',
      '} punctuation.section.set',
      'and keyword.operator.logical',
      'not keyword.operator.logical',
      'ip.src variable.other.field',
      'in keyword.operator.comparison',
      '$office variable.other.list',
      'or keyword.operator.logical',
      'ip.proto variable.other.field',
      '== keyword.operator.comparison',
      '"udp" string.quoted.double',
      'and keyword.operator.logical',
      'ip.src.country variable.other.field',
      'in keyword.operator.comparison',
      '{ punctuation.section.set',
      '"KP" string.quoted.double',
      '} punctuation.section.set',
      'and keyword.operator.logical',
      'bit_slice support.function',
      '( punctuation.section.group',
      'tcp variable.other.field',
      '0 constant.numeric',
      '4 constant.numeric',
      ') punctuation.section.group',
      '> keyword.operator.comparison',
      '5 constant.numeric',
    ]);
  });

  it('colour the expression inside a JSON string under "expression", its escaped quotes included, and nothing in other strings', async () => {
    const g = (await (await registry()).loadGrammar('source.json'))!;
    const got = tokens(g, ['{"rules": [{"ref": "tcp.dstport", "expression": "ip.proto == \\"tcp\\" and ip.src in {10.0.0.0/8}"}]}']);
    expect(got).toEqual(['ip.proto variable.other.field', '== keyword.operator.comparison', '\\"tcp\\" string.quoted.double', 'and keyword.operator.logical', 'ip.src variable.other.field', 'in keyword.operator.comparison', '{ punctuation.section.set', '10.0.0.0/8 constant.numeric.address', '} punctuation.section.set']);
  });

  it('colour the expression of a YAML key, quoted, plain or a block, and of an HCL attribute, its interpolation left to HCL', async () => {
    const r = await registry();
    const yaml = (await r.loadGrammar('source.yaml'))!;
    expect(tokens(yaml, ['  - expression: tcp.dstport == 22', '    ref: ssh']).filter((t) => t.includes('field'))).toEqual(['tcp.dstport variable.other.field']);
    expect(tokens(yaml, ['  - expression: "ip.proto == \\"udp\\""']).map((t) => t.split(' ')[0])).toEqual(['ip.proto', '==', '\\"udp\\"']);
    expect(tokens(yaml, ['    expression: |-', '      ip.dst in {203.0.113.0/24}', '      and tcp.dstport in {80 443}', '    action: skip']).filter((t) => t.includes('field'))).toEqual(['ip.dst variable.other.field', 'tcp.dstport variable.other.field']);
    const hcl = (await r.loadGrammar('source.hcl'))!;
    expect(tokens(hcl, ['    expression = "tcp.dstport == ${var.port} and ip.proto == \\"tcp\\""']).map((t) => t.split(' ')[0])).toEqual(['tcp.dstport', '==', 'and', 'ip.proto', '==', '\\"tcp\\"']);
    expect(tokens(hcl, ['    expression = <<-EOT', '      tcp.dstport == 22', '    EOT']).map((t) => t.split(' ')[0])).toEqual(['tcp.dstport', '==', '22']);
  });
});
