// `edgesim diff --format markdown` end to end: the pull-request report's groups, counts and shares
// are those of the JSON output, verdict changes first; each group names the changed rules' lines in
// the user's files and its first frames with the 5-tuples `edgesim inspect` reads; the job summary
// gets the same report; --format table stays text's alias; --static in markdown.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('edgesim-diff-markdown-');
const DEMO = 'examples/demo.pcap';
const BEFORE = 'examples/demo-snapshot.json';

/** The demo snapshot with allow-web off (attribution only: its packets pass by no rule), and two rules added: DNS to the resolver skips by a rule (attribution only), HTTPS from the US drops (a verdict change). */
function changed(): string {
  const s = JSON.parse(readFileSync(BEFORE, 'utf8')) as Snapshot;
  const rules = s.rulesets![0]!.rules!;
  rules.find((r) => r.ref === 'allow-web')!.enabled = false;
  rules.splice(3, 0, { ref: 'skip-dns | resolver', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'udp.dstport == 53 and ip.dst in { 198.51.100.53 }' });
  rules.splice(4, 0, { ref: 'block-us-https', action: 'block', expression: 'tcp.dstport == 443 and ip.src.country == "US"' });
  const file = path.join(tmp, 'after.json');
  writeFileSync(file, JSON.stringify(s, null, 2));
  return file;
}

interface Side {
  verdict: string;
  rule: string | null;
  stage: string | null;
}
interface Group {
  before: Side;
  after: Side;
  packets: number;
  frames: number[];
}

/** The line of the `{` that opens the rule with this ref (JSON text, one key a line). */
function ruleLine(file: string, ref: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  let i = lines.findIndex((l) => l.includes(`"ref": ${JSON.stringify(ref)}`));
  while (!lines[i]!.trim().startsWith('{')) i--;
  return i + 1;
}

const share = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(2)}%`;

describe('edgesim diff --format markdown', () => {
  const after = changed();
  const json = JSON.parse(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'json']).stdout) as { packets: number; changed: number; groups: Group[] };
  const r = runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'markdown']);

  it("groups, counts and shares are the JSON output's, verdict changes first, each in its section", () => {
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const md = r.stdout;
    expect(md.split('\n')[0]).toBe(`### edgesim diff: ${json.changed.toLocaleString('en-US')} of ${json.packets.toLocaleString('en-US')} packets (${share(json.changed, json.packets)}) decided differently`);
    const verdict = json.groups.filter((g) => g.before.verdict !== g.after.verdict);
    const same = json.groups.filter((g) => g.before.verdict === g.after.verdict);
    // the change has both kinds (the test is not vacuous)
    expect(verdict.length).toBeGreaterThan(0);
    expect(same.length).toBeGreaterThan(1);
    const sum = (gs: Group[]): number => gs.reduce((n, g) => n + g.packets, 0);
    const headings = md.split('\n').filter((l) => l.startsWith('#### '));
    expect(headings).toEqual([
      `#### Verdict changes: ${sum(verdict).toLocaleString('en-US')} packets, ${share(sum(verdict), json.packets)} of the capture, in ${verdict.length} group${verdict.length === 1 ? '' : 's'}`,
      `#### Same verdict, another deciding rule or stage: ${sum(same).toLocaleString('en-US')} packets, ${share(sum(same), json.packets)} of the capture, in ${same.length} groups`,
    ]);
    const headlines = md.split('\n').filter((l) => l.startsWith('**'));
    const counts = headlines.map((l) => /\*\*: ([\d,]+) packets?, ([\d.]+%) of the capture$/.exec(l)!.slice(1));
    expect(counts).toEqual([...verdict, ...same].map((g) => [g.packets.toLocaleString('en-US'), share(g.packets, json.packets)]));
    // the verdict changes' headlines come before the second section's heading
    expect(md.indexOf(headlines[verdict.length - 1]!)).toBeLessThan(md.indexOf(headings[1]!));
    expect(md.indexOf(headings[1]!)).toBeLessThan(md.indexOf(headlines[verdict.length]!));
  });

  it("names each changed rule's line in its file, escaped", () => {
    const headlines = r.stdout.split('\n').filter((l) => l.startsWith('**'));
    expect(headlines).toContain(`**pass, no rule → pass by skip-dns \\| resolver (${after}:${ruleLine(after, 'skip-dns | resolver')})**: 250 packets, ${share(250, json.packets)} of the capture`);
    const web = json.groups.find((g) => g.before.rule === 'allow-web' && g.after.rule === 'block-us-https')!;
    expect(headlines).toContain(`**pass by allow-web (${BEFORE}:${ruleLine(BEFORE, 'allow-web')}) → drop by block-us-https (${after}:${ruleLine(after, 'block-us-https')})**: ${web.packets} packets, ${share(web.packets, json.packets)} of the capture`);
  });

  it("lists each group's first frames with the 5-tuple inspect reads", () => {
    const inspected = new Map(
      runCli(['inspect', DEMO]).stdout.trim().split('\n').map((l) => {
        const f = JSON.parse(l) as Record<string, string | number>;
        const port = (end: string): string => String(f[`tcp.${end}port`] ?? f[`udp.${end}port`] ?? '-');
        return [f.frame as number, [String(f.frame), f['ip.src'], f['ip.dst'], f['ip.proto'], port('src'), port('dst')].map(String)];
      }),
    );
    const rows = r.stdout.split('\n').filter((l) => /^\| \d/.test(l)).map((l) => l.slice(2, -2).split(' | '));
    const ordered = [...json.groups.filter((g) => g.before.verdict !== g.after.verdict), ...json.groups.filter((g) => g.before.verdict === g.after.verdict)];
    expect(rows).toEqual(ordered.flatMap((g) => g.frames.map((f) => inspected.get(f))));
  });

  it('goes to --summary and to $GITHUB_STEP_SUMMARY as it is printed; --format table is text', () => {
    const summary = path.join(tmp, 'summary.md');
    const text = runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--summary', summary]);
    expect(text.status).toBe(1);
    expect(readFileSync(summary, 'utf8')).toBe(`${r.stdout}\n`);
    const step = path.join(tmp, 'step.md');
    expect(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'json'], { env: { GITHUB_STEP_SUMMARY: step } }).status).toBe(1);
    expect(readFileSync(step, 'utf8')).toBe(`${r.stdout}\n`);
    expect(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'table']).stdout).toBe(text.stdout);
  });

  it('--static: verdict changes first, then the same verdict by another rule, with the rules\' lines', () => {
    const s = runCli(['diff', '--static', BEFORE, after, '--format', 'markdown']);
    const c = JSON.parse(runCli(['diff', '--static', BEFORE, after, '--format', 'json']).stdout) as { differences: Array<{ verdict_changed: boolean }> };
    expect(s.status).toBe(1);
    const changes = c.differences.filter((d) => d.verdict_changed).length;
    const headings = s.stdout.split('\n').filter((l) => l.startsWith('#### '));
    expect(headings).toEqual([`#### Verdict changes (${changes})`, `#### Same verdict, another deciding rule (${c.differences.length - changes})`]);
    expect(s.stdout.split('\n').filter((l) => l.startsWith('- **'))).toHaveLength(c.differences.length);
    expect(s.stdout).toContain(`drop by block-us-https (${after}:${ruleLine(after, 'block-us-https')})`);
  });
});

