// As a ruleset is edited, the server's diagnostics after each edit are a fresh lint's: random
// rulesets (rules over ports, addresses, protocols, countries and lists, some dead, some with
// warnings, some with expressions the engine refuses) are edited at random — a rule inserted,
// removed, its action or expression changed, a typo made — and sent as the one-range change an
// editor sends; once the server says its diagnostics are final for that version, they must be what
// the library's `lint` (edgesim lint's findings) finds in the same text, on the same rules, and the
// engine's message (as `validate` prints it) for each expression it refuses; a rule the engine
// refuses is left out of lint's run, as the server leaves it out.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver/node.js';
import { FINDING_KINDS } from '../../src/analysis/index.js';
import { hintFor, FIREWALL_SCHEME, validateExpression } from '../../src/lang/index.js';
import { runCliAsync } from '../helpers/cli.js';
import { LspClient, offsetOf } from '../helpers/lsp-client.js';
import { tempDir } from '../helpers/temp-dir.js';

let client: LspClient;
let dir: string;

beforeAll(async () => {
  client = await LspClient.start({ debounceMs: 0 });
  dir = tempDir('edgesim-lsp-prop-');
});

afterAll(async () => {
  expect(await client?.stop()).toBe(0);
});

const LEAVES = [
  'tcp.dstport == 22',
  'tcp.dstport in {22 80 443}',
  'tcp.dstport != 22',
  'udp.dstport == 53',
  'ip.src in {10.0.0.0/8}',
  'ip.src in {10.1.0.0/16 192.0.2.0/24}',
  'ip.dst in {203.0.113.0/24}',
  'ip.src in $office',
  'ip.src in $empty',
  'ip.src in $nosuch',
  'ip.proto == "tcp"',
  'ip.proto == "TCP"',
  'ip.src.country in {"KP" "IR"}',
  'ip.src.country == "kp"',
  'ip.len > 1400',
  'tcp.flags.syn',
  'tcp.dstport > 70000',
];
/** what a hurried hand writes: each refused by the engine */
const TYPOS = ['tcp.dstport == ', 'ip.proto == tcp', 'ip.src == 10.0.0.0/8', 'tcp.dport == 22', 'ip.src in {10.0.0.0/8', 'tcp.dstport in {22 80} and'];

const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LEAVES),
    fc.tuple(tie('e'), fc.constantFrom('and', 'or'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('e').map((e) => `not ${e}`),
  ),
})).e;

interface Rule {
  ref: string;
  action: 'block' | 'skip' | 'log';
  expression: string;
}

const rule = (id: number): fc.Arbitrary<Rule> => fc.record({ ref: fc.constant(`r${id}`), action: fc.constantFrom('block', 'skip', 'log'), expression });

type Edit = { kind: 'insert'; at: number; rule: Rule } | { kind: 'remove'; at: number } | { kind: 'action'; at: number; action: Rule['action'] } | { kind: 'expression'; at: number; expression: string } | { kind: 'typo'; at: number; typo: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), rule: rule(0) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('action' as const), at: fc.nat(), action: fc.constantFrom('block', 'skip', 'log') }),
  fc.record({ kind: fc.constant('expression' as const), at: fc.nat(), expression }),
  fc.record({ kind: fc.constant('typo' as const), at: fc.nat(), typo: fc.constantFrom(...TYPOS) }),
);

let nextRef = 1000;

function applied(rules: Rule[], e: Edit): Rule[] {
  const out = rules.slice();
  const at = out.length === 0 ? 0 : e.at % out.length;
  switch (e.kind) {
    case 'insert':
      out.splice(e.at % (out.length + 1), 0, { ...e.rule, ref: `r${nextRef++}` });
      return out;
    case 'remove':
      if (out.length > 0) out.splice(at, 1);
      return out;
    case 'action':
      if (out.length > 0) out[at] = { ...out[at]!, action: e.action };
      return out;
    case 'expression':
      if (out.length > 0) out[at] = { ...out[at]!, expression: e.expression };
      return out;
    case 'typo':
      if (out.length > 0) out[at] = { ...out[at]!, expression: e.typo };
      return out;
  }
}

