// What the server offers beside diagnostics, asked as an editor asks: completion (fields of the scheme
// in force with type and unit, functions with signatures, protocol keywords, countries, data centers,
// list names), hover (the registry's words, a function's signature, a list's size, a rule's proved
// region), quick fixes and rewrites (applied, they give the expression the hint names), symbols,
// a list's definition, semantic tokens, and each rule's traffic on the capture a comment names.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, CodeLens, CompletionItem, Diagnostic, DocumentSymbol, Hover, InlayHint, Location, SemanticTokens, TextEdit } from 'vscode-languageserver/node.js';
import { FIELD_REGISTRY } from '../../src/field-registry.js';
import { validateExpression } from '../../src/lang/index.js';
import { PARTNER_LISTS, realisticRuleset } from '../../bench/realistic-rulesets.js';
import { ROOT, runCli, runCliAsync } from '../helpers/cli.js';
import { LspClient, offsetOf } from '../helpers/lsp-client.js';
import { tempDir } from '../helpers/temp-dir.js';

let client: LspClient;
let dir: string;

beforeAll(async () => {
  client = await LspClient.start({ debounceMs: 0 });
  dir = tempDir('edgesim-lsp-features-');
});

afterAll(async () => {
  expect(await client?.stop()).toBe(0);
});

/** The position of the first `marker` in `text` (plus `shift` characters), and the text without it. */
function at(text: string, marker: string, shift = 0): { line: number; character: number } {
  const offset = text.indexOf(marker) + shift;
  if (offset < shift) throw new Error(`no ${marker}`);
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

/** Applies text edits (as an editor does, from the last to the first). */
function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offsetOf(out, e.range.start)) + e.newText + out.slice(offsetOf(out, e.range.end));
  return out;
}

let docs = 0;
async function open(text: string, ext = 'json', languageId = 'json'): Promise<string> {
  const file = path.join(dir, `doc-${docs++}.${ext}`);
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  await client.open(uri, text, languageId);
  await client.settled(uri);
  return uri;
}

const snapshot = (rules: Array<[string, string, string]>, extra: object = {}) =>
  JSON.stringify(
    {
      lists: [{ name: 'office', kind: 'ip', items: [{ ip: '10.1.0.0/16' }, { ip: '10.2.0.0/16' }] }],
      rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: rules.map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' } } : {}) })) }],
      ...extra,
    },
    null,
    2,
  );

const complete = (uri: string, position: { line: number; character: number }) => client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position });
const hover = (uri: string, position: { line: number; character: number }) => client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position });

