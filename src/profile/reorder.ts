// Reordering advice: moves of a rule to an earlier place that cannot change any verdict, with the
// rule evaluations each would save on the benchmarked packets. A terminating rule (block, skip) that
// decides many packets late in the ruleset makes every one of them pay for the rules before it;
// moving it up saves those evaluations, and costs one evaluation more for each packet the passed-over
// rules decide. Both are counted exactly by re-running the counting walk (rule-profile.ts) in the new
// order, so the figure is what the move saves on this capture, not an estimate.
//
// A move of rule B from place b to place p is offered only when `canSwap(B, X)` holds for every rule
// X at places p..b-1 (B passes each of them in turn). Only the furthest such move is tried per rule.
import type { PacketRecord } from '../capture/record.js';
import type { CanSwap, SwappableRule } from './overlap.js';
import { evaluationsInOrder, type ProfiledRule, type RuleCost } from './rule-profile.js';

export interface ReorderAdvice {
  rule: string;
  /** move before this rule */
  before: string;
  from: number;
  to: number;
  /** rule evaluations saved on the benchmarked packets (total before minus total after) */
  evaluations_saved: number;
}

/** At most this many candidate moves are counted (those whose rules decided most packets). */
const MAX_CANDIDATES = 20;

export function reorderAdvice(
  rules: ReadonlyArray<ProfiledRule & SwappableRule>,
  costs: readonly RuleCost[],
  recs: readonly PacketRecord[],
  canSwap: CanSwap,
): ReorderAdvice[] {
  const identity = rules.map((_, i) => i);
  const candidates: Array<{ from: number; to: number }> = [];
  for (let b = 0; b < rules.length; b++) {
    const rule = rules[b]!;
    if (!rule.enabled || !rule.terminating || costs[b]!.decided === 0) continue;
    let p = b;
    while (p > 0 && canSwap(rule, rules[p - 1]!)) p--;
    // disabled rules right before the new place are not worth passing over
    while (p < b && !rules[p]!.enabled) p++;
    if (p < b) candidates.push({ from: b, to: p });
  }
  candidates.sort((x, y) => costs[y.from]!.decided - costs[x.from]!.decided);
  const now = evaluationsInOrder(rules, identity, recs);
  const advice: ReorderAdvice[] = [];
  for (const { from, to } of candidates.slice(0, MAX_CANDIDATES)) {
    const order = identity.filter((i) => i !== from);
    order.splice(to, 0, from);
    const saved = now - evaluationsInOrder(rules, order, recs);
    if (saved > 0) advice.push({ rule: rules[from]!.ref, before: rules[to]!.ref, from, to, evaluations_saved: saved });
  }
  return advice.sort((x, y) => y.evaluations_saved - x.evaluations_saved);
}
