// The server's diagnostics are the commands' words: for every expression of a file, what `edgesim
// validate` prints (the engine's message, then its hint) is the diagnostic at that expression, byte
// for byte; and `edgesim lint --json` on the same file gives the same findings (kind, severity,
// message) on the same rules as the server's other diagnostics. Checked on the demo, on the real-world
// shaped fixtures of each format (vendor API, Terraform state, octorules), on a suite with its
// configuration inline, on a `.rules` file, and on files holding broken expressions, escapes, dead
// rules and deploy-time problems; the expressions are found here by the formats' own parsers, not by
// the server's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findNodeAtLocation, getNodePath, parseTree, type Node } from 'jsonc-parser';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver/node.js';
import { FINDING_KINDS } from '../../src/analysis/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { LspClient, offsetOf } from '../helpers/lsp-client.js';
import { tempDir } from '../helpers/temp-dir.js';

let client: LspClient;
let dir: string;

beforeAll(async () => {
  client = await LspClient.start();
  dir = tempDir('edgesim-lsp-diag-');
});

afterAll(async () => {
  expect(await client?.stop()).toBe(0);
});

/** An expression of a file as the file's own parser finds it: its value, scheme, where the string is, and the object holding it. */
interface Found {
  value: string;
  scheme: 'firewall' | 'filter';
  start: number;
  end: number;
  /** the rule (or filter) object: where it starts (1-based line and column, as lint places it) and what it is called */
  owner: { start: number; end: number; line: number; column: number; name: string };
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

function jsonExpressions(text: string): Found[] {
  const root = parseTree(text)!;
  const out: Found[] = [];
  const walk = (node: Node): void => {
    if (node.type === 'property' && node.children![0]!.value === 'expression' && node.children![1]!.type === 'string') {
      const value = node.children![1]!;
      const owner = node.parent!;
      const path = getNodePath(owner);
      const prop = (k: string) => findNodeAtLocation(owner, [k])?.value as string | undefined;
      const name = prop('ref') ?? prop('id') ?? `${String(path[0])}.filters[${String(path[2])}]`;
      out.push({ value: value.value as string, scheme: path.includes('filters') ? 'filter' : 'firewall', start: value.offset, end: value.offset + value.length, owner: { start: owner.offset, end: owner.offset + owner.length, ...lineColumn(text, owner.offset), name } });
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(root);
  return out;
}

function yamlExpressions(text: string): Found[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const out: Found[] = [];
  const walk = (node: unknown, filters: boolean): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        if (pair.key.value === 'expression' && isScalar(pair.value)) {
          const v = pair.value as YamlNode;
          const { line, col } = lines.linePos(node.range![0]);
          out.push({ value: String(pair.value.value), scheme: filters ? 'filter' : 'firewall', start: v.range![0], end: v.range![2], owner: { start: node.range![0], end: node.range![2], line, column: col, name: String(node.get('ref') ?? node.get('id')) } });
        } else walk(pair.value, filters || pair.key.value === 'filters');
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item, filters);
  };
  walk(doc.contents, false);
  return out;
}

function rulesExpressions(text: string): Found[] {
  const out: Found[] = [];
  let offset = 0;
  text.split('\n').forEach((line, n) => {
    const t = line.replace(/\r$/, '');
    if (t.trim() !== '' && !t.trim().startsWith('#')) out.push({ value: t, scheme: 'firewall', start: offset, end: offset + t.length, owner: { start: offset, end: offset + t.length, line: n + 1, column: 1, name: `line-${n + 1}` } });
    offset += line.length + 1;
  });
  return out;
}

const SEVERITY: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'note', 4: 'hint' };
const isFinding = (d: Diagnostic) => typeof d.code === 'string' && d.code in FINDING_KINDS;

/** What `edgesim validate` prints for an expression. */
function validateOutput(e: Found): string {
  const r = runCli(['validate', '--scheme', e.scheme, '-'], { input: e.value });
  return r.stdout;
}

/** The server's diagnostics of a file, and the expressions its own parser finds there. */
async function check(file: string, languageId: string, found: (text: string) => Found[]) {
  const text = readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  await client.open(uri, text, languageId);
  const diagnostics = await client.settled(uri);
  const expressions = found(text);
  const at = (d: Diagnostic) => offsetOf(text, d.range.start);
  const holding = (d: Diagnostic) => expressions.find((e) => at(d) >= e.owner.start && at(d) <= e.owner.end);
  return { text, diagnostics, expressions, at, holding };
}

/** Each expression's diagnostics from the engine (error, then hint) as validate prints them, against validate. */
function expectValidateWords(c: Awaited<ReturnType<typeof check>>): number {
  let invalid = 0;
  for (const e of c.expressions) {
    const own = c.diagnostics.filter((d) => !isFinding(d) && d.code !== 'schema' && c.at(d) >= e.start && c.at(d) <= e.end);
    const error = own.find((d) => d.severity === 1);
    const hint = own.find((d) => d.severity === 4);
    const printed = error === undefined ? 'valid\n' : `${error.message}\n${hint === undefined ? '' : `${hint.message}\n`}`;
    expect(printed, e.value).toBe(validateOutput(e));
    if (error !== undefined) invalid++;
  }
  return invalid;
}

