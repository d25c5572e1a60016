// The machine-readable report of `edgesim test --json FILE` (DESIGN.md's contract): counts, and per
// case its name, status and one-line message; `suite`, `line` and `kind` are added for runs of several
// suites (an invalid suite is a case of kind `suite` in error).
import type { CoverageReport } from '../coverage.js';
import type { CaseResult } from '../suite.js';

export interface JsonReport {
  passed: number;
  failed: number;
  errors: number;
  cases: Array<{ name: string; status: CaseResult['status']; message: string; suite: string; line: number | null; kind: string; seconds: number }>;
  /** with --coverage */
  coverage?: CoverageReport;
}

export function jsonReport(results: readonly CaseResult[], coverage?: CoverageReport): JsonReport {
  return {
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
    cases: results.map((r) => ({ name: r.name, status: r.status, message: r.message, suite: r.suite, line: r.line ?? null, kind: r.kind, seconds: Math.round(r.seconds * 1e6) / 1e6 })),
    ...(coverage === undefined ? {} : { coverage }),
  };
}