describe("the review's text (issue 35)", () => {
  const after = changed();

  it('text: the table lists the verdict changes first, as the markdown does, though a same-verdict group is larger; JSON in the same order', () => {
    const r = runCli(['diff', DEMO, '-c', BEFORE, '--against', after]);
    expect(r.status).toBe(1);
    const rows = r.stdout.split('\n').filter((l) => /(->|\(same\))/.test(l));
    const kinds = rows.map((l) => (l.includes('(same)') ? 'same' : 'verdict'));
    expect(kinds.indexOf('same')).toBeGreaterThan(kinds.lastIndexOf('verdict'));
    expect(kinds.filter((k) => k === 'verdict').length).toBeGreaterThan(0);
    const json = JSON.parse(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--format', 'json']).stdout) as { groups: Group[] };
    const changes = json.groups.map((g) => g.before.verdict !== g.after.verdict);
    expect(changes).toEqual([...changes].sort((a, b) => Number(b) - Number(a)));
    // the largest group keeps its verdict (so the order is not the size's)
    expect(Math.max(...json.groups.map((g) => g.packets))).toBe(json.groups.find((g) => g.before.verdict === g.after.verdict)!.packets);
  });

  it('--static: the classes changing verdict first in text; JSON says same_verdicts and same_deciding_rules, never "equivalent" beside differences', () => {
    const text = runCli(['diff', '--static', BEFORE, after]);
    const lines = text.stdout.split('\n').filter((l) => l.includes(' -> '));
    const same = lines.map((l) => l.includes('(same verdict)'));
    expect(same.indexOf(true)).toBeGreaterThan(same.lastIndexOf(false));
    const c = JSON.parse(runCli(['diff', '--static', BEFORE, after, '--format', 'json']).stdout) as Record<string, unknown>;
    expect(Object.keys(c)).toEqual(['same_verdicts', 'same_deciding_rules', 'differences', 'indeterminate']);
    expect(c).toMatchObject({ same_verdicts: false, same_deciding_rules: false });
  });

  it('exit status: 1 when only the deciding rule changes, and with --fail-on verdict 0 then, 1 on a verdict change', () => {
    const s = JSON.parse(readFileSync(BEFORE, 'utf8')) as Snapshot;
    s.rulesets![0]!.rules!.find((r) => r.ref === 'block-telnet')!.ref = 'no-telnet';
    const renamed = path.join(tmp, 'renamed.json');
    writeFileSync(renamed, JSON.stringify(s, null, 2));
    const capture = runCli(['diff', DEMO, '-c', BEFORE, '--against', renamed]);
    expect(capture.status).toBe(1);
    expect(capture.stdout).toMatch(/drop \(block-telnet\)\s+│\s+drop \(no-telnet\)\s+│\s+drop \(same\)/);
    expect(runCli(['diff', DEMO, '-c', BEFORE, '--against', renamed, '--fail-on', 'verdict']).status).toBe(0);
    expect(runCli(['diff', DEMO, '-c', BEFORE, '--against', after, '--fail-on', 'verdict']).status).toBe(1);
    const moved = runCli(['diff', '--static', BEFORE, renamed, '--format', 'json']);
    expect(moved.status).toBe(1);
    expect(JSON.parse(moved.stdout)).toMatchObject({ same_verdicts: true, same_deciding_rules: false });
    expect(runCli(['diff', '--static', BEFORE, renamed, '--fail-on', 'verdict']).status).toBe(0);
    expect(runCli(['diff', '--static', BEFORE, after, '--fail-on', 'verdict']).status).toBe(1);
    expect(runCli(['diff', '--static', BEFORE, renamed]).stdout).toMatch(/^the same verdicts; 1 class of packets is decided by other rules:/);
  });
});
