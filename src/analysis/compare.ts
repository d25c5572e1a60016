// compareRulesets (edgesim diff --static): the classes of packets two snapshots' firewalls decide
// differently, Batfish's compareFilters for the Rules language. Both firewalls partition the header
// space by deciding rule (decisions.ts); every pair of parts whose outcome differs (verdict, or the
// deciding rule's ref) and that certainly share a packet is one difference, with a witness from the
// intersection. Pairs that only possibly share packets (indeterminate parts) are reported as such,
// so "same verdicts" (and "same deciding rules") are claimed only when proved. Each pair spends from its own
// work budget and all of them from the run's (budget.ts); a pair that reaches either is listed as
// indeterminate with the reason. The pairs whose verdicts differ are settled first, so that when the
// run's budget ends first, what is left open is what matters least: which rule decides a packet, not its verdict.
import type { Snapshot } from '../config/snapshot.js';
import { type AnalysisBudget, runBudget, withinBudget, withinQuestion } from './budget.js';
import { type Certainty, type Decision, decidedRegion, decisions, jointPacket } from './decisions.js';
import { type FirewallModel, type ModelOptions, modelFirewalls } from './model.js';
import type { Region } from './space.js';
import { type Witness, witnessOf } from './witness.js';

export interface Side {
  readonly verdict: 'pass' | 'drop';
  /** the deciding rule's ref, null when no rule matched */
  readonly rule: string | null;
}

export interface Difference {
  readonly before: Side;
  readonly after: Side;
  readonly verdict_changed: boolean;
  /** false: the class may be empty (decided by parts the analysis does not model) */
  readonly certain: boolean;
  readonly witness: Witness;
}

/** A pair of deciding rules the work limit stopped the analysis from settling: some packets may go from one to the other. */
export interface Unsettled {
  readonly before: Side;
  readonly after: Side;
  readonly verdict_changed: boolean;
  readonly reason: string;
}

export interface Comparison {
  /** proved: every packet gets the same verdict on both sides (no class certainly or possibly changes it, none left unsettled that would) */
  readonly same_verdicts: boolean;
  /** proved: every packet is decided by the same rule on both sides (so with the same verdict): no difference, nothing unsettled */
  readonly same_deciding_rules: boolean;
  /** the classes decided differently, those whose verdict changes first */
  readonly differences: Difference[];
  readonly indeterminate: Unsettled[];
}

function side(model: FirewallModel, d: Decision): Side {
  return { verdict: d.verdict, rule: d.rule < 0 ? null : model.rules[d.rule]!.ref };
}

/** options.workLimit: steps one pair of rules may take (default WORK_LIMIT); options.budget: the run's budget */
export function compareRulesets(a: Snapshot, b: Snapshot, options: { a?: ModelOptions; b?: ModelOptions; workLimit?: number; budget?: AnalysisBudget } = {}): Comparison {
  const run = runBudget({ budget: options.budget ?? options.a?.budget, workLimit: options.a?.workLimit });
  const pairLimit = options.workLimit ?? run.perQuestion;
  const { space, firewalls } = modelFirewalls([
    { snapshot: a, options: { ...options.a, budget: run } },
    { snapshot: b, options: { ...options.b, budget: run } },
  ]);
  const [ma, mb] = firewalls as [FirewallModel, FirewallModel];
  const da = decisions(ma, space.universe);
  const db = decisions(mb, space.universe);
  const pairs: Array<{ x: Decision; y: Decision; before: Side; after: Side; verdict_changed: boolean; order: number }> = [];
  for (const x of da) {
    for (const y of db) {
      const before = side(ma, x);
      const after = side(mb, y);
      if (before.verdict === after.verdict && before.rule === after.rule) continue;
      pairs.push({ x, y, before, after, verdict_changed: before.verdict !== after.verdict, order: pairs.length });
    }
  }
  // each side's decided regions, built once (a question each) where they stay small: most pairs are then settled without a search
  const built = { must: new Map<Decision, Region | null>(), may: new Map<Decision, Region | null>() };
  const decided = (certainty: Certainty) => (d: Decision): Region | null => {
    const known = built[certainty];
    if (!known.has(d)) known.set(d, withinQuestion(() => decidedRegion(d, certainty, run.question()), () => null));
    return known.get(d)!;
  };
  const found: Array<{ order: number; difference: Difference }> = [];
  const unsettled: Array<{ order: number; unsettled: Unsettled }> = [];
  // verdict changes first (a stable sort keeps the rules' order within each kind)
  const settling = [...pairs.filter((p) => p.verdict_changed), ...pairs.filter((p) => !p.verdict_changed)];
  for (const { x, y, before, after, verdict_changed, order } of settling) {
    const budget = run.question(pairLimit);
    withinBudget(
      () => {
        const sure = jointPacket(x, y, 'must', budget, decided('must'));
        const possible = sure ?? jointPacket(x, y, 'may', budget, decided('may'));
        if (possible !== null) found.push({ order, difference: { before, after, verdict_changed, certain: sure !== null, witness: witnessOf(possible, space.names) } });
      },
      (reason) => unsettled.push({ order, unsettled: { before, after, verdict_changed, reason: `${reason} before deciding whether a packet goes from one to the other` } }),
    );
  }
  // reported in the rules' order, whatever order they were settled in
  const differences = found.sort((p, q) => p.order - q.order).map((f) => f.difference);
  const indeterminate = unsettled.sort((p, q) => p.order - q.order).map((u) => u.unsettled);
  const changed = [...differences, ...indeterminate].some((d) => d.verdict_changed);
  const verdictsFirst = <T extends { verdict_changed: boolean }>(items: T[]): T[] => [...items.filter((d) => d.verdict_changed), ...items.filter((d) => !d.verdict_changed)];
  return {
    same_verdicts: !changed,
    same_deciding_rules: differences.length === 0 && indeterminate.length === 0,
    differences: verdictsFirst(differences),
    indeterminate: verdictsFirst(indeterminate),
  };
}
