// The bounds on the analysis' work. Proving a rule unreachable or two rulesets equivalent can cost
// exponentially many box operations (each earlier rule cuts along other fields), so the work is
// bounded twice over, and past either bound the question's answer is `indeterminate` with the
// reason — never a wrong claim, never minutes of work, never an out-of-memory abort:
// - each question (one rule's meaning or status in lint, one pair of rules in diff --static, one
//   rule's part of a `space:` proof, one region `pin` writes) spends at most WORK_LIMIT steps;
// - every question of one run (a command: lint, diff --static, pin, the `space:` cases and the
//   coverage of one `edgesim test`) spends from one AnalysisBudget of TOTAL_WORK_LIMIT steps and a
//   bound on the heap, so that many questions each within their limit cannot add up to minutes or
//   gigabytes. Once it is spent, every later question is `indeterminate` at once.
// Steps are box comparisons and boxes built, so the bounds mean the same whatever part spends them.
// The memory bound is a safety net read from V8 every MEMORY_CHECK steps: the step bounds and the
// bounded memo of intervals.ts keep a run far below it on every shape measured (README "Bounds").
import { getHeapStatistics } from 'node:v8';
import { counted } from '../numbers.js';

/** Steps one question may take. */
export const WORK_LIMIT = 10_000;

/** Steps every question of one run may take together. */
export const TOTAL_WORK_LIMIT = 4_000_000;

/** Bytes of V8 heap in use past which a run's analysis stops: at most this, and at most 3/4 of the heap the process may have. */
export const MEMORY_LIMIT = 1024 * 1024 * 1024;

/** steps between two reads of the heap in use */
const MEMORY_CHECK = 1 << 16;

export type LimitKind = 'question' | 'run' | 'memory';

export class WorkLimitReached extends Error {
  constructor(
    readonly limit: number,
    readonly kind: LimitKind = 'question',
  ) {
    super(
      kind === 'question'
        ? `the analysis reached its work limit (${counted(limit, 'step')})`
        : kind === 'run'
          ? `the analysis reached its work limit for the whole run (${counted(limit, 'step')})`
          : `the analysis reached its memory limit (${counted(Math.round(limit / 2 ** 20), 'MB', 'MB')} of heap)`,
    );
  }
}

/** The heap bound of a process: MEMORY_LIMIT, or 3/4 of V8's heap limit when that is less. */
function heapBound(): number {
  return Math.min(MEMORY_LIMIT, Math.floor(0.75 * getHeapStatistics().heap_size_limit));
}

/** The work of one run, shared by all its questions (see the top of this file). */
export class AnalysisBudget {
  private left: number;
  private sinceCheck = 0;
  private stopped: WorkLimitReached | null = null;
  /** steps one question may take */
  readonly perQuestion: number;
  readonly total: number;
  readonly memory: number;

  constructor(limits: { perQuestion?: number; total?: number; memory?: number } = {}) {
    this.perQuestion = limits.perQuestion ?? WORK_LIMIT;
    this.total = limits.total ?? TOTAL_WORK_LIMIT;
    this.memory = limits.memory ?? heapBound();
    this.left = this.total;
  }

  /** A budget for one question, spending from this run's too. */
  question(limit: number = this.perQuestion): Budget {
    return new Budget(limit, this);
  }

  /** Steps spent so far. */
  get spent(): number {
    return this.total - this.left;
  }

  /** Why the run's work is over (its steps or its memory), or null while it goes on. */
  get exhausted(): string | null {
    return this.stopped?.message ?? null;
  }

  /** Spends `steps` of the run; throws WorkLimitReached once the run's steps or memory are spent. */
  take(steps: number): void {
    if (this.stopped !== null) throw this.stopped;
    this.left -= steps;
    if (this.left < 0) throw (this.stopped = new WorkLimitReached(this.total, 'run'));
    this.sinceCheck += steps;
    if (this.sinceCheck < MEMORY_CHECK) return;
    this.sinceCheck = 0;
    if (getHeapStatistics().used_heap_size > this.memory) throw (this.stopped = new WorkLimitReached(this.memory, 'memory'));
  }
}

export class Budget {
  private left: number;

  /** `limit`: steps before `spend` throws WorkLimitReached, Infinity for none; `run`: the run's budget it also spends from */
  constructor(
    readonly limit: number = WORK_LIMIT,
    private readonly run?: AnalysisBudget,
  ) {
    this.left = limit;
  }

  spend(steps: number): void {
    this.run?.take(steps);
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

/** f(), or onLimit() when the question's own limit is reached; the run's end goes through (the caller's question ends with it). */
export function withinQuestion<T>(f: () => T, onLimit: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof WorkLimitReached && err.kind === 'question') return onLimit();
    throw err;
  }
}

/** The run's budget the options give, or a new one whose questions take `workLimit` steps. */
export function runBudget(options: { budget?: AnalysisBudget; workLimit?: number }): AnalysisBudget {
  return options.budget ?? new AnalysisBudget({ perQuestion: options.workLimit });
}

/** A budget for one question: of `limit` steps alone, or from a run's budget. */
export function questionBudget(limit: number | AnalysisBudget): Budget {
  return typeof limit === 'number' ? new Budget(limit) : limit.question();
}
