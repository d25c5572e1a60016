// `npm run mutation -- --recheck FILE`: the mutants a committed report (mutation/<file>.json) leaves
// alive, each applied by hand to a copy of the project and run against every test that loads the file
// in vitest's process and reaches its code. A run against a subset of those tests (`--subset`, or a
// report made before the wider set existed) can only miss kills: a mutant a subset kills is killed by all
// of them. So rechecking its survivors against all of them gives the file's score against all of them,
// at the cost of the survivors alone. First, one run of all the tests against a copy of the file with a
// probe where each survivor acts (bench/mutation-reach.ts) finds the test files that reach it; each
// survivor then runs against those alone (a test file that never runs its code cannot kill it). A mutant
// whose test run fails (a test fails, or a test file no longer loads) is Killed, one that outlasts the
// time limit Timeout; the report's row says `rechecked`, and its `tests` names what the recheck ran.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { probeSource } from './mutation-reach.js';
import { type MutantRow, mutantSpan } from './mutation-report.js';
import { REACH_FILE_VARIABLE, RECHECK_PARENT_VARIABLE, running } from './mutation-setup.js';

export interface Report {
  file: string;
  commit: string;
  date: string;
  stryker: string;
  tests: string;
  score: number;
  mutants: MutantRow[];
}

const ALIVE = new Set(['Survived', 'NoCoverage']);

// Mutators whose replacement is an operator expression: Stryker replaces a node of the syntax tree, so
// pasted back as text it is bracketed, or an operator beside it would take a part of it
// (`a && b && c` with its `a && b` made `a || b` is `(a || b) && c`, not `a || (b && c)`).
const OPERATOR_MUTATORS = new Set(['LogicalOperator', 'EqualityOperator', 'ArithmeticOperator']);

/** The source with one mutant applied: its code replaced (an operator expression in brackets). */
export function applyMutant(source: string, m: Pick<MutantRow, 'line' | 'column' | 'end' | 'replacement'> & { mutator?: string }): string {
  const [start, end] = mutantSpan(source, m);
  const text = m.mutator !== undefined && OPERATOR_MUTATORS.has(m.mutator) ? `(${m.replacement})` : m.replacement;
  return source.slice(0, start) + text + source.slice(end);
}

/** A copy of the committed files (git ls-files) under tmp/stryker, with node_modules linked: the mutated source is written there, never into the checkout. */
function scratchCopy(root: string): string {
  const scratch = path.join(root, 'tmp/stryker');
  // copies left by a recheck that was killed (its process gone): removed
  for (const e of existsSync(scratch) ? readdirSync(scratch) : []) {
    const pid = /^recheck-(\d+)$/.exec(e)?.[1];
    if (pid !== undefined && !running(Number(pid))) rmSync(path.join(scratch, e), { recursive: true, force: true });
  }
  const dir = path.join(scratch, `recheck-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter((f) => f !== '');
  for (const f of files) {
    if (!existsSync(path.join(root, f))) continue;
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    copyFileSync(path.join(root, f), path.join(dir, f));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

export interface Outcome {
  status: 'Killed' | 'Timeout' | 'Survived';
  killedBy?: string;
  seconds: number;
}

/** One vitest run of `tests` in `dir` (bench/vitest-mutation.config.ts), stopped at the first failing test or at `limitMs`. */
function runTests(dir: string, tests: string[], limitMs: number, env: Record<string, string> = {}): Outcome {
  const out = path.join(dir, '.recheck-result.json');
  rmSync(out, { force: true });
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'bench/vitest-mutation.config.ts', '--bail=1', '--reporter=json', `--outputFile=${out}`], {
    cwd: dir,
    env: { ...process.env, ...env, EDGESIM_MUTATION_TESTS: tests.join(','), [RECHECK_PARENT_VARIABLE]: String(process.pid) },
    timeout: limitMs,
    killSignal: 'SIGKILL',
    stdio: 'ignore',
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.error !== undefined || run.signal !== null) return { status: 'Timeout', seconds };
  if (run.status === 0) return { status: 'Survived', seconds };
  return failedRun(existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as VitestReport) : undefined, dir, seconds);
}

/** vitest's JSON report, the parts read here */
export interface VitestReport {
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }> }>;
}

/**
 * What a failed run says: Killed by its first failing test in file order (which files ran before the
 * bail varies from run to run), a test file that failed to load among them; a Timeout when every
 * failing test ran out of its own time (vitest's testTimeout, no assertion failed: on a loaded machine
 * that is no kill, so the caller runs the mutant again).
 */
export function failedRun(result: VitestReport | undefined, dir: string, seconds: number): Outcome {
  const failures: string[] = [];
  let timedOut = 0;
  for (const file of result?.testResults ?? []) {
    const failed = file.assertionResults.find((a) => a.status === 'failed');
    if (failed !== undefined) failures.push(`${path.relative(dir, file.name)}#${failed.fullName}`);
    else if (file.status === 'failed') failures.push(`${path.relative(dir, file.name)}# (the file failed to load)`);
    // vitest 4's JSON report gives a timeout's stack, which starts with its placeholder's message
    if (failed?.failureMessages?.some((f) => /^Error: (STACK_TRACE_ERROR|(Test|Hook) timed out in)/.test(f))) timedOut++;
  }
  failures.sort();
  if (failures.length > 0 && timedOut === failures.length) return { status: 'Timeout', killedBy: `${failures[0]} (timed out)`, seconds };
  return { status: 'Killed', killedBy: failures[0] ?? 'vitest failed without a failing test in its report', seconds };
}

