// `edgesim test`, run: load and check every suite first (an invalid suite stops everything with exit
// 2 before any case runs; a golden file that is one of the files the run reads, or another case's
// golden, is a suite error at its line; --json and --junit may overwrite none of them), run the
// cases with one line each, then the details of each failure, the totals, and the --json / --junit
// reports. Exit 1 when a case failed or could not run.
import { STDIN_NAME } from '../../../capture/source.js';
import { UsageError } from '../../../errors.js';
import { counted } from '../../../numbers.js';
import { printable } from '../../../terminal-text.js';
import { jsonReport } from '../../../suite/reports/json.js';
import { junitReport } from '../../../suite/reports/junit.js';
import { caseLine, totalsLine } from '../../../suite/reports/text.js';
import { loadSuite } from '../../../suite/load.js';
import { runSuites } from '../../../suite/run.js';
import type { Suite } from '../../../suite/suite.js';
import { dataOptions } from '../../configuration.js';
import { readStdinText } from '../../input.js';
import type { DataFlags } from '../../options.js';
import { writeOutput } from '../../output.js';
import { distinctFiles, firstClash } from '../../paths.js';

export interface TestFlags extends DataFlags {
  json?: string;
  junit?: string;
  update?: boolean;
  force?: boolean;
  strict?: boolean;
}

/** Refuses a golden file that is an input or another golden, and reports that would overwrite any file of the suites. */
function checkFiles(suites: readonly Suite[], flags: TestFlags): void {
  const reads = suites.flatMap((s) => s.files.reads);
  const goldens = suites.flatMap((s) => s.files.goldens);
  const clash = firstClash(
    reads.map((f) => [f.what, f.path]),
    goldens.map((f) => [f.what, f.path]),
  );
  if (clash !== null) {
    const golden = goldens[clash.output]!;
    golden.at.fail(`${JSON.stringify(golden.at.value)} is the same file as ${clash.other}; a golden file is a file of its own, which only --update writes`);
  }
  distinctFiles(
    [...reads, ...goldens].map((f) => [f.what, f.path]),
    [
      ['--json', flags.json],
      ['--junit', flags.junit],
    ],
  );
}

export async function run(files: string[], flags: TestFlags): Promise<void> {
  const options = dataOptions(flags);
  const suites: Suite[] = [];
  if (flags.force && !flags.update) throw new UsageError('--force goes with --update');
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read once: give - as one suite only');
  for (const file of files) suites.push(file === '-' ? await loadSuite(STDIN_NAME, options, await readStdinText()) : await loadSuite(file, options));
  checkFiles(suites, flags);
  const results = await runSuites(suites, {
    update: flags.update,
    force: flags.force,
    strict: flags.strict,
    onCase: (r) => process.stdout.write(`${caseLine(r)}\n`),
  });
  const failed = results.filter((r) => r.status !== 'passed');
  for (const r of failed) process.stdout.write(`\n${r.details}\n`);
  process.stdout.write(`\n${totalsLine(results)}\n`);
  if (flags.update) {
    const written = results.flatMap((r) => r.written);
    process.stdout.write(`${counted(written.length, 'golden file')} updated${written.length === 0 ? '' : `: ${written.map(printable).join(', ')}`}\n`);
  }
  if (flags.json !== undefined) writeOutput(flags.json, `${JSON.stringify(jsonReport(results), null, 2)}\n`);
  if (flags.junit !== undefined) writeOutput(flags.junit, junitReport(results));
  if (failed.length > 0) process.exitCode = 1;
}
