// Rule identity across a Terraform plan's two sides (issue 32): for each real-world plan, written
// once as the provider's examples and the vendor's docs write rules (no `ref`) and once with a `ref`
// on every rule, `diff --plan` reports exactly the same frames and verdicts, in every format, the
// rules named by their description where the twin names them by ref; so do `diff --static --plan`
// and `lint --plan`. A suite pinned from the state without refs runs against the plan and fails
// exactly where the suite pinned from the state with refs fails against its plan.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration } from '../../src/config/inputs/index.js';
import { markdownText } from '../../src/review/markdown.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const DEMO = 'examples/demo.pcap';
const FIXTURES = 'test/config/inputs/fixtures/real-world';
const PAIRS = ['v4-acceptance-single-to-multiple', 'v5-pull-request', 'v4-pull-request', 'v5-module-new-lists'];
const at = (folder: string, file: string): string => `${FIXTURES}/${folder}/${file}`;

/** Each name of a rule in `plan.json` (both sides) to the ref of the same rule in `plan-refs.json`. */
async function refsOf(folder: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const side of ['before', 'after'] as const) {
    const plain = await readConfiguration([{ file: path.join(ROOT, at(folder, 'plan.json')), plan: side }], { unknownLists: 'allow' });
    const refs = await readConfiguration([{ file: path.join(ROOT, at(folder, 'plan-refs.json')), plan: side }], { unknownLists: 'allow' });
    plain.snapshot.rulesets?.forEach((rs, i) => rs.rules?.forEach((rule, j) => names.set(rule.ref!, refs.snapshot.rulesets![i]!.rules![j]!.ref!)));
  }
  return names;
}

/** `text` with every rule name of the plan without refs written as the twin's ref, the plan's file named as the twin's. */
function asTwin(text: string, names: Map<string, string>, escape: (s: string) => string = (s) => s): string {
  let out = text.replaceAll('plan.json', 'plan-refs.json');
  for (const [name, ref] of [...names].sort((a, b) => b[0].length - a[0].length)) out = out.replaceAll(escape(name), escape(ref));
  return out;
}

/** A text table's rows as cells, without the borders and padding (names change a column's width). */
function tableCells(text: string): string[][] {
  return text.split('\n').map((line) => line.split(/[│┌┐└┘├┤┬┴┼─]+/).map((c) => c.trim()).filter((c) => c !== ''));
}

const jsonLines = (text: string): string => text.replace(/plan-refs\.json:\d+/g, 'plan-refs.json:LINE');

const withoutIdNote = (stderr: string): string => stderr.split('\n').filter((l) => !l.includes('known only after apply (no ref)')).join('\n');