/** Rechecks the alive mutants of `reportFile` against `tests`; returns the report with its rows and `tests` rewritten (the caller scores and writes it). */
export function recheck(root: string, reportFile: string, tests: string[], describeTests: string, log: (line: string) => void): Report {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  try {
    execFileSync('git', ['diff', '--quiet', report.commit.replace(/-dirty$/, ''), '--', report.file], { cwd: root });
  } catch {
    throw new Error(`${report.file} changed since the report's commit ${report.commit}: its lines no longer match; run it again first`);
  }
  const alive = report.mutants.filter((m) => ALIVE.has(m.status));
  const dir = scratchCopy(root);
  const target = path.join(dir, report.file);
  const original = readFileSync(target, 'utf8');
  let reachedBy: Array<Set<string>> = [];
  try {
    // the unmutated run, probed: which test files reach each survivor's code
    const probed = probeSource(original, report.file, alive);
    const reachFile = path.join(dir, '.recheck-reach');
    writeFileSync(target, probed.text);
    const base = runTests(dir, tests, 30 * 60_000, { [REACH_FILE_VARIABLE]: reachFile });
    writeFileSync(target, original);
    if (base.status !== 'Survived') throw new Error(`the tests fail without any mutant (${base.killedBy ?? base.status}): fix them first`);
    const byProbe = reachOf(existsSync(reachFile) ? readFileSync(reachFile, 'utf8') : '', dir);
    reachedBy = probed.probeOf.map((p) => byProbe.get(p) ?? new Set());
    const limitMs = Math.round(base.seconds * 3 * 1000) + 30_000;
    log(`${report.file}: ${alive.length} alive mutants against the ${tests.length} test files, each against those that reach it (unmutated run ${base.seconds.toFixed(1)} s, probed; a mutant's limit ${(limitMs / 1000).toFixed(0)} s)`);
    for (const [i, m] of alive.entries()) {
      const its = tests.filter((t) => reachedBy[i]!.has(t));
      const where = `${i + 1}/${alive.length} ${m.line}:${m.column}-${m.end} ${m.mutator} ${JSON.stringify(m.replacement)}`;
      if (its.length === 0) {
        log(`  ${where}: Survived (no test file reaches it)`);
        continue;
      }
      writeFileSync(target, applyMutant(original, m));
      let o = runTests(dir, its, limitMs);
      // a test that timed out: once more, to tell a mutant that loops from a loaded machine
      if (o.killedBy?.endsWith('(timed out)')) o = runTests(dir, its, limitMs);
      log(`  ${where}: ${o.status}${o.killedBy !== undefined ? ` by ${o.killedBy}` : ''} (${its.length === 1 ? '1 test file reaches' : `${its.length} test files reach`} it; ${o.seconds.toFixed(1)} s)`);
      if (o.status !== 'Survived') {
        m.status = o.status;
        if (o.killedBy !== undefined) m.killedBy = o.killedBy;
        m.rechecked = true;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sizes = reachedBy.map((r) => r.size);
  const [fewest, most] = [Math.min(...sizes), Math.max(...sizes)];
  const reach = sizes.length === 0 ? '' : `, each against those of them that reach its code (${fewest === most ? fewest : `${fewest} to ${most}`} files)`;
  // a test file that fails to load counts as a kill; rechecked again against the same tests, said once
  const said = `; its survivors rechecked by hand against ${describeTests}${reach}`;
  if (!report.tests.includes(said)) report.tests += said;
  return report;
}

/**
 * A probed run's hits (bench/mutation-reach.ts), `pid ppid probe` and `pid file path` lines, as the test
 * files (relative to `dir`) that reached each probe. Each test file runs in a process of its own (vitest's
 * forks pool, isolated); a process a test starts is its test file's (its parent's). A process that names two
 * test files, or whose hits have no test file, would make the sets wrong, and is an error.
 */
export function reachOf(lines: string, dir: string): Map<number, Set<string>> {
  const fileOf = new Map<string, string>();
  const hits: Array<[string, string, number]> = [];
  for (const line of lines.split('\n')) {
    const m = /^(\d+) (?:file (.+)|(\d+) (\d+))$/.exec(line);
    if (m === null) continue;
    if (m[2] !== undefined) {
      const file = path.relative(dir, m[2]);
      const before = fileOf.get(m[1]!);
      if (before !== undefined && before !== file) throw new Error(`the probed run ran ${before} and ${file} in one process (${m[1]}): the files that reach a mutant cannot be told apart`);
      fileOf.set(m[1]!, file);
    } else hits.push([m[1]!, m[3]!, Number(m[4])]);
  }
  const reached = new Map<number, Set<string>>();
  for (const [pid, parent, probe] of hits) {
    const file = fileOf.get(pid) ?? fileOf.get(parent);
    if (file === undefined) throw new Error(`the probed run's process ${pid} reached probe ${probe} but named no test file`);
    if (!reached.has(probe)) reached.set(probe, new Set());
    reached.get(probe)!.add(file);
  }
  return reached;
}
