// Which rules the packets of a header space reach, for `edgesim test --coverage` (a `space:` case
// counts for every rule its region reaches; prove.ts's spaceReach): a block or skip rule that certainly decides some packet
// of the space, a log rule that certainly sees and matches one. Certainly: inside the rule's must and
// outside every earlier enabled block or skip rule's may, as decisions.ts reads it. A rule whose
// answer the work limit leaves open is not counted: coverage never claims a rule no case may reach.
import { type AnalysisBudget, withinBudget } from './budget.js';
import type { FirewallModel } from './model.js';
import { type Region, firstOutside, intersectRegions } from './space.js';

export interface ReachedRule {
  readonly ref: string;
  /** some packet of the space is decided by it (false: a log rule, which only matches) */
  readonly decided: boolean;
}

/** The enabled rules some packet of `region` certainly reaches and matches, in evaluation order; each rule is one question of the run's budget. */
export function reachedRules(model: FirewallModel, region: Region, run: AnalysisBudget): ReachedRule[] {
  const out: ReachedRule[] = [];
  const earlierMay: Region[] = [];
  for (const rule of model.rules) {
    if (!rule.enabled) continue;
    const budget = run.question();
    const reached = withinBudget(
      () => {
        const inside = intersectRegions(region, rule.meaning.must, budget);
        return inside.length > 0 && firstOutside(inside, earlierMay, budget) !== null;
      },
      () => false,
    );
    if (reached) out.push({ ref: rule.ref, decided: rule.action !== 'log' });
    if (rule.action !== 'log') earlierMay.push(rule.meaning.may);
  }
  return out;
}