describe('completion', () => {
  it('offers the firewall fields with type and unit, functions with signatures, and only the filter scheme\'s four fields in an ATP filter', async () => {
    const text = snapshot([['a', 'block', 'tcp.d']], { syn_protection: { filters: [{ expression: 'ip.s', mode: 'enabled' }] } });
    const uri = await open(text);
    const items = await complete(uri, at(text, 'tcp.d"', 5));
    const firewall = FIELD_REGISTRY.map((f) => f.name);
    expect(items.filter((i) => i.kind === 5).map((i) => i.label)).toEqual(firewall);
    const dstport = items.find((i) => i.label === 'tcp.dstport')!;
    expect(dstport.detail).toBe('Int · port number');
    expect((dstport.documentation as { value: string }).value).toContain('0 to 65,535');
    expect((dstport.textEdit as TextEdit).range).toEqual({ start: at(text, 'tcp.d"'), end: at(text, 'tcp.d"', 5) });
    expect(items.find((i) => i.label === 'bit_slice')?.detail).toBe('bit_slice(protocol: ip | tcp | udp | icmp, start: Int, end: Int) -> Int');
    const filter = await complete(uri, at(text, 'ip.s"', 4));
    expect(filter.filter((i) => i.kind === 5).map((i) => i.label)).toEqual(['ip.src', 'ip.dst', 'tcp.srcport', 'tcp.dstport']);
    expect(filter.some((i) => i.label === 'bit_slice')).toBe(false);
  });

  it('offers protocol keywords for ip.proto, written with JSON\'s escaped quotes, which the engine then accepts', async () => {
    const text = snapshot([['a', 'block', 'ip.proto == ']]);
    const uri = await open(text);
    const items = await complete(uri, at(text, 'ip.proto == ', 12));
    const udp = items.find((i) => i.label === '"udp"')!;
    expect(udp.detail).toBe('protocol 17');
    expect((udp.textEdit as TextEdit).newText).toBe('\\"udp\\"');
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['"tcp"', '"icmp"', '"ipv6-icmp"', '"gre"', '"sctp"']));
    const after = applyEdits(text, [udp.textEdit as TextEdit]);
    expect(validateExpression(JSON.parse(after).rulesets[0].rules[0].expression, 'rule')).toBeNull();
  });

  it('offers country codes in a country set, data centers and regions, list names after $, and operators after a field', async () => {
    const text = snapshot([
      ['a', 'block', 'ip.src.country in {"KP" '],
      ['b', 'block', 'cf.colo.name == '],
      ['c', 'block', 'cf.colo.region == "'],
      ['d', 'block', 'ip.src in $'],
      ['e', 'block', 'tcp.dstport '],
    ]);
    const uri = await open(text);
    const countries = await complete(uri, at(text, '\\"KP\\" ', 7));
    expect(countries.find((i) => i.label === '"IR"')?.detail).toBe('Iran');
    expect(countries.length).toBe(250);
    const colos = await complete(uri, at(text, 'cf.colo.name == ', 16));
    expect(colos.map((i) => i.label)).toEqual(expect.arrayContaining(['"fra01"', '"sfo06"']));
    const regions = await complete(uri, at(text, 'cf.colo.region == \\"', 20));
    expect(regions.map((i) => i.label)).toEqual(['"WNAM"', '"ENAM"', '"NSAM"', '"SSAM"', '"WEUR"', '"EEUR"', '"ME"', '"AFR"', '"APAC"', '"OC"']);
    const lists = await complete(uri, at(text, 'in $', 4));
    expect(lists.find((i) => i.label === 'office')?.detail).toBe('ip list, 2 items');
    expect(lists.map((i) => i.label)).toEqual(expect.arrayContaining(['cf.botnetcc', 'svc.anonymizer']));
    const ops = await complete(uri, at(text, 'tcp.dstport ', 12));
    expect(ops.map((i) => i.label)).toEqual(['==', '!=', '<', '<=', '>', '>=', 'in', '&']);
  });
});

describe('hover', () => {
  it('says a field\'s meaning, type, unit and range, a function\'s signature and a list\'s size', async () => {
    const text = snapshot([['a', 'block', 'tcp.dstport == 22 and bit_slice(tcp, 0, 4) == 5 and ip.src in $office and ip.dst in $svc.botnetcc']]);
    const uri = await open(text);
    const field = await hover(uri, at(text, 'tcp.dstport', 3));
    expect((field!.contents as { value: string }).value).toContain('**tcp.dstport** — Int, port number (0 to 65,535)');
    expect((field!.contents as { value: string }).value).toContain(FIELD_REGISTRY.find((f) => f.name === 'tcp.dstport')!.meaning);
    const fn = await hover(uri, at(text, 'bit_slice', 2));
    expect((fn!.contents as { value: string }).value).toContain('`bit_slice(protocol: ip | tcp | udp | icmp, start: Int, end: Int) -> Int`');
    const list = await hover(uri, at(text, '$office', 2));
    expect((list!.contents as { value: string }).value).toBe('**$office** — ip list of this configuration, 2 items');
    const managed = await hover(uri, at(text, '$svc.botnetcc', 3));
    const size = readFileSync(path.join(ROOT, 'datasets/lists/svc.botnetcc.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).length;
    expect((managed!.contents as { value: string }).value).toContain(`the bundled sample holds ${size} entries`);
  });

  it('on a rule, says in words what the analysis proves: the packets it decides, or why it is never reached', async () => {
    const text = snapshot([
      ['ssh', 'block', 'tcp.dstport == 22 and ip.src in {198.51.100.0/24}'],
      ['ssh-again', 'block', 'tcp.dstport == 22 and ip.src in {198.51.100.7}'],
    ]);
    const uri = await open(text);
    const first = (await hover(uri, at(text, '== 22 and ip.src in {198.51.100.0/24}', 1)))!;
    const words = (first.contents as { value: string }).value;
    expect(words).toContain('**ssh** (block) drops packets it is the first to match, for example');
    expect(words).toContain('Proved over every packet, it decides:\n- ip.src in {198.51.100.0/24} and tcp.dstport in {22} and ip.proto == "tcp" → drop');
    const second = (await hover(uri, at(text, '== 22 and ip.src in {198.51.100.7}', 1)))!;
    expect((second.contents as { value: string }).value).toBe('**ssh-again** (block): unreachable: every packet it matches is decided earlier by ssh');
  });
});

async function actions(uri: string, text: string, from: { line: number; character: number }, to = from): Promise<CodeAction[]> {
  const diagnostics = (client.diagnostics.get(uri)?.diagnostics ?? []) as Diagnostic[];
  return client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: { start: from, end: to }, context: { diagnostics } });
}

