// A pinned suite catches every edit that `diff --static` proves changes behaviour (issue 33): over
// generated rulesets and two written from the real world (the demo configuration, and the vendor's
// suggested rules — its minimal ruleset, then the extended one for endpoints, internal routers and
// web servers, test/suite/fixtures/vendor-suggested.json), every single edit — a rule disabled,
// deleted, swapped with its neighbour, moved to the front or the end, its action changed, a number
// of its expression (a port, a prefix length, a TTL) moved by one, a prefix moved to the next
// block, in a rule or a list — that compareRulesets proves changes some packet's verdict or
// deciding rule makes the suite `edgesim pin` wrote for the original fail; and the pinned suite of
// every original passes as written (docs/suites.md, "Starting from no tests").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { ruleSpec, ruleSpecs, snapshotOf } from '../analysis/replay.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from './helpers.js';
import { overlappingPrefixPortTerms, prefixPortTerms } from '../../bench/analysis-shapes.js';
import { type Mutant, missedEdits, mutants, pinInto, sampled, suiteFails } from './pin-mutants.js';

/** The proved edits of `original` (all, or those `pick` takes) its pinned suite lets through (it must pass as written). */
async function missed(original: Snapshot, counts: { proved: number }, pick: (all: Mutant[]) => Mutant[] = (all) => all): Promise<string[]> {
  const dir = tempDir();
  const suite = await pinInto(original, dir);
  expect(await suiteFails(suite), JSON.stringify(original.rulesets)).toBe(false);
  const { proved, missed: out } = await missedEdits(original, pick(mutants(original)), dir, suite);
  counts.proved += proved;
  const rules = JSON.stringify(original.rulesets![0]!.rules!.map((r) => `${r.enabled === false ? '(disabled) ' : ''}${r.action} ${r.expression}`));
  return out.map((what) => `${what} in ${rules}`);
}

const fixture = (file: string): Snapshot => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Snapshot;

describe('pinned suites catch every change the analysis proves', () => {
  it('of generated rulesets: every proved single edit fails the suite pinned from the original', async () => {
    const counts = { proved: 0 };
    const all: string[] = [];
    // 20 rulesets of up to 8 rules, and 5 of 10 to 12
    const rulesets = [...fc.sample(ruleSpecs, { seed: 24, numRuns: 20 }), ...fc.sample(fc.array(ruleSpec, { minLength: 10, maxLength: 12 }), { seed: 7, numRuns: 5 })];
    for (const rules of rulesets) all.push(...(await missed(snapshotOf(rules), counts)));
    expect(counts.proved).toBeGreaterThan(300);
    expect(all).toEqual([]);
  }, 300_000);

  it('of the demo configuration', async () => {
    const counts = { proved: 0 };
    expect(await missed(fixture('examples/demo-snapshot.json'), counts)).toEqual([]);
    expect(counts.proved).toBeGreaterThan(20);
  }, 300_000);

  // more or-ed parts a rule than its cases could pin one by one (before union spaces: 12 spaces a
  // rule, and the misses were a part's prefix shortened, moved to the next block or a port moved by
  // one in a part no case pinned); a seeded sample of the edits (docs/bounds.md, bench/pin-score.ts)
  it('of rules of many or-ed parts, on prefixes apart and overlapping: a seeded sample of every kind of edit', async () => {
    for (const original of [prefixPortTerms(4, 16), overlappingPrefixPortTerms(8, 16)]) {
      const counts = { proved: 0 };
      expect(await missed(original, counts, (all) => sampled(all, 40, 12345))).toEqual([]);
      expect(counts.proved).toBeGreaterThan(25);
    }
  }, 300_000);

  it("of the vendor's suggested rules", async () => {
    const counts = { proved: 0 };
    expect(await missed(fixture('test/suite/fixtures/vendor-suggested.json'), counts)).toEqual([]);
    expect(counts.proved).toBeGreaterThan(40);
  }, 300_000);
});
