// The work limit (src/analysis/budget.ts) only ever turns an answer into `indeterminate`: on random
// small rulesets, the default limit changes nothing, and under any limit — a question's or the
// whole run's — every rule's status and every pair of a comparison is the unbounded answer or says
// that the limit stopped it (through lint's statuses too, each a question of the run's budget). The
// budget itself allows exactly its limit in steps; withinQuestion answers past a question's own limit
// and lets the run's end through; a run's budget
// is shared by its questions and, once spent (steps or memory), ends every later question at once;
// diff --static settles the pairs that change a verdict before those that only change the rule, and
// needs no more of the run than modelling both sides, building each rule's decided regions once and
// searching each pair from them; a space the limit leaves open is `undecided`; the interval memo
// holds a bounded number of values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnalysisBudget, Budget, TOTAL_WORK_LIMIT, WORK_LIMIT, WorkLimitReached, withinBudget, withinQuestion } from '../../src/analysis/budget.js';
import { forgetRemembered, intersect, rememberedValues } from '../../src/analysis/intervals.js';
import { compareRulesets, explain, lint, pinProtection, proveSpace, ruleStatus, ruleStatuses } from '../../src/analysis/index.js';
import { type Decision, decidedRegion, decisions, jointPacket } from '../../src/analysis/decisions.js';
import { type FirewallModel, modelFirewalls } from '../../src/analysis/model.js';
import type { Region } from '../../src/analysis/space.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { ruleSpecs, snapshotOf } from './replay.js';

const RUNS = 100;

/**
 * The most steps diff --static of a and b should spend, counted from a budget of its own: modelling
 * both sides, building every rule's decided regions once (each certainty, under the question's
 * limit, as compare.ts does), and each pair's search from those regions. `regions`: what the
 * regions alone cost.
 */
