// The shapes a loaded suite and its results take, and the contract of a case kind. A case kind
// (packet, packets, capture, scenario, ...) is one object in kinds/index.ts: the key that marks a
// case as its kind, the other keys it accepts, how it checks its part of the suite (before any case
// runs) and how it runs.
import type { AnalysisBudget } from '../analysis/index.js';
import type { SuitePaths } from './case-path.js';
import type { ConfigurationCoverage } from './coverage.js';
import type { Located } from './source.js';
import type { PacketTrace } from './trace.js';

export type CaseStatus = 'passed' | 'failed' | 'error';

/** A file the suite names: what it is, for messages (`the capture of case "x"`), and its path. */
export interface SuiteFile {
  what: string;
  path: string;
  /** where the suite names it */
  at: Located;
}

/** Every file a suite names: the files it reads, and the golden files `--update` writes. */
export interface SuiteFiles {
  reads: SuiteFile[];
  goldens: SuiteFile[];
}

/** What loading needs to know while it checks a case. */
export interface LoadContext {
  /** the suite file, as given */
  file: string;
  /** the folder relative paths in the suite are resolved against */
  dir: string;
  paths: SuitePaths;
  /** the case being checked */
  caseName: string;
  /** where a case kind records the files it names */
  files: SuiteFiles;
}

/** What running needs. */
export interface RunContext {
  paths: SuitePaths;
  /** rewrite golden files from the current results */
  update: boolean;
  /** where the cases count what they reach (--coverage); undefined: not counted */
  coverage?: ConfigurationCoverage;
  /** with update: rewrite the golden of a case that fails for another reason too */
  force: boolean;
  /** the static analysis' work for the whole run (space: cases, coverage), one budget */
  analysis: AnalysisBudget;
}

/** A case's result before it is judged: what did not hold, with traces of the packets concerned. */
export interface CaseOutcome {
  /** one line each: `what: expected X, got Y` */
  failures: string[];
  traces: PacketTrace[];
  /** things that may make the result wrong (truncated capture, labels that do not fit); failures under --strict */
  warnings: string[];
  /** things done, e.g. `golden demo.verdicts.ndjson: 3 frames changed, rewritten` */
  notes: string[];
  /** the golden files this case wrote (--update), as the suite names them */
  written?: string[];
}

export interface CaseKind<T = unknown> {
  /** the key that makes a case this kind, e.g. `packet` */
  readonly key: string;
  /** other case keys it accepts (beside name, expect and its key) */
  readonly keys: readonly string[];
  /** the keys its `expect` accepts */
  readonly expectKeys: readonly string[];
  /** checks the case (SuiteError on a problem) and returns what run() needs */
  parse(value: Located, expect: Map<string, Located>, keys: Map<string, Located>, ctx: LoadContext): T;
  run(data: T, ctx: RunContext): Promise<CaseOutcome>;
}

export interface SuiteCase {
  name: string;
  line: number;
  kind: CaseKind;
  data: unknown;
}

export interface Suite {
  file: string;
  paths: SuitePaths;
  cases: SuiteCase[];
  files: SuiteFiles;
  /** what reading the configuration found worth saying that is not an error (a phase not simulated) */
  notes: string[];
}

export interface CaseResult {
  /** the suite file, as given */
  suite: string;
  name: string;
  /** the line of the case in the suite (for an invalid suite, of its problem; none when the file could not be read) */
  line: number | undefined;
  /** the case's kind, or `suite` for an invalid suite reported as one case in error */
  kind: string;
  status: CaseStatus;
  /** one line: what failed, or the error */
  message: string;
  /** things done (CaseOutcome's notes) */
  notes: string[];
  /** things that may make the result wrong (CaseOutcome's warnings) */
  warnings: string[];
  /** the golden files the case wrote (CaseOutcome's) */
  written: string[];
  /** what went wrong, as text: expected and actual values, warnings, traces ('' when passed); kept as text, not as traces, so a run of many failures stays small */
  details: string;
  seconds: number;
}