const applied = (uri: string, text: string, a: CodeAction) => applyEdits(text, a.edit!.changes![uri]!);
const expressionOf = (text: string, i = 0) => JSON.parse(text).rulesets[0].rules[i].expression as string;

describe('code actions', () => {
  it('quote a protocol keyword, move a network into in {…}, fix a misspelt field: each gives the expression the hint names', async () => {
    const text = snapshot([
      ['a', 'block', 'ip.proto == tcp'],
      ['b', 'block', 'tcp.dstport == 22 and ip.src == 10.0.0.0/8'],
      ['c', 'block', 'tcp.dport == 22'],
    ]);
    const uri = await open(text);
    const quote = (await actions(uri, text, at(text, '== tcp', 4))).find((a) => a.title.startsWith('Quote'))!;
    expect(quote.kind).toBe('quickfix');
    expect(expressionOf(applied(uri, text, quote), 0)).toBe('ip.proto == "tcp"');
    const cidr = (await actions(uri, text, at(text, '10.0.0.0/8', 2))).find((a) => a.title.startsWith('Write'))!;
    expect(expressionOf(applied(uri, text, cidr), 1)).toBe('tcp.dstport == 22 and ip.src in {10.0.0.0/8}');
    const field = (await actions(uri, text, at(text, 'tcp.dport', 2))).find((a) => a.title === 'Change tcp.dport to tcp.dstport')!;
    expect(expressionOf(applied(uri, text, field), 2)).toBe('tcp.dstport == 22');
  });

  it('merge f == a or f == b into f in {a b}, the meaning kept', async () => {
    const text = snapshot([['a', 'block', 'ip.proto == "udp" and (tcp.dstport == 22 or tcp.dstport == 80 or tcp.dstport == 443 or ip.src == 10.0.0.1)']]);
    const uri = await open(text);
    const merge = (await actions(uri, text, at(text, 'tcp.dstport == 80', 2))).find((a) => a.kind === 'refactor.rewrite')!;
    expect(merge.title).toBe('Merge into tcp.dstport in {22 80 443}');
    const after = expressionOf(applied(uri, text, merge));
    expect(after).toBe('ip.proto == "udp" and (tcp.dstport in {22 80 443} or ip.src == 10.0.0.1)');
    // the same verdict on every rule's region: diff --static proves the two rulesets equivalent
    const before = path.join(dir, 'merge-before.json');
    const afterFile = path.join(dir, 'merge-after.json');
    writeFileSync(before, text);
    writeFileSync(afterFile, applied(uri, text, merge));
    expect(runCli(['diff', '--static', before, afterFile]).status).toBe(0);
  });

  it('remove a rule lint proved unreachable, leaving valid JSON', async () => {
    const text = snapshot([
      ['ssh', 'block', 'tcp.dstport == 22'],
      ['ssh-again', 'block', 'tcp.dstport in {22}'],
      ['web', 'skip', 'tcp.dstport == 443'],
    ]);
    const uri = await open(text);
    const remove = (await actions(uri, text, at(text, 'tcp.dstport in {22}', 1))).find((a) => a.title === 'Remove ssh-again (unreachable)')!;
    expect(remove.diagnostics?.[0]?.code).toBe('unreachable');
    const after = JSON.parse(applied(uri, text, remove));
    expect(after.rulesets[0].rules.map((r: { ref: string }) => r.ref)).toEqual(['ssh', 'web']);
  });
});