function stepsNeeded(a: Snapshot, b: Snapshot): { total: number; regions: number } {
  const run = new AnalysisBudget({ total: Number.MAX_SAFE_INTEGER });
  const { space, firewalls } = modelFirewalls([
    { snapshot: a, options: { budget: run } },
    { snapshot: b, options: { budget: run } },
  ]);
  const [ma, mb] = firewalls as [FirewallModel, FirewallModel];
  const da = decisions(ma, space.universe);
  const db = decisions(mb, space.universe);
  const modelled = run.spent;
  const built = { must: new Map<Decision, Region | null>(), may: new Map<Decision, Region | null>() };
  for (const certainty of ['must', 'may'] as const) {
    for (const d of [...da, ...db]) built[certainty].set(d, withinQuestion(() => decidedRegion(d, certainty, run.question()), () => null));
  }
  const regions = run.spent - modelled;
  const ref = (m: FirewallModel, d: Decision): string | null => (d.rule < 0 ? null : m.rules[d.rule]!.ref);
  for (const x of da) {
    for (const y of db) {
      if (x.verdict === y.verdict && ref(ma, x) === ref(mb, y)) continue;
      const pair = run.question();
      withinBudget(
        () => jointPacket(x, y, 'must', pair, (d) => built.must.get(d)!) ?? jointPacket(x, y, 'may', pair, (d) => built.may.get(d)!),
        () => null,
      );
    }
  }
  return { total: run.spent, regions };
}
const LIMITED = /^the analysis reached its work limit \([\d,]+ steps?\) before deciding/;
const RUN_LIMITED = /^the analysis reached its work limit( for the whole run)? \([\d,]+ steps?\) before deciding/;

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

  it('lint\'s statuses, each a question of the run\'s budget of workLimit steps: the unbounded answer or indeterminate with the reason', () => {
    let limited = 0;
    fc.assert(
      fc.property(ruleSpecs, fc.integer({ min: 1, max: 3000 }), (specs, limit) => {
        const snapshot = snapshotOf(specs);
        const exact = ruleStatuses(snapshot, { workLimit: Infinity });
        ruleStatuses(snapshot, { workLimit: limit }).forEach(({ ref, status }, i) => {
          expect(ref).toBe(exact[i]!.ref);
          // a status the question's limit stops says so; the limit may also leave a rule's classes (its own or an earlier rule's) unbuilt, and the reason then names the work limit
          if (status.kind === 'indeterminate' && LIMITED.test(status.reason)) limited++;
          else if (status.kind === 'indeterminate') expect(exact[i]!.status.kind === 'indeterminate' || /work limit/.test(status.reason)).toBe(true);
          // a rule whose classes the limit left unbuilt is taken to match every packet: "never reached" is still true of it (it may match none)
          else if (status.kind === 'unreachable') expect(['unreachable', 'unmatchable']).toContain(exact[i]!.status.kind);
          else expect(status).toEqual(exact[i]!.status);
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

  it('withinQuestion: f() within the limit, onLimit() past the question\'s own limit; the run\'s end and any other error go through', () => {
    expect(withinQuestion(() => 'done', () => 'limit')).toBe('done');
    expect(withinQuestion(() => new Budget(1).spend(2), () => 'limit')).toBe('limit');
    const run = new AnalysisBudget({ perQuestion: 10, total: 15 });
    expect(withinQuestion(() => run.question().spend(11), () => 'limit')).toBe('limit');
    expect(() => withinQuestion(() => run.question().spend(5), () => 'limit')).toThrow('the analysis reached its work limit for the whole run (15 steps)');
    const heap = new AnalysisBudget({ memory: 1 });
    expect(() => withinQuestion(() => heap.question(Infinity).spend(65_536), () => 'limit')).toThrow(/memory limit/);
    expect(() => withinQuestion(() => { throw new RangeError('other'); }, () => 'limit')).toThrow(RangeError);
  });
});

describe('the run\'s budget', () => {
  it('is shared by its questions: each within its own limit, all within the run\'s; once spent, every later question ends at once with the run\'s reason', () => {
    const run = new AnalysisBudget({ perQuestion: 10, total: 25 });
    expect([run.perQuestion, run.total]).toEqual([10, 25]);
    const a = run.question();
    a.spend(10);
    expect(() => a.spend(1)).toThrow('the analysis reached its work limit (10 steps)');
    const b = run.question();
    b.spend(10);
    expect(run.spent).toBe(21);
    expect(run.exhausted).toBeNull();
    expect(() => run.question().spend(5)).toThrow('the analysis reached its work limit for the whole run (25 steps)');
    expect(run.exhausted).toBe('the analysis reached its work limit for the whole run (25 steps)');
    expect(() => run.question().spend(0)).toThrow(WorkLimitReached);
    // exactly its total is allowed, one step more is not
    const exact = new AnalysisBudget({ total: 5 });
    exact.question(Infinity).spend(5);
    expect([exact.spent, exact.exhausted]).toEqual([5, null]);
    expect(() => exact.question(Infinity).spend(1)).toThrow('the analysis reached its work limit for the whole run (5 steps)');
    expect(new AnalysisBudget().total).toBe(TOTAL_WORK_LIMIT);
    expect(new AnalysisBudget().perQuestion).toBe(WORK_LIMIT);
  });

  it('stops at its memory bound, read from the heap every 65,536 steps', () => {
    const run = new AnalysisBudget({ memory: 1 });
    run.question(Infinity).spend(65_535);
    expect(() => run.question().spend(1)).toThrow('the analysis reached its memory limit (0 MB of heap)');
    expect(run.exhausted).toMatch(/memory limit/);
    expect(() => run.question().spend(1)).toThrow(/memory limit/);
    // the bound in MB, singular at one
    const oneMB = new AnalysisBudget({ memory: 2 ** 20 });
    expect(() => oneMB.question(Infinity).spend(65_536)).toThrow('the analysis reached its memory limit (1 MB of heap)');
    // the default is at most 1 GiB, and below the process's own heap limit
    expect(new AnalysisBudget().memory).toBeLessThanOrEqual(1024 * 1024 * 1024);
  });

  it('diff --static under any run budget: the unbounded answer, or indeterminate with the reason', () => {
    let limited = 0;
    fc.assert(
      fc.property(ruleSpecs, ruleSpecs, fc.integer({ min: 1, max: 20_000 }), (a, b, total) => {
        const before = snapshotOf(a);
        const after = snapshotOf(b);
        const exact = compareRulesets(before, after, { workLimit: Infinity });
        const bounded = compareRulesets(before, after, { budget: new AnalysisBudget({ total }) });
        const pair = (d: { before: object; after: object }): string => JSON.stringify([d.before, d.after]);
        const unsettled = new Set(bounded.indeterminate.map(pair));
        limited += unsettled.size;
        for (const u of bounded.indeterminate) expect(u.reason).toMatch(RUN_LIMITED);
        // a pair left open where its rules' classes were left unbuilt is indeterminate, not a difference; the others are exact
        const settled = (d: { before: object; after: object }): boolean => !unsettled.has(pair(d));
        for (const d of bounded.differences.filter((x) => x.certain)) expect(exact.differences).toContainEqual(d);
        for (const d of exact.differences.filter((x) => x.certain && settled(x))) {
          expect(bounded.differences.some((x) => pair(x) === pair(d)) || bounded.indeterminate.length > 0).toBe(true);
        }
        if (bounded.same_deciding_rules) expect(exact.same_deciding_rules).toBe(true);
        if (bounded.same_verdicts) expect(exact.same_verdicts).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(limited).toBeGreaterThan(0);
  });

  it('diff --static builds each rule\'s decided regions once: under a run total of what modelling, every region built once and every pair\'s search spend, every pair is settled as in the unbounded run', () => {
    // a rule's region is asked for by every pair it is in; rebuilding it each time gives the same
    // answers but spends more, and a run total that suffices for building it once would then leave pairs open
    let costly = 0;
    fc.assert(
      fc.property(ruleSpecs, ruleSpecs, (sa, sb) => {
        const [a, b] = [snapshotOf(sa), snapshotOf(sb)];
        const { total, regions } = stepsNeeded(a, b);
        if (regions > 0) costly++;
        expect(compareRulesets(a, b, { budget: new AnalysisBudget({ total }) })).toEqual(compareRulesets(a, b));
      }),
      { numRuns: RUNS },
    );
    // the regions cost steps in some comparisons (the rules cut earlier ones)
    expect(costly).toBeGreaterThan(RUNS / 4);
  });

  it('a space: proof the run\'s budget leaves open is undecided, with the reason', () => {
    const s = snapshotOf(Array.from({ length: 6 }, (_, i) => ({ action: 'block' as const, expression: `tcp.dstport == 80 and ip.ttl == ${i + 1}`, enabled: true })));
    expect(proveSpace(s, { 'tcp.dstport': [80], 'ip.ttl': [64] }, { verdict: 'pass', rule: null })).toEqual({ status: 'holds' });
    const open = proveSpace(s, { 'tcp.dstport': [80], 'ip.ttl': [64] }, { verdict: 'pass', rule: null }, { budget: new AnalysisBudget({ total: 30 }) });
    expect(open).toMatchObject({ status: 'undecided', reason: expect.stringMatching(/^the analysis reached its work limit for the whole run \(30 steps\) before deciding whether r\d \(drop\) decides some packet of the space$/) });
  });
});

describe('every analysis of a run under its budget', () => {
  const s = snapshotOf([
    { action: 'block', expression: 'tcp.dstport in {22 23}', enabled: true },
    { action: 'skip', expression: 'ip.src in {10.0.0.0/8}', enabled: true },
    { action: 'block', expression: 'tcp.dstport == 22 and ip.ttl < 64', enabled: true },
  ]);
  const withAtp = { ...s, tcp_protection_status: { enabled: true }, prefixes: [{ prefix: '203.0.113.0/24' }], syn_protection: { filters: [{ id: 'ssh', expression: 'tcp.dstport == 22', mode: 'enabled' as const }, { id: 'ssh-too', expression: 'tcp.dstport == 22 and tcp.srcport >= 1024', mode: 'monitoring' as const }] } };

  it('lint --explain: an earlier rule the limit leaves open may overlap, undecided with the reason', () => {
    expect(explain(s, 'r3').overlaps.map((o) => [o.rule, o.witness === null])).toEqual([['r1', false], ['r2', false]]);
    const open = explain(s, 'r3', { budget: new AnalysisBudget({ total: 20 }) });
    expect(open.overlaps.filter((o) => o.undecided !== undefined)).not.toEqual([]);
    for (const o of open.overlaps.filter((x) => x.undecided !== undefined)) expect(o).toMatchObject({ witness: null, covers: false, certain: false, undecided: expect.stringMatching(/work limit.* before deciding whether they share a packet$/) });
  });

  it('lint: an ATP filter the limit leaves open is indeterminate, not "never applies"', () => {
    expect(lint(withAtp).filter((f) => f.ruleset === 'syn_protection').map((f) => [f.rule, f.kind])).toEqual([['ssh-too', 'atp_filter_never_applies']]);
    const open = lint(withAtp, { budget: new AnalysisBudget({ total: 30 }) }).filter((f) => f.ruleset === 'syn_protection');
    expect(open.map((f) => f.kind)).not.toContain('atp_filter_never_applies');
    expect(open.map((f) => f.kind)).toContain('indeterminate');
  });

  it('pin: an ATP filter the limit leaves open has no packet, and says why', () => {
    expect(pinProtection(withAtp).map((p) => p.witness === null)).toEqual([false, false]);
    const open = pinProtection(withAtp, new AnalysisBudget({ total: 1 }));
    expect(open.map((p) => [p.witness, p.why])).toEqual([
      [null, 'the analysis reached its work limit for the whole run (1 step) before finding a packet it matches'],
      [null, 'the analysis reached its work limit for the whole run (1 step) before finding a packet it matches'],
    ]);
  });
});

describe('the interval memo', () => {
  it('remembers a result by its inputs, and never holds more than its bound of values', () => {
    forgetRemembered();
    const ranges = (n: number, step: bigint, from = 0n): bigint[] => Array.from({ length: n }, (_, i) => [from + BigInt(i) * step, from + BigInt(i) * step + 1n]).flat();
    const kept = ranges(1000, 10n);
    const other = ranges(1000, 10n, 1n);
    expect(intersect(kept, other)).toBe(intersect(kept, other));
    let most = 0;
    for (let i = 0; i < 4500; i++) {
      intersect(kept, ranges(1000, 10n, 1n));
      most = Math.max(most, rememberedValues());
    }
    expect(most).toBeGreaterThan(4_000_000);
    expect(most).toBeLessThanOrEqual(1 << 23);
    forgetRemembered();
    expect(rememberedValues()).toBe(0);
  }, 60_000);
});
