// The analysis' bounds end to end, on the shapes of issue 34 (bench/analysis-shapes.ts), each run
// as a user runs it and measured by GNU time (test/helpers/measured-cli.ts, whose watchdog kills a
// run past 1 GiB): `pin` of 200 rules each an `or` of 26 prefix-and-ports terms (before: V8's heap
// out of memory at 4.3 GB) writes at most 24 cases a rule and says in the suite what it left out,
// and `edgesim test` runs that suite; `diff --static` of 100 rules each an `and` of eight
// `not (tcp.dstport in {…} and tcp.srcport in {…})` against the same rules reversed (before: past
// 2 minutes and 2.7 GB) answers; each within 512 MB of peak resident memory (README "Bounds").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { overlappingPrefixPortTerms, portPairTerms, prefixPortTerms, reversed } from '../../bench/analysis-shapes.js';
import { runCliMeasured } from '../helpers/measured-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const MB = 1024 * 1024;
// a quiet machine's peaks are 110-340 MB; under the suite's load the garbage collector lags (609 MB seen once)
const BOUND = 768 * MB;
const limits = { maxRssBytes: 1024 * MB, timeoutMs: 180_000 };
const tmp = tempDir('edgesim-bounds-');

function file(name: string, s: Snapshot): string {
  const f = path.join(tmp, `${name}.json`);
  writeFileSync(f, JSON.stringify(s));
  return f;
}

/** `edgesim pin` of a snapshot into `out`, within the bounds: the suite's text */
async function pinWithin(name: string, s: Snapshot, out: string): Promise<string> {
  const pin = await runCliMeasured(['pin', file(name, s), '--out', out], limits);
  expect(pin.killed, pin.stderr).toBeNull();
  expect(pin.status, pin.stderr).toBe(0);
  expect(pin.peakRssBytes).toBeLessThan(BOUND);
  return readFileSync(out, 'utf8');
}

/** `edgesim test` of a pinned suite, within the bounds: it passes; its output */
async function passesWithin(out: string): Promise<string> {
  const test = await runCliMeasured(['test', out], limits);
  expect(test.killed).toBeNull();
  expect(test.status, test.stdout.slice(-2000)).toBe(0);
  expect(test.peakRssBytes).toBeLessThan(BOUND);
  return test.stdout;
}

describe('the analysis within its bounds', () => {
  it('pin: 200 rules of 26 or-ed prefix-and-ports terms, at most 24 cases a rule, what was left out said; the suite passes', async () => {
    const out = path.join(tmp, 'pinned.yaml');
    const text = await pinWithin('prefix-port', prefixPortTerms(200), out);
    const cases = text.match(/^ {2}- name: /gm)!.length;
    expect(cases).toBeLessThanOrEqual(200 * 24 + 1);
    // every rule keeps its witness and its region's edges
    expect(text).toContain('- name: r200\n');
    expect(text).toMatch(/- name: "r200: just outside, ip\.src 10\.199\.26\.0"/);
    expect(text).toContain("# Left out by the bounds on a pinned suite (at most 24 cases a rule) and on the analysis' work:");
    // each rule's decided region whole, as one space (before: 12 of its 26 boxes, `r1: 14 of the 26 boxes of its decided region not pinned as spaces`)
    expect(text.match(/^ {2}- name: "r\d+: every packet of its region"$/gm)).toHaveLength(200);
    expect(text).not.toContain('not pinned as spaces');
    expect(text).toMatch(/^# {3}r1: 82 of the 104 packets just outside its region \(at most 24 cases a rule\)$/m);
    await passesWithin(out);
  }, 400_000);

  it('pin: 200 such rules whose prefixes and ports overlap, each decided region one space; the suite passes', async () => {
    const out = path.join(tmp, 'pinned-overlapping.yaml');
    const text = await pinWithin('overlapping', overlappingPrefixPortTerms(200), out);
    // before: the run's budget ended before any space was proved (from the 9th rule on, no decided region was built within a question)
    expect(text.match(/^ {2}- name: "o\d+: every packet of its region"$/gm)).toHaveLength(200);
    expect(text).not.toContain('not pinned as spaces');
    expect(await passesWithin(out)).not.toContain('not proved');
  }, 400_000);

  it('diff --static: 100 rules of and-ed not (ports and ports) terms against the same rules reversed', async () => {
    const before = portPairTerms(100);
    const r = await runCliMeasured(['diff', '--static', file('port-pairs', before), file('port-pairs-reversed', reversed(before)), '--format', 'json'], limits);
    expect(r.killed, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(1);
    expect(r.peakRssBytes).toBeLessThan(BOUND);
    const cmp = JSON.parse(r.stdout) as { same_deciding_rules: boolean; differences: Array<{ certain: boolean }>; indeterminate: unknown[] };
    expect(cmp.same_deciding_rules).toBe(false);
    expect(cmp.differences.length).toBeGreaterThan(0);
    expect(cmp.differences.every((d) => d.certain)).toBe(true);
  }, 200_000);
});
