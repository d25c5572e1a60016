// A bound on the work of one question the analysis answers: one rule's status in lint, one pair of
// rules in diff --static, one expression's meaning. Proving a rule unreachable or two rulesets
// equivalent can cost exponentially many box operations (each earlier rule cuts along other
// fields), so every such question spends from its own budget; when it runs out, the question's
// answer is `indeterminate` with the reason, never a wrong claim and never minutes of work. Steps
// are box comparisons and boxes built, so the bound means the same whatever part spends it.
import { counted } from '../numbers.js';

/** Steps one question may take. */
export const WORK_LIMIT = 10_000;

export class WorkLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`the analysis reached its work limit (${counted(limit, 'step')})`);
  }
}

export class Budget {
  private left: number;

  /** `limit`: steps before `spend` throws WorkLimitReached; Infinity for none */
  constructor(readonly limit: number = WORK_LIMIT) {
    this.left = limit;
  }

  spend(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw new WorkLimitReached(this.limit);
  }
}

/** f(), or onLimit(its reason) when the work limit is reached. */
export function withinBudget<T>(f: () => T, onLimit: (reason: string) => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof WorkLimitReached) return onLimit(err.message);
    throw err;
  }
}