describe('symbols, definitions and tokens', () => {
  it('lists the rules by ref and the lists, goes to a list\'s definition, and colours each token of an expression', async () => {
    const text = snapshot([
      ['office', 'skip', 'ip.src in $office'],
      ['ssh', 'block', 'tcp.dstport == 22 and not ip.proto == "udp"'],
    ]);
    const uri = await open(text);
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.map((s) => s.name)).toEqual(['$office', 'office', 'ssh']);
    const def = await client.request<Location>('textDocument/definition', { textDocument: { uri }, position: at(text, '$office', 3) });
    expect(text.slice(offsetOf(text, def.range.start), offsetOf(text, def.range.end))).toBe('"office"');
    expect(def.range.start).toEqual(at(text, '"office"'));
    const tokens = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri } });
    // decode: [deltaLine, deltaStart, length, type, modifiers] with the legend the server announced
    const legend = ['property', 'function', 'variable', 'operator', 'keyword', 'string', 'number'];
    const decoded: string[] = [];
    let line = 0;
    let char = 0;
    for (let i = 0; i < tokens.data.length; i += 5) {
      line += tokens.data[i]!;
      char = tokens.data[i] === 0 ? char + tokens.data[i + 1]! : tokens.data[i + 1]!;
      const start = offsetOf(text, { line, character: char });
      decoded.push(`${legend[tokens.data[i + 3]!]}:${text.slice(start, start + tokens.data[i + 2]!)}`);
    }
    expect(decoded).toEqual(['property:ip.src', 'operator:in', 'variable:$office', 'property:tcp.dstport', 'operator:==', 'number:22', 'keyword:and', 'keyword:not', 'property:ip.proto', 'operator:==', 'string:\\"udp\\"']);
  });
});

/** Waits for the server to say it measured a document's traffic. */
async function measured(c: LspClient, uri: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!c.notifications.some((n) => n.method === 'edgesim/traffic' && (n.params as { uri: string }).uri === uri) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

/** A lens's figures: hits, drops, ns per evaluation. */
function figures(lens: CodeLens): [number, number] {
  const m = /^([\d,]+) hits · ([\d,]+) dropped · [\d.,]+ ns\/eval$/.exec(lens.command!.title)!;
  return [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))];
}

