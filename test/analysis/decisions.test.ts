// The decisions two firewalls share (src/analysis/decisions.ts, as diff --static asks them): when
// one side's deciding rule is a rule the other side reaches earlier, no packet is decided by both,
// and that is known without a search. So comparing a ruleset with an unchanged copy (every pair of
// different rules has one before the other) settles every pair whatever the work limit. A packet
// both may decide is looked for outside what earlier rules certainly decide, not what they may:
// a rule after an unmodelled one possibly decides the packets that one misses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRulesets } from '../../src/analysis/index.js';
import { isExact } from '../../src/analysis/expression.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { replayer, ruleSpecs, snapshotOf } from './replay.js';

const block = (expression: string) => ({ action: 'block' as const, expression, enabled: true });

describe('jointPacket', () => {
  it('a rule added after one the analysis does not model possibly changes verdicts: on the packets that one may miss', () => {
    const before = snapshotOf([block('tcp contains "abc"'), block('tcp.dstport == 22')]);
    const after = snapshotOf([block('tcp contains "abc"')]);
    const cmp = compareRulesets(before, after);
    const added = cmp.differences.find((d) => d.before.rule === 'r2' && d.after.rule === null);
    expect(added).toMatchObject({ before: { verdict: 'drop' }, after: { verdict: 'pass' }, verdict_changed: true, certain: false });
    expect(cmp.same_verdicts).toBe(false);
    // its witness: port 22 without "abc", dropped by r2 before, passed after
    expect([replayer(before)(added!.witness), replayer(after)(added!.witness)]).toEqual([expect.objectContaining({ verdict: 'drop', rule: 'r2' }), expect.objectContaining({ verdict: 'pass', rule: null })]);
  });

  it('an unchanged copy of a ruleset is proved equivalent at any work limit', () => {
    // rules modelled exactly (an unmodelled part's two bounds differ, so such a rule's pairs are searched)
    const exact = ruleSpecs.filter((specs) => modelFirewalls([{ snapshot: snapshotOf(specs) }]).firewalls[0]!.rules.every((r) => isExact(r.meaning)));
    fc.assert(
      fc.property(
        exact,
        fc.integer({ min: 1, max: 100 }),
        (specs, workLimit) => {
          const cmp = compareRulesets(snapshotOf(specs), snapshotOf(specs), { workLimit });
          expect(cmp.indeterminate).toEqual([]);
          expect(cmp.same_verdicts).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
