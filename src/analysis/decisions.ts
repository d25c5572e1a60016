// Which packets each rule decides: the packets it matches that no earlier enabled terminating rule
// (block or skip) matched; the packets no terminating rule matches pass by default. Log rules and
// disabled rules decide nothing. With indeterminate parts the decided region has two bounds:
// certainly decided (must of the rule minus may of every earlier one) and possibly decided (may
// minus earlier musts). Comparing rulesets and proving spaces both read this partition.
import type { Meaning } from './atoms.js';
import type { FirewallModel } from './model.js';
import { type Region, intersectRegions, regionsOverlap, subtractRegions } from './space.js';

export interface Decision {
  /** index of the deciding rule in model.rules, or -1 for "no rule matched" (pass) */
  readonly rule: number;
  readonly verdict: 'pass' | 'drop';
  readonly region: Meaning;
}

function minus(r: Region, earlier: readonly Region[]): Region {
  const relevant = earlier.filter((e) => regionsOverlap(r, e));
  return relevant.length === 0 ? r : subtractRegions(r, relevant.flat());
}

/** The firewall's partition of `within` by deciding rule (regions may be empty). */
export function decisions(model: FirewallModel, within: Region): Decision[] {
  const out: Decision[] = [];
  const earlierMust: Region[] = [];
  const earlierMay: Region[] = [];
  model.rules.forEach((rule, i) => {
    if (!rule.enabled || rule.action === 'log') return;
    const exact = rule.meaning.must === rule.meaning.may && earlierMust.every((m, k) => m === earlierMay[k]);
    const must = minus(rule.meaning.must, earlierMay);
    const region = exact ? { must, may: must } : { must, may: minus(rule.meaning.may, earlierMust) };
    out.push({ rule: i, verdict: rule.action === 'block' ? 'drop' : 'pass', region: restrict(region, within) });
    earlierMust.push(rule.meaning.must);
    earlierMay.push(rule.meaning.may);
  });
  const exact = earlierMust.every((m, k) => m === earlierMay[k]);
  const must = minus(within, earlierMay);
  out.push({ rule: -1, verdict: 'pass', region: exact ? { must, may: must } : { must, may: minus(within, earlierMust) } });
  return out;
}

function restrict(m: Meaning, within: Region): Meaning {
  const must = intersectRegions(m.must, within);
  return m.must === m.may ? { must, may: must } : { must, may: intersectRegions(m.may, within) };
}
