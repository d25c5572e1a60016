// Which packets each rule decides: the packets it matches that no earlier enabled terminating rule
// (block or skip) matched; the packets no terminating rule matches pass by default. Log rules and
// disabled rules decide nothing. The decided regions are never built (subtracting every earlier
// rule fragments them exponentially); a question about them — "a packet of this space that rule i
// certainly decides", "one both firewalls decide with these two rules" — is answered by the depth-
// first search of space.ts. Certainly: the rule's must minus every earlier may; possibly: its may
// minus every earlier must.
import { verdictName } from '../verdict.js';
import type { Meaning } from './atoms.js';
import type { Budget } from './budget.js';
import type { FirewallModel } from './model.js';
import { type Box, type Region, complementOf, firstOutside, hullsApart, intersectRegions, subtractRegions } from './space.js';

export interface Decision {
  /** index of the deciding rule in model.rules, or -1 for "no rule matched" (pass) */
  readonly rule: number;
  readonly verdict: 'pass' | 'drop';
  /** the packets the rule matches (the whole space for the default) */
  readonly matches: Meaning;
  readonly earlierMust: readonly Region[];
  readonly earlierMay: readonly Region[];
}

export type Certainty = 'must' | 'may';

/** Every way the firewall can decide a packet, in evaluation order, the default pass last. */
export function decisions(model: FirewallModel, universe: Region): Decision[] {
  const out: Decision[] = [];
  const earlierMust: Region[] = [];
  const earlierMay: Region[] = [];
  model.rules.forEach((rule, i) => {
    if (!rule.enabled || rule.action === 'log') return;
    out.push({ rule: i, verdict: verdictName(rule.action === 'block'), matches: rule.meaning, earlierMust: earlierMust.slice(), earlierMay: earlierMay.slice() });
    earlierMust.push(rule.meaning.must);
    earlierMay.push(rule.meaning.may);
  });
  out.push({ rule: -1, verdict: 'pass', matches: { must: universe, may: universe }, earlierMust, earlierMay });
  return out;
}

/** A box of packets within `within` that `d` certainly (must) or possibly (may) decides, or null; `budget` pays for the search. */
export function decidedPacket(d: Decision, within: Region, certainty: Certainty, budget?: Budget): Box | null {
  if (hullsApart(within, d.matches[certainty])) return null;
  const r = intersectRegions(within, d.matches[certainty], budget);
  return r.length === 0 ? null : firstOutside(r, certainty === 'must' ? d.earlierMay : d.earlierMust, budget);
}

/** the most boxes a decided region is built with (decidedRegion) */
export const DECIDED_BOXES = 256;

/**
 * The packets `d` certainly (must) or possibly (may) decides, built as boxes: its region with each
 * earlier rule taken away in turn (by intersecting with the earlier rule's complement where that is
 * known and smaller). Null when it would take more than `maxBoxes` boxes at some step: building a
 * decided region fragments it exponentially in general, but a rule mostly shadowed by earlier ones
 * (or by its first few) comes out small or empty, and one such region answers every question about
 * the rule without a search.
 */
export function decidedRegion(d: Decision, certainty: Certainty, budget?: Budget, maxBoxes = DECIDED_BOXES): Region | null {
  let r: Region = d.matches[certainty];
  for (const earlier of certainty === 'must' ? d.earlierMay : d.earlierMust) {
    if (r.length === 0) return r;
    if (earlier === d.matches[certainty]) return [];
    if (hullsApart(r, earlier)) continue;
    const co = complementOf(earlier);
    r = co !== undefined && co.length < earlier.length ? intersectRegions(r, co, budget) : subtractRegions(r, earlier, budget);
    if (r.length > maxBoxes) return null;
  }
  return r;
}

/**
 * A box of packets decided by `x` in one firewall and by `y` in another (certainly or possibly), or
 * null. When the rule of one side is (the same meaning as) a rule before the other, no packet
 * reaches both: that is known without a search, which keeps comparing two versions of one ruleset
 * linear in the rules they share. `decided` gives a side's decided region where it was built
 * (decidedRegion): with both the answer is their intersection; with one, the search starts from it.
 */
export function jointPacket(x: Decision, y: Decision, certainty: Certainty, budget?: Budget, decided?: (d: Decision) => Region | null): Box | null {
  const [ex, ey] = certainty === 'must' ? [x.earlierMay, y.earlierMay] : [x.earlierMust, y.earlierMust];
  const before = (m: Region): boolean => ex.includes(m) || ey.includes(m);
  if (before(x.matches[certainty]) || before(y.matches[certainty])) return null;
  const dx = decided?.(x) ?? null;
  const dy = decided?.(y) ?? null;
  if (dx?.length === 0 || dy?.length === 0) return null;
  if (hullsApart(dx ?? x.matches[certainty], dy ?? y.matches[certainty])) return null;
  const r = intersectRegions(dx ?? x.matches[certainty], dy ?? y.matches[certainty], budget);
  if (r.length === 0) return null;
  const minus = [...(dx === null ? ex : []), ...(dy === null ? ey : [])];
  return minus.length === 0 ? r[0]! : firstOutside(r, minus, budget);
}
