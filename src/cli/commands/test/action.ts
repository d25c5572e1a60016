// `edgesim test`, run: load and check every suite first (an invalid suite is reported as one case in
// error and the other suites still run; a golden file that is one of the files the run reads, or
// another case's golden, makes its suite invalid at its line; --json, --junit and --summary may overwrite
// none of them, nor a --config file), against the configuration each suite names or the one --config
// or --api gives, run the cases, then report them in the --format asked for (text: one line each,
// the details of each failure and the totals), the --json / --junit reports and the job summary.
// Exit 2 when a suite is invalid (its error is the last line), else 1 when a case failed or could not
// run (or raised a warning, with --fail-on warning). With --coverage (or --min-coverage), the
// coverage table after the totals, `coverage` in the JSON report, and exit 1 when the rules covered
// are below --min-coverage. With --update, the golden files rewritten are named (not the golden of a
// case that fails for another reason, unless --force).
import { appendJobSummary, summaryFile } from '../../../review/job-summary.js';
import { testAnnotations, testSummary } from '../../../review/test-report.js';
import { STDIN_NAME } from '../../../capture/source.js';
import { UsageError, UserError } from '../../../errors.js';
import { counted } from '../../../numbers.js';
import { printable } from '../../../terminal-text.js';
import { jsonReport } from '../../../suite/reports/json.js';
import { junitReport } from '../../../suite/reports/junit.js';
import { coverageTable } from '../../../suite/reports/coverage-text.js';
import { percent, RunCoverage, type CoverageReport } from '../../../suite/coverage.js';
import { caseLine, totalsLine } from '../../../suite/reports/text.js';
import { loadSuite, openGivenConfiguration } from '../../../suite/load.js';
import type { SuitePaths } from '../../../suite/case-path.js';
import { isInvalidSuite, runSuites, type InvalidSuite } from '../../../suite/run.js';
import type { CaseResult, Suite } from '../../../suite/suite.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import { readStdinText } from '../../input.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings, warnIf, writeOutput } from '../../output.js';
import { firstClash, reads, writes, type NamedFile } from '../../paths.js';

export interface TestFlags extends ConfigFlags, DataFlags {
  format: 'text' | 'json' | 'github';
  failOn: 'error' | 'warning';
  json?: string;
  junit?: string;
  summary?: string;
  update?: boolean;
  force?: boolean;
  strict?: boolean;
  coverage?: boolean;
  /** a percentage of rules covered, 0 to 100 */
  minCoverage?: number;
}

const loaded = (s: Suite | InvalidSuite): s is Suite => !('error' in s);

/**
 * The suites, each one with a golden file that is a file the run reads or another case's golden
 * made invalid at that golden's line (the first such golden of the run, then again until none is).
 */
function checkGoldens(suites: ReadonlyArray<Suite | InvalidSuite>, configFiles: readonly NamedFile[]): Array<Suite | InvalidSuite> {
  let checked = [...suites];
  for (;;) {
    const valid = checked.filter(loaded);
    const goldens = valid.flatMap((suite) => suite.files.goldens.map((golden) => ({ suite, golden })));
    const clash = firstClash(
      [...valid.flatMap((suite) => suite.files.reads).map((f): NamedFile => [f.what, f.path]), ...configFiles],
      goldens.map(({ golden }) => [golden.what, golden.path]),
    );
    if (clash === null) return checked;
    const { suite, golden: { at } } = goldens[clash.output]!;
    const error = at.error(`${JSON.stringify(at.value)} is the same file as ${clash.other}; a golden file is a file of its own, which only --update writes`);
    checked = checked.map((s) => (s === suite ? { file: suite.file, error } : s));
  }
}

/**
 * The files of the suites are inputs of the run (paths.ts): --json, --junit and --summary, checked
 * against the --config files before the action, may overwrite none of them; with --update, the
 * golden files are outputs (without it, inputs too).
 */
function claimSuiteFiles(suites: readonly Suite[], flags: TestFlags): void {
  for (const f of suites.flatMap((s) => s.files.reads)) reads(f.what, f.path);
  for (const f of suites.flatMap((s) => s.files.goldens)) (flags.update === true ? writes : reads)(f.what, f.path);
}

/** Each suite loaded, or the error that makes it invalid. */
async function loadSuites(files: readonly string[], flags: TestFlags, given: SuitePaths | undefined): Promise<Array<Suite | InvalidSuite>> {
  const options = dataOptions(flags);
  const suites: Array<Suite | InvalidSuite> = [];
  for (const file of files) {
    try {
      suites.push(file === '-' ? await loadSuite(STDIN_NAME, options, await readStdinText(), given) : await loadSuite(file, options, undefined, given));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      suites.push({ file, error: err });
    }
  }
  printWarnings(undefined, [...new Set(suites.filter(loaded).flatMap((s) => s.notes))]);
  return suites;
}

