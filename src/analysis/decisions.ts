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
import { type Box, type Region, firstOutside, intersectRegions } from './space.js';

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
  const r = intersectRegions(within, d.matches[certainty], budget);
  return r.length === 0 ? null : firstOutside(r, certainty === 'must' ? d.earlierMay : d.earlierMust, budget);
}

/**
 * A box of packets decided by `x` in one firewall and by `y` in another (certainly or possibly), or
 * null. When the rule of one side is (the same meaning as) a rule before the other, no packet
 * reaches both: that is known without a search, which keeps comparing two versions of one ruleset
 * linear in the rules they share.
 */
export function jointPacket(x: Decision, y: Decision, certainty: Certainty, budget?: Budget): Box | null {
  const [ex, ey] = certainty === 'must' ? [x.earlierMay, y.earlierMay] : [x.earlierMust, y.earlierMust];
  const before = (m: Region): boolean => ex.includes(m) || ey.includes(m);
  if (before(x.matches[certainty]) || before(y.matches[certainty])) return null;
  const r = intersectRegions(x.matches[certainty], y.matches[certainty], budget);
  if (r.length === 0) return null;
  return firstOutside(r, [...ex, ...ey], budget);
}