describe.each(PAIRS)('%s: diff --plan without refs reports what the plan with refs reports', (folder) => {
  it.each(['text', 'json', 'ndjson', 'markdown'])('--format %s', async (format) => {
    const names = await refsOf(folder);
    const plain = runCli(['diff', DEMO, '--plan', at(folder, 'plan.json'), '--format', format]);
    const refs = runCli(['diff', DEMO, '--plan', at(folder, 'plan-refs.json'), '--format', format]);
    if (format !== 'ndjson' || refs.status === 1) expect(refs.stdout).not.toBe('');
    expect(plain.status).toBe(refs.status);
    expect(asTwin(withoutIdNote(plain.stderr), names)).toBe(refs.stderr);
    if (format === 'text') expect(tableCells(asTwin(plain.stdout, names))).toEqual(tableCells(refs.stdout));
    // a rule placed in the plan's JSON (no .tf files beside it) is at that file's line, which the ref lines move
    else if (format === 'markdown') expect(jsonLines(asTwin(plain.stdout, names, markdownText)).split('\n').filter((l) => !l.includes('known only after apply'))).toEqual(jsonLines(refs.stdout).split('\n'));
    else expect(asTwin(plain.stdout, names, (s) => JSON.stringify(s).slice(1, -1))).toBe(refs.stdout);
  });

  it('says once, on standard error and in the pull-request comment, that the ids are known only after apply and that ref keeps names stable', () => {
    const r = runCli(['diff', DEMO, '--plan', at(folder, 'plan.json'), '--format', 'markdown']);
    const said = r.stderr.split('\n').filter((l) => l.includes('known only after apply'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^edgesim: warning: (module\.fw\.)?cloudflare_ruleset\.mt: \d+ rules' ids are known only after apply \(no ref\): matched to the rules in state by content and order; set ref on each rule to keep its name stable$/);
    expect(r.stdout.split('\n').filter((l) => l.includes('known only after apply'))).toHaveLength(1);
  });

  it('diff --static --plan and lint --plan: the same classes and findings', async () => {
    const names = await refsOf(folder);
    const json = (s: string): string => JSON.stringify(s).slice(1, -1);
    const plain = runCli(['diff', '--static', '--plan', at(folder, 'plan.json'), '--format', 'json']);
    const refs = runCli(['diff', '--static', '--plan', at(folder, 'plan-refs.json'), '--format', 'json']);
    expect([plain.status, asTwin(plain.stdout, names, json)]).toEqual([refs.status, refs.stdout]);
    const lintPlain = runCli(['lint', '--plan', at(folder, 'plan.json'), '--json']);
    const lintRefs = runCli(['lint', '--plan', at(folder, 'plan-refs.json'), '--json']);
    expect([lintPlain.status, asTwin(lintPlain.stdout, names, json)]).toEqual([lintRefs.status, lintRefs.stdout]);
  });
});

describe('suites pinned from a state without refs', () => {
  /** Pins the state, runs the suite against the plan; the names and positions of the cases that failed. */
  function failing(folder: string, suffix: string): { status: number | null; failed: string[]; positions: number[]; total: number } {
    const suite = path.join(tempDir('edgesim-plan-suite-'), 'pinned.yaml');
    const pin = runCli(['pin', '--config', at(folder, `state${suffix}.json`), '--out', suite]);
    expect(pin.status).toBe(0);
    const r = runCli(['test', suite, '--plan', at(folder, `plan${suffix}.json`), '--format', 'json']);
    const report = JSON.parse(r.stdout) as { cases: Array<{ name: string; status: string }> };
    const positions = report.cases.flatMap((c, i) => (c.status === 'passed' ? [] : [i]));
    return { status: r.status, failed: positions.map((i) => report.cases[i]!.name), positions, total: report.cases.length };
  }

  it.each(PAIRS)('%s: run against the plan, fail exactly where the suite pinned with refs fails against its plan', (folder) => {
    const plain = failing(folder, '');
    const refs = failing(folder, '-refs');
    expect(plain.total).toBe(refs.total);
    expect(plain.status).toBe(refs.status);
    expect(plain.positions).toEqual(refs.positions);
  });

  it('v5-pull-request: each of its three changes fails the cases of the packets it moves, and nothing else', () => {
    const { failed, status } = failing('v5-pull-request', '');
    expect(status).toBe(1);
    const web = 'cloudflare_ruleset.mt: Allows inbound HTTP/S traffic from the Internet with SYN-only or ACK-only flag…';
    const replies = 'cloudflare_ruleset.mt: Allows UDP replies for DNS and NTP to web servers';
    const catchAll = 'cloudflare_ruleset.mt: Catch-all to block all other traffic destined for web server IP addresses';
    expect(failed).toEqual([
      // port 80 removed from the HTTP/S rule: its packets to port 80 go to the catch-all
      `${web}: every packet of its region`,
      `${web}: inside, tcp.dstport 80`,
      // the DNS/NTP replies rule disabled
      replies,
      `${replies}: every packet of its region`,
      // the HTTP/3 rule added before the catch-all takes UDP 443 from it (the catch-all's region is one space, a union of its boxes)
      `${catchAll}: every packet of its region`,
    ]);
  });
});

describe('the v4 acceptance test, single to multiple rules, on the demo capture', () => {
  it('reports the 429 frames the new block rule drops, not the 1,277 frames of renamed rules', () => {
    const r = runCli(['diff', DEMO, '--plan', at('v4-acceptance-single-to-multiple', 'plan.json'), '--format', 'json']);
    const report = JSON.parse(r.stdout) as { changed: number; groups: Array<{ before: { rule: string | null }; after: { rule: string | null }; packets: number }> };
    expect(report.changed).toBe(429);
    expect(report.groups.map((g) => [g.before.rule, g.after.rule, g.packets])).toEqual([[null, 'cloudflare_ruleset.mt: Block UDP Ephemeral Ports', 429]]);
    expect(readFileSync(path.join(ROOT, at('v4-acceptance-single-to-multiple', 'plan.json')), 'utf8')).toContain('"ref": true');
  });
});