/**
 * What standard output shows after the run in each format (text has shown one line a case as it
 * ran). An invalid suite is the error line on standard error in text; it is an annotation in github.
 */
function printResults(results: readonly CaseResult[], format: TestFlags['format'], covered: CoverageReport | undefined): void {
  if (format === 'json') {
    writeOutput(undefined, `${JSON.stringify(jsonReport(results, covered), null, 2)}\n`);
    return;
  }
  const ran = results.filter((r) => !isInvalidSuite(r));
  if (format === 'github') process.stdout.write(testAnnotations(results).map((l) => `${l}\n`).join(''));
  else for (const r of ran.filter((r) => r.status !== 'passed')) process.stdout.write(`\n${r.details}\n`);
  if (ran.length > 0) process.stdout.write(`\n${totalsLine(ran)}\n`);
  if (covered !== undefined) process.stdout.write(`\n${coverageTable(covered)}\n`);
}

/** The first invalid suite's error, naming the others, for main to print (exit 2). */
function invalidSuitesError(invalid: readonly InvalidSuite[]): UserError {
  const [{ error }, ...others] = invalid;
  const more = others.length === 0 ? '' : ` (and ${counted(others.length, 'more invalid suite')}: ${others.map((s) => s.file).join(', ')})`;
  return new UserError(`${error!.detail}${more}`, { source: error!.source, exitCode: 2 });
}

export async function run(files: string[], flags: TestFlags): Promise<void> {
  if (flags.force && !flags.update) throw new UsageError('--force goes with --update');
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read once: give - as one suite only');
  if (files.includes('-') && flags.config?.includes('-')) throw new UsageError('standard input (-) can be read once: give - as a suite or to --config, not both');
  // --config / --plan / --api: every suite runs against it instead of the configuration it names
  const config = flags.config !== undefined || flags.api !== undefined || flags.plan !== undefined ? await loadConfiguration(flags, { places: 'quiet' }) : undefined;
  const given = config === undefined ? undefined : await openGivenConfiguration(config.snapshot, config.source, dataOptions(flags), config.locate);
  const configFiles = [...(flags.config ?? []).filter((f) => f !== '-').map((f): NamedFile => ['--config', f]), ...(flags.plan === undefined ? [] : [['--plan', flags.plan] as NamedFile])];
  const suites = checkGoldens(await loadSuites(files, flags, given), configFiles);
  const invalid = suites.filter((s): s is InvalidSuite => !loaded(s));
  claimSuiteFiles(suites.filter(loaded), flags);
  const coverage = flags.coverage === true || flags.minCoverage !== undefined ? new RunCoverage() : undefined;
  const results = await runSuites(suites, {
    update: flags.update,
    force: flags.force,
    strict: flags.strict,
    coverage,
    onCase: (r) => {
      if (flags.format === 'text' && !isInvalidSuite(r)) process.stdout.write(`${caseLine(r)}\n`);
    },
  });
  const covered = coverage?.report();
  printResults(results, flags.format, covered);
  if (flags.update && results.some((r) => !isInvalidSuite(r))) {
    const written = results.flatMap((r) => r.written);
    // on standard error when standard output is JSON or annotations
    (flags.format === 'text' ? process.stdout : process.stderr).write(`${counted(written.length, 'golden file')} updated${written.length === 0 ? '' : `: ${written.map(printable).join(', ')}`}\n`);
  }
  if (flags.json !== undefined) writeOutput(flags.json, `${JSON.stringify(jsonReport(results, covered), null, 2)}\n`);
  if (flags.junit !== undefined) writeOutput(flags.junit, junitReport(results));
  warnIf(appendJobSummary(testSummary(results), summaryFile(flags.summary)));
  if (invalid.length > 0) throw invalidSuitesError(invalid);
  // no rule to count (a configuration without firewall rules, such as a Terraform file of the wrong workspace) covers nothing
  const nothing = covered !== undefined && flags.minCoverage !== undefined && covered.rules.total === 0;
  const below = nothing || (covered !== undefined && flags.minCoverage !== undefined && percent(covered.rules) < flags.minCoverage);
  if (nothing) process.stdout.write(`FAIL coverage: nothing to cover: the configuration has no firewall rule a case could match (--min-coverage ${flags.minCoverage}%)\n`);
  else if (below) process.stdout.write(`FAIL coverage: ${percent(covered.rules).toFixed(1)}% of the rules matched by a case, below --min-coverage ${flags.minCoverage}%\n`);
  const failing = results.some((r) => r.status !== 'passed' || (flags.failOn === 'warning' && r.warnings.length > 0));
  if (failing || below) process.exitCode = 1;
}