describe('traffic in the editor', () => {
  it('shows each rule\'s hits and drops on the capture the setting names, as replay counts them, as code lenses and inlay hints, after a save', async () => {
    const own = await LspClient.start({ capture: 'examples/demo.pcap', debounceMs: 0 });
    try {
      const file = path.join(dir, 'demo.json');
      const text = readFileSync(path.join(ROOT, 'examples/demo-snapshot.json'), 'utf8');
      writeFileSync(file, text);
      const uri = pathToFileURL(file).href;
      await own.open(uri, text);
      await own.save(uri);
      await measured(own, uri);
      const lenses = await own.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      const hints = await own.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } } });
      const replay = JSON.parse(runCli(['replay', 'examples/demo.pcap', '--config', file, '--format', 'json']).stdout) as { rules: Array<{ ref: string; action: string; hits: number; decided: number }> };
      expect(lenses.length).toBe(replay.rules.length);
      expect(hints.length).toBe(replay.rules.length);
      replay.rules.forEach((r, i) => {
        const lens = lenses.find((l) => l.range.start.line === at(text, `"ref": "${r.ref}"`).line)!;
        expect(figures(lens), r.ref).toEqual([r.hits, r.action === 'block' ? r.decided : 0]);
        expect(lens.command!.arguments![0]).toContain(`${r.ref} on demo.pcap (4,526 packets)`);
        void i;
      });
      expect(replay.rules.reduce((n, r) => n + r.hits, 0)).toBeGreaterThan(1000);
    } finally {
      await own.stop();
    }
  });

  it('or on the capture a comment names, in a .rules file', async () => {
    const lines = ['tcp.dstport in { 23 2323 }', 'tcp.dstport == 22', 'udp.dstport == 53 and not ip.dst in { 198.51.100.53 }'];
    const text = `# edgesim: capture=${path.join(ROOT, 'examples/demo.pcap')}\n${lines.join('\n')}\n`;
    const uri = await open(text, 'rules', 'edgesim-rules');
    await client.save(uri);
    await measured(client, uri);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const config = path.join(dir, 'lines.json');
    writeFileSync(config, JSON.stringify({ rulesets: [{ name: 'rules', kind: 'root', phase: 'magic_transit', rules: lines.map((expression, i) => ({ ref: `line-${i + 2}`, action: 'block', expression })) }] }));
    const replay = JSON.parse(runCli(['replay', 'examples/demo.pcap', '--config', config, '--format', 'json']).stdout) as { rules: Array<{ hits: number; decided: number }> };
    expect(lenses.map(figures)).toEqual(replay.rules.map((r) => [r.hits, r.decided]));
  });
});

