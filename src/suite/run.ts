// Runs the cases of loaded suites in order and judges each: passed, failed (an expectation did not
// hold, or — under --strict — a warning was raised), or error (the case could not run, e.g. an
// unreadable capture). A suite that could not be loaded is one case in error named after its file,
// as pytest reports a collection error, and the other suites still run. Errors that are bugs are not
// caught: they stop the run.
import { AnalysisBudget } from '../analysis/index.js';
import { UserError } from '../errors.js';
import { failureDetails } from './reports/text.js';
import type { RunCoverage } from './coverage.js';
import { SuiteError } from './source.js';
import type { CaseOutcome, CaseResult, CaseStatus, RunContext, Suite } from './suite.js';

export interface RunOptions {
  update?: boolean;
  /** with update: rewrite the golden of a case that fails for another reason too */
  force?: boolean;
  strict?: boolean;
  /** counts what each case reaches of its configuration (--coverage) */
  coverage?: RunCoverage;
  /** the static analysis' budget for the run (default: the coverage's, else a new one) */
  analysis?: AnalysisBudget;
  /** called as each case finishes (the terminal shows one line per case as it goes) */
  onCase?: (result: CaseResult) => void;
}

function judge(outcome: CaseOutcome, strict: boolean): { status: CaseStatus; message: string } {
  const problems = [...outcome.failures, ...(strict ? outcome.warnings.map((w) => `warning (--strict): ${w}`) : [])];
  if (problems.length === 0) return { status: 'passed', message: outcome.notes.join('; ') };
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return { status: 'failed', message: problems[0] + more };
}

/** A suite file that could not be loaded, and why. */
export interface InvalidSuite {
  file: string;
  error: UserError;
}

const INVALID_SUITE = 'suite';

function invalidSuiteResult({ file, error }: InvalidSuite): CaseResult {
  const message = `invalid suite: ${error.message}`;
  const line = error instanceof SuiteError ? error.line : undefined;
  return { suite: file, name: file, line, kind: INVALID_SUITE, status: 'error', message, notes: [], warnings: [], written: [], details: message, seconds: 0 };
}

/** Whether the result is an invalid suite's rather than a case's. */
export function isInvalidSuite(r: CaseResult): boolean {
  return r.kind === INVALID_SUITE;
}

export async function runSuites(suites: ReadonlyArray<Suite | InvalidSuite>, opts: RunOptions = {}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const analysis = opts.analysis ?? opts.coverage?.analysis ?? new AnalysisBudget();
  for (const suite of suites) {
    if ('error' in suite) {
      const result = invalidSuiteResult(suite);
      results.push(result);
      opts.onCase?.(result);
      continue;
    }
    const ctx: RunContext = { paths: suite.paths, update: opts.update === true, force: opts.force === true, coverage: opts.coverage?.of(suite.paths), analysis };
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
        line: c.line,
        ...verdict,
        notes: outcome.notes,
        warnings: outcome.warnings,
        written: outcome.written ?? [],
        details: verdict.status === 'passed' ? '' : failureDetails(what, outcome, suite.paths.placeOf),
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      };
      results.push(result);
      opts.onCase?.(result);
    }
  }
  return results;
}
