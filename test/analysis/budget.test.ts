// The work limit (src/analysis/budget.ts) only ever turns an answer into `indeterminate`: on random
// small rulesets, the default limit changes nothing, and under any limit every rule's status and
// every pair of a comparison is the unbounded answer or says that the limit stopped it. The budget
// itself allows exactly its limit in steps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Budget, WORK_LIMIT, WorkLimitReached, withinBudget } from '../../src/analysis/budget.js';
import { compareRulesets, ruleStatus } from '../../src/analysis/index.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { ruleSpecs, snapshotOf } from './replay.js';

const RUNS = 100;
const LIMITED = /^the analysis reached its work limit \([\d,]+ steps?\) before deciding/;

describe('rule status under a work limit', () => {
  it('the default limit gives the unbounded answer on small rulesets', () => {
    fc.assert(
      fc.property(ruleSpecs, (specs) => {
        const model = modelFirewalls([{ snapshot: snapshotOf(specs) }]).firewalls[0]!;
        model.rules.forEach((_, i) => expect(ruleStatus(model, i)).toEqual(ruleStatus(model, i, Infinity)));
      }),
      { numRuns: RUNS },
    );
  });

  it('any limit gives the unbounded answer or indeterminate with the reason', () => {
    let limited = 0;
    fc.assert(
      fc.property(ruleSpecs, fc.integer({ min: 1, max: 3000 }), (specs, limit) => {
        const model = modelFirewalls([{ snapshot: snapshotOf(specs) }]).firewalls[0]!;
        model.rules.forEach((_, i) => {
          const bounded = ruleStatus(model, i, limit);
          const exact = ruleStatus(model, i, Infinity);
          if (bounded.kind === 'indeterminate' && LIMITED.test(bounded.reason)) limited++;
          else if (bounded.kind === 'unreachable' && !bounded.minimal) expect(exact.kind).toBe('unreachable');
          else expect(bounded).toEqual(exact);
        });
      }),
      { numRuns: RUNS },
    );
    expect(limited).toBeGreaterThan(0);
  });
});

describe('compareRulesets under a work limit', () => {
  it('reports the unbounded differences, or the pair as indeterminate with the reason', () => {
    let limited = 0;
    fc.assert(
      fc.property(ruleSpecs, ruleSpecs, fc.integer({ min: 1, max: 3000 }), (a, b, limit) => {
        const before = snapshotOf(a);
        const after = snapshotOf(b);
        const exact = compareRulesets(before, after, { workLimit: Infinity });
        const bounded = compareRulesets(before, after, { workLimit: limit });
        expect(exact.indeterminate).toEqual([]);
        const pair = (d: { before: object; after: object }): string => JSON.stringify([d.before, d.after]);
        const unsettled = new Set(bounded.indeterminate.map(pair));
        limited += unsettled.size;
        for (const u of bounded.indeterminate) expect(u.reason).toMatch(LIMITED);
        expect(bounded.differences).toEqual(exact.differences.filter((d) => !unsettled.has(pair(d))));
        if (!bounded.same_verdicts) expect(!exact.same_verdicts || bounded.indeterminate.some((u) => u.verdict_changed)).toBe(true);
        if (bounded.same_verdicts) expect(exact.same_verdicts).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(limited).toBeGreaterThan(0);
  });
});

describe('Budget and withinBudget', () => {
  it('allows exactly the limit in steps, then stops with the limit in the reason', () => {
    const b = new Budget(5);
    b.spend(3);
    b.spend(2);
    expect(() => b.spend(1)).toThrow(WorkLimitReached);
    const once = new Budget(12_345);
    expect(() => once.spend(12_346)).toThrow('the analysis reached its work limit (12,345 steps)');
    expect(new Budget().limit).toBe(WORK_LIMIT);
    const byDefault = new Budget();
    byDefault.spend(WORK_LIMIT);
    expect(() => byDefault.spend(1)).toThrow(WorkLimitReached);
  });

  it('gives f() within the limit, the reason past it, and lets any other error through', () => {
    expect(withinBudget(() => 'done', (reason) => reason)).toBe('done');
    const b = new Budget(2);
    expect(withinBudget(() => (b.spend(3), 'done'), (reason) => reason)).toBe('the analysis reached its work limit (2 steps)');
    expect(withinBudget(() => new Budget(1).spend(2), (reason) => reason)).toBe('the analysis reached its work limit (1 step)');
    expect(() => withinBudget(() => { throw new RangeError('other'); }, (reason) => reason)).toThrow(RangeError);
  });
});
