// Runs the cases of loaded suites in order and judges each: passed, failed (an expectation did not
// hold, or — under --strict — a warning was raised), or error (the case could not run, e.g. an
// unreadable capture). Errors that are bugs are not caught: they stop the run.
import { UserError } from '../errors.js';
import { failureDetails } from './reports/text.js';
import type { CaseOutcome, CaseResult, CaseStatus, RunContext, Suite } from './suite.js';

export interface RunOptions {
  update?: boolean;
  /** with update: rewrite the golden of a case that fails for another reason too */
  force?: boolean;
  strict?: boolean;
  /** called as each case finishes (the terminal shows one line per case as it goes) */
  onCase?: (result: CaseResult) => void;
}

function judge(outcome: CaseOutcome, strict: boolean): { status: CaseStatus; message: string } {
  const problems = [...outcome.failures, ...(strict ? outcome.warnings.map((w) => `warning (--strict): ${w}`) : [])];
  if (problems.length === 0) return { status: 'passed', message: outcome.notes.join('; ') };
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return { status: 'failed', message: problems[0] + more };
}

export async function runSuites(suites: readonly Suite[], opts: RunOptions = {}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const suite of suites) {
    const ctx: RunContext = { paths: suite.paths, update: opts.update === true, force: opts.force === true };
    for (const c of suite.cases) {
      const started = process.hrtime.bigint();
      let outcome: CaseOutcome;
      let verdict: { status: CaseStatus; message: string };
      try {
        outcome = await c.kind.run(c.data, ctx);
        outcome.warnings.unshift(...suite.paths.warnings);
        verdict = judge(outcome, opts.strict === true);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        outcome = { failures: [], traces: [], warnings: [], notes: [] };
        verdict = { status: 'error', message: (err as Error).message };
      }
      const what = { suite: suite.file, name: c.name, kind: c.kind.key };
      const result: CaseResult = {
        ...what,
        ...verdict,
        notes: outcome.notes,
        written: outcome.written ?? [],
        details: verdict.status === 'passed' ? '' : failureDetails(what, outcome),
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      };
      results.push(result);
      opts.onCase?.(result);
    }
  }
  return results;
}
