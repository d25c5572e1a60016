// `edgesim test`, run: load and check every suite first (an invalid suite stops everything with exit
// 2 before any case runs), run the cases with one line each, then the details of each failure, the
// totals, and the --json / --junit reports. Exit 1 when a case failed or could not run.
import { jsonReport } from '../../../suite/reports/json.js';
import { junitReport } from '../../../suite/reports/junit.js';
import { caseLine, failureDetails, totalsLine } from '../../../suite/reports/text.js';
import { loadSuite } from '../../../suite/load.js';
import { runSuites } from '../../../suite/run.js';
import type { Suite } from '../../../suite/suite.js';
import { dataOptions } from '../../configuration.js';
import type { DataFlags } from '../../options.js';
import { writeOutput } from '../../output.js';
import { distinctPaths } from '../../paths.js';

export interface TestFlags extends DataFlags {
  json?: string;
  junit?: string;
  update?: boolean;
  strict?: boolean;
}

export async function run(files: string[], flags: TestFlags): Promise<void> {
  distinctPaths(undefined, [
    ['--json', flags.json],
    ['--junit', flags.junit],
  ]);
  const options = dataOptions(flags);
  const suites: Suite[] = [];
  for (const file of files) suites.push(await loadSuite(file, options));
  const results = await runSuites(suites, {
    update: flags.update,
    strict: flags.strict,
    onCase: (r) => process.stdout.write(`${caseLine(r)}\n`),
  });
  const failed = results.filter((r) => r.status !== 'passed');
  for (const r of failed) process.stdout.write(`\n${failureDetails(r)}\n`);
  process.stdout.write(`\n${totalsLine(results)}\n`);
  if (flags.json !== undefined) writeOutput(flags.json, `${JSON.stringify(jsonReport(results), null, 2)}\n`);
  if (flags.junit !== undefined) writeOutput(flags.junit, junitReport(results));
  if (failed.length > 0) process.exitCode = 1;
}