const snapshotText = (rules: readonly Rule[]): string =>
  `${JSON.stringify(
    {
      lists: [
        { name: 'office', kind: 'ip', items: [{ ip: '10.1.0.0/16' }] },
        { name: 'empty', kind: 'ip', items: [] },
      ],
      rulesets: [{ name: 'fw', kind: 'root', phase: 'magic_transit', rules: rules.map((r) => ({ ...r, ...(r.action === 'skip' ? { action_parameters: { ruleset: 'current' } } : {}) })) }],
    },
    null,
    2,
  )}\n`;

/** The one-range change an editor sends from `before` to `after` (their common start and end kept). */
function change(before: string, after: string) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const pos = (offset: number) => {
    const lines = before.slice(0, offset).split('\n');
    return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
  };
  return { range: { start: pos(start), end: pos(before.length - end) }, text: after.slice(start, after.length - end) };
}

/** The rule index whose object holds an offset of the text. */
function ruleAt(text: string, offset: number): number {
  const root = parseTree(text)!;
  const rules = findNodeAtLocation(root, ['rulesets', 0, 'rules'])!.children ?? [];
  return rules.findIndex((r) => offset >= r.offset && offset <= r.offset + r.length);
}

const SEVERITY: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'note', 4: 'hint' };

/** The server's diagnostics as comparable lines: what, how severe, the words, and on which rule. */
function serverLines(text: string, diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${String(d.code)}|${SEVERITY[d.severity!]}|${d.message}|${ruleAt(text, offsetOf(text, d.range.start))}`).sort();
}

/** A fresh lint's: the engine's message and hint for each refused expression, lint's findings on the rest. */
async function freshLines(rules: readonly Rule[]): Promise<string[]> {
  const out: string[] = [];
  const kept: Array<{ rule: Rule; index: number }> = [];
  rules.forEach((r, index) => {
    const err = validateExpression(r.expression, 'rule');
    if (err === null) {
      kept.push({ rule: r, index });
      return;
    }
    out.push(`${err.code}|error|${err.message.replace(/\n$/, '')}|${index}`);
    const hint = hintFor(r.expression, err, FIREWALL_SCHEME);
    if (hint !== null) out.push(`hint|hint|${hint}|${index}`);
  });
  const file = path.join(dir, `fresh-${nextRef++}.json`);
  writeFileSync(file, snapshotText(kept.map((k) => k.rule)));
  const byRef = new Map(kept.map((k) => [k.rule.ref, k.index]));
  const r = await runCliAsync(['lint', file, '--json']);
  expect(r.status, r.stderr).not.toBe(2);
  const { findings } = JSON.parse(r.stdout) as { findings: Array<{ kind: string; severity: string; message: string; rule: string | null }> };
  for (const f of findings) out.push(`${f.kind}|${f.severity}|${f.message}|${f.rule === null ? -1 : byRef.get(f.rule)}`);
  return out.sort();
}

describe('the server\'s diagnostics after each edit', () => {
  it('equal a fresh lint of the same text', async () => {
    let doc = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(rule(0), { minLength: 1, maxLength: 8 }), fc.array(edit, { minLength: 1, maxLength: 5 }), async (start, edits) => {
        let rules = start.map((r, i) => ({ ...r, ref: `r${i}` }));
        const uri = pathToFileURL(path.join(dir, `ruleset-${doc++}.json`)).href;
        let text = snapshotText(rules);
        await client.open(uri, text);
        try {
          expect(serverLines(text, await client.settled(uri))).toEqual(await freshLines(rules));
          for (const e of edits) {
            rules = applied(rules, e);
            const next = snapshotText(rules);
            await client.change(uri, [change(text, next)]);
            text = next;
            const diagnostics = await client.settled(uri);
            expect(diagnostics.filter((d) => typeof d.code === 'string' && d.code in FINDING_KINDS).every((d) => d.source === 'edgesim')).toBe(true);
            expect(serverLines(text, diagnostics)).toEqual(await freshLines(rules));
          }
        } finally {
          await client.close(uri);
        }
      }),
      { numRuns: 25 },
    );
  });
});