describe('a 1,000-rule file', () => {
  const big = () =>
    JSON.stringify(
      {
        lists: PARTNER_LISTS,
        rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: realisticRuleset(985).map(([ref, action, expression]) => ({ ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' } } : {}) })) }],
      },
      null,
      2,
    );

  it('answers completion while lint runs, and after typing faster than lint, settles on a fresh lint of the last text', async () => {
    let text = big();
    const file = path.join(dir, 'big.json');
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;
    await client.open(uri, text);
    // lint of 1,000 rules takes a while on its thread; a completion asked meanwhile is answered first
    const order: string[] = [];
    const settled = client.settled(uri).then(() => order.push('settled'));
    const completion = complete(uri, at(text, '"expression": "', 15)).then((items) => {
      order.push('completion');
      return items;
    });
    expect((await completion).length).toBeGreaterThan(20);
    await settled;
    expect(order).toEqual(['completion', 'settled']);
    // edits sent one after another without waiting: each makes the running lint stale
    const target = text.indexOf('"expression": "', text.indexOf('"ref": "customer-500"')) + 15;
    for (const typed of ['tcp.dstport == 1 or ', 'tcp.dstport == 2 or ', 'ip.proto == tcp or ']) {
      await client.change(uri, [{ range: { start: at(text, '', target), end: at(text, '', target) }, text: typed }]);
      text = text.slice(0, target) + typed + text.slice(target);
    }
    const diagnostics = await client.settled(uri);
    // the last text's rule customer-500 holds a bare protocol name: the server leaves it out of lint, as the reference does
    const reference = JSON.parse(text);
    reference.rulesets[0].rules = reference.rulesets[0].rules.filter((r: { ref: string }) => r.ref !== 'customer-500');
    writeFileSync(file, JSON.stringify(reference, null, 2));
    const lint = JSON.parse((await runCliAsync(['lint', file, '--json'])).stdout) as { findings: Array<{ kind: string; message: string }> };
    const findings = diagnostics.filter((d) => typeof d.code === 'string' && lint.findings.some((f) => f.kind === d.code)).map((d) => `${String(d.code)}|${d.message}`);
    // the deploy-time checks count the rules as the file has them (the refused one too); the analysis's findings are of the rest
    const expected = lint.findings.map((f) => `${f.kind}|${f.message}`.replace('fw: 999 rules', 'fw: 1000 rules'));
    expect(findings.sort()).toEqual(expected.sort());
    expect(expected).toContain("too_many_rules|fw: 1000 rules, more than the account's limit of 200");
    expect(diagnostics.filter((d) => d.severity === 1 && d.code === 'parse_int')).toHaveLength(1);
  });
});

describe('a capture named by a suite', () => {
  it('shows the traffic of a configuration a suite in its folder runs with a capture case', async () => {
    const own = await LspClient.start({ debounceMs: 0 });
    try {
      const folder = tempDir('edgesim-lsp-suite-');
      const config = path.join(folder, 'firewall.json');
      const text = readFileSync(path.join(ROOT, 'examples/demo-snapshot.json'), 'utf8');
      writeFileSync(config, text);
      writeFileSync(path.join(folder, 'other.yaml'), 'network_firewall_rules: []\n');
      writeFileSync(path.join(folder, 'suite.yaml'), `config: firewall.json\ncases:\n  - name: the capture\n    capture: ${path.join(ROOT, 'examples/demo.pcap')}\n    expect: {totals: {packets: 4526}}\n`);
      const uri = pathToFileURL(config).href;
      await own.open(uri, text);
      await own.save(uri);
      await measured(own, uri);
      const lenses = await own.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      expect(lenses.length).toBe(JSON.parse(text).rulesets[0].rules.length);
      expect(lenses[0]!.command!.arguments![0]).toContain('on demo.pcap (4,526 packets)');
    } finally {
      await own.stop();
    }
  });

  it('or of several captures a case names, merged by time as test reads them: the parts editcap cuts count as the whole', async () => {
    const own = await LspClient.start({ debounceMs: 0 });
    try {
      const folder = tempDir('edgesim-lsp-parts-');
      const config = path.join(folder, 'firewall.json');
      const text = readFileSync(path.join(ROOT, 'examples/demo-snapshot.json'), 'utf8');
      writeFileSync(config, text);
      execFileSync('editcap', ['-c', '2000', path.join(ROOT, 'examples/demo.pcap'), path.join(folder, 'part.pcap')]);
      const parts = readdirSync(folder).filter((f) => f.startsWith('part')).sort();
      expect(parts.length).toBe(3);
      writeFileSync(path.join(folder, 'suite.yaml'), `config: firewall.json\ncases:\n  - name: the parts\n    capture: [${parts.join(', ')}]\n    expect: {totals: {packets: 4526}}\n`);
      const uri = pathToFileURL(config).href;
      await own.open(uri, text);
      await own.save(uri);
      await measured(own, uri);
      const lenses = await own.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      const replay = JSON.parse(runCli(['replay', 'examples/demo.pcap', '--config', config, '--format', 'json']).stdout) as { rules: Array<{ ref: string; action: string; hits: number; decided: number }> };
      expect(lenses.length).toBe(replay.rules.length);
      for (const r of replay.rules) {
        const lens = lenses.find((l) => l.range.start.line === at(text, `"ref": "${r.ref}"`).line)!;
        expect(figures(lens), r.ref).toEqual([r.hits, r.action === 'block' ? r.decided : 0]);
        expect(lens.command!.arguments![0]).toContain(`${r.ref} on ${parts.join(' + ')} (4,526 packets)`);
      }
    } finally {
      await own.stop();
    }
  });
});

describe('other JSON and YAML files', () => {
  it('get no diagnostics when they hold no expression, broken or not; a file that holds one gets them', async () => {
    const plain = pathToFileURL(path.join(dir, 'package.json')).href;
    await client.open(plain, '{"name": "x", "version": 1,,}');
    expect(await client.settled(plain)).toEqual([]);
    const yaml = pathToFileURL(path.join(dir, 'compose.yaml')).href;
    await client.open(yaml, 'services:\n  web: {image: nginx\n', 'yaml');
    expect(await client.settled(yaml)).toEqual([]);
    const holding = pathToFileURL(path.join(dir, 'alerts.json')).href;
    await client.open(holding, '{"alerts": [{"expression": "tcp.dport == 22"}] "x": 1}');
    const got = await client.settled(holding);
    expect(got.map((d) => d.code)).toEqual(['syntax', 'unknown_identifier', 'hint']);
  });
});