/** lint --json's findings as kind|severity|message|rule, and the server's, each on the rule whose object holds it. */
function findingKeys(c: Awaited<ReturnType<typeof check>>, lintFindings: Array<{ kind: string; severity: string; message: string; rule: string | null; location: { line?: number; column?: number } }>) {
  const server = c.diagnostics
    .filter(isFinding)
    .map((d) => `${String(d.code)}|${SEVERITY[d.severity!]}|${d.message}|${c.holding(d)?.owner.name ?? '(ruleset)'}`)
    .sort();
  const cli = lintFindings.map((f) => `${f.kind}|${f.severity}|${f.message}|${f.rule ?? '(ruleset)'}`).sort();
  return { server, cli };
}

function lintJson(file: string): { status: number | null; findings: Array<{ kind: string; severity: string; message: string; rule: string | null; location: { line?: number; column?: number } }>; stderr: string } {
  const r = runCli(['lint', file, '--json']);
  return { status: r.status, findings: r.status === 2 ? [] : (JSON.parse(r.stdout) as { findings: [] }).findings, stderr: r.stderr };
}

describe('diagnostics equal validate and lint, byte for byte', () => {
  it('on the demo snapshot: every expression valid, lint\'s one warning on its rule at lint\'s place', async () => {
    const file = path.join(ROOT, 'examples/demo-snapshot.json');
    const c = await check(file, 'json', jsonExpressions);
    expect(expectValidateWords(c)).toBe(0);
    const lint = lintJson(file);
    const { server, cli } = findingKeys(c, lint.findings);
    expect(server).toEqual(cli);
    expect(cli.length).toBeGreaterThan(0);
    // the finding sits on the rule object lint's location names
    for (const f of lint.findings) {
      const d = c.diagnostics.find((x) => x.message === f.message)!;
      const owner = c.holding(d)!.owner;
      expect([owner.line, owner.column]).toEqual([f.location.line, f.location.column]);
    }
  });

  it('on a snapshot with broken expressions (JSON escapes included), dead rules, an ATP filter and deploy-time problems', async () => {
    const demo = JSON.parse(readFileSync(path.join(ROOT, 'examples/demo-snapshot.json'), 'utf8'));
    const rules = demo.rulesets[0].rules;
    rules[2].expression = 'ip.proto == icmp and icmp.type == 8';
    rules[4].expression = 'udp.dport == 53';
    rules.push({ ref: 'telnet-again', action: 'block', expression: 'tcp.dstport == 23' });
    rules.push({ ref: 'never', action: 'block', expression: 'tcp.dstport == 22 and udp.dstport == 53' });
    rules.push({ ref: 'upper', action: 'log', expression: 'ip.proto == "TCP"', logging: { enabled: true } });
    rules.push({ ref: 'net-eq', action: 'block', expression: 'ip.src == 203.0.113.0/24' });
    rules.push({ ref: 'escaped', action: 'log', expression: 'PLACEHOLDER' });
    demo.syn_protection.filters = [{ expression: 'ip.proto == "tcp"', mode: 'enabled' }, { expression: 'tcp.dstport == 443', mode: 'monitoring' }];
    // an escaped expression: \u0074 is "t", and the error's caret lands on escapes
    const text = JSON.stringify(demo, null, 2).replace('"PLACEHOLDER"', '"\\u0074cp.dstport == 23 and \\u0069p.prot == \\"udp\\""');
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, text);
    const c = await check(file, 'json', jsonExpressions);
    expect(expectValidateWords(c)).toBe(5);
    // the error's range is exactly the characters the engine's caret is under: the unknown name, its first letter an escape
    const prot = c.diagnostics.find((d) => d.code === 'unknown_identifier' && d.message.includes('ip.prot =='))!;
    expect(c.text.slice(c.at(prot), offsetOf(c.text, prot.range.end))).toBe('\\u0069p.prot');
    // lint refuses the file: its lines name each engine message the server shows
    const lint = lintJson(file);
    expect(lint.status).toBe(2);
    for (const d of c.diagnostics.filter((x) => x.severity === 1 && !isFinding(x))) expect(lint.stderr).toContain(d.message);
    // the server's findings are lint's on the file without the rules the engine refuses
    const refused = new Set(c.expressions.filter((e) => validateOutput(e) !== 'valid\n').map((e) => e.value));
    const kept = JSON.parse(text);
    kept.rulesets[0].rules = kept.rulesets[0].rules.filter((r: { expression: string }) => !refused.has(r.expression));
    kept.syn_protection.filters = kept.syn_protection.filters.filter((r: { expression: string }) => !refused.has(r.expression));
    const keptFile = path.join(dir, 'kept.json');
    writeFileSync(keptFile, JSON.stringify(kept, null, 2));
    const { server, cli } = findingKeys(c, lintJson(keptFile).findings);
    expect(server).toEqual(cli);
    expect(cli.map((k) => k.split('|')[0])).toEqual(expect.arrayContaining(['unreachable', 'unmatchable', 'impossible_comparison', 'logging_not_on_skip']));
  });

  it('on the vendor API\'s response and on a Terraform state', async () => {
    for (const name of ['vendor-entrypoint.json', 'terraform-v5-state.json']) {
      const file = path.join(ROOT, 'test/config/inputs/fixtures', name);
      const c = await check(file, 'json', jsonExpressions);
      expect(expectValidateWords(c)).toBe(0);
      const { server, cli } = findingKeys(c, lintJson(file).findings);
      expect(server, name).toEqual(cli);
    }
  });

  it('on an octorules account file, as written and with a broken folded expression', async () => {
    const source = path.join(ROOT, 'test/config/inputs/fixtures/octorules-account.yaml');
    let c = await check(source, 'yaml', yamlExpressions);
    expect(expectValidateWords(c)).toBe(0);
    let keys = findingKeys(c, lintJson(source).findings);
    expect(keys.server).toEqual(keys.cli);
    const broken = readFileSync(source, 'utf8').replace('and tcp.dstport in { 80 443 }', 'and tcp.dstport in { 80 443 }\n      and ip.proto == tcp').replace('"tcp.dstport in { 23 2323 }"', 'tcp.dstport in { 23 2323 } or tcp.dstport == 23');
    const file = path.join(dir, 'octorules.yaml');
    writeFileSync(file, broken);
    c = await check(file, 'yaml', yamlExpressions);
    expect(expectValidateWords(c)).toBe(1);
    // the error is on the folded block's last line, at the bare word
    const err = c.diagnostics.find((d) => d.severity === 1 && !isFinding(d))!;
    expect(c.text.slice(c.at(err), c.at(err) + 3)).toBe('tcp');
    expect(err.range.start.line).toBe(broken.slice(0, broken.indexOf('and ip.proto == tcp')).split('\n').length - 1);
    const lint = lintJson(file);
    expect(lint.status).toBe(2);
    expect(lint.stderr).toContain(err.message);
  });

  it('on a suite whose configuration is inline, and on a .rules file (each line a block rule)', async () => {
    const suite = path.join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      [
        'config:',
        '  rulesets:',
        '    - name: fw',
        '      kind: root',
        '      phase: magic_transit',
        '      rules:',
        '        - {ref: ssh, action: block, expression: "tcp.dstport == 22"}',
        '        - {ref: ssh-again, action: block, expression: "tcp.dstport in {22}"}',
        '        - {ref: bad, action: block, expression: "tcp.dstport == 22 and ip.src == 10.0.0.0/8"}',
        'cases:',
        '  - name: ssh is blocked',
        '    packet: {tcp.dstport: 22}',
        '    expect: {verdict: drop}',
        '',
      ].join('\n'),
    );
    const c = await check(suite, 'yaml', yamlExpressions);
    expect(expectValidateWords(c)).toBe(1);
    const unreachable = c.diagnostics.find((d) => d.code === 'unreachable')!;
    expect(unreachable.message).toBe('ssh-again (block) is never reached: every packet it matches is decided earlier by ssh');
    expect(c.holding(unreachable)!.owner.name).toBe('ssh-again');
    // the covering rule is related information
    expect(unreachable.relatedInformation?.map((r) => c.text.slice(offsetOf(c.text, r.location.range.start), offsetOf(c.text, r.location.range.end)))).toEqual(['"tcp.dstport == 22"']);

    const rules = path.join(dir, 'office.rules');
    writeFileSync(rules, '# SSH from the office only\ntcp.dstport == 22 and not ip.src in {10.0.0.0/8}\ntcp.dstport == 22 and ip.src == 198.51.100.7\nip.proto == "TCP"\nip.proto == tcp\n');
    const r = await check(rules, 'edgesim-rules', rulesExpressions);
    expect(expectValidateWords(r)).toBe(1);
    // lint of the same lines as block rules, named by line, in a snapshot
    const snapshot = { rulesets: [{ name: 'rules', kind: 'root', phase: 'magic_transit', rules: r.expressions.filter((e) => validateOutput(e) === 'valid\n').map((e) => ({ ref: e.owner.name, action: 'block', expression: e.value })) }] };
    const snapshotFile = path.join(dir, 'rules.json');
    writeFileSync(snapshotFile, JSON.stringify(snapshot));
    const keys = findingKeys(r, lintJson(snapshotFile).findings);
    expect(keys.server).toEqual(keys.cli);
    expect(keys.cli.map((k) => k.split('|')[0]).sort()).toEqual(['impossible_comparison', 'unmatchable', 'unreachable']);
  });
});
