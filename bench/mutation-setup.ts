// The project's global setup (test/global-setup.ts: dist/, the CLI bundle, the oracle tools) for
// `npm run mutation`, run once per Stryker sandbox, when its test runner loads the vitest config
// (bench/vitest-mutation.config.ts), instead of in vitest's global setup:
// - Stryker starts a new test runner after every mutant that timed out, and the global setup built
//   dist/ again each time (20 s idle, over a minute under load). A sandbox's sources never change
//   during its run (every mutant is switched on at run time in the one instrumented copy), so what
//   the first build made stays right.
// - Stryker takes the initial test run's time beyond its tests' own as the overhead it adds to
//   every mutant's timeout; a build in the global setup made that a minute, so every mutant that
//   loops waited a minute more. Loading the config is not timed.
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import projectSetup from '../test/global-setup.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The environment variable naming the file a probed run (bench/mutation-reach.ts) appends its hits to: `pid ppid probe` and `pid file path` lines. */
export const REACH_FILE_VARIABLE = 'EDGESIM_REACH_FILE';

/** The environment variable naming the process of a recheck (bench/mutation-recheck.ts) that started this vitest run. */
export const RECHECK_PARENT_VARIABLE = 'EDGESIM_RECHECK_PARENT';

/** Whether the process `pid` is still running. */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends this process (and so the test processes it started) once the process `pid` is gone: a recheck
 * stopped by a signal to its own process, not to its group as Ctrl-C sends it, left the vitest run it
 * started going until that run's own time limit (up to 30 minutes of two busy cores).
 */
export function exitWhenGone(pid: number, everyMs = 1000): void {
  setInterval(() => {
    if (!running(pid)) process.exit(130);
  }, everyMs).unref();
}

/** Whether this checkout is one of Stryker's sandboxes (tmp/stryker/sandbox-*, stryker.config.mjs's tempDirName). */
export const inSandbox = /[\\/]tmp[\\/]stryker[\\/]sandbox-[^\\/]+$/.test(root);

/** Runs the project's global setup in this sandbox unless it has run; with runners in parallel, one runs it and the others wait. */
export function setupSandboxOnce(): void {
  const done = path.join(root, '.mutation-setup-done');
  if (existsSync(done)) return;
  let mine = false;
  try {
    closeSync(openSync(path.join(root, '.mutation-setup-started'), 'wx'));
    mine = true;
  } catch {
    // another runner of this sandbox is setting it up
  }
  if (mine) {
    projectSetup();
    writeFileSync(done, `${new Date().toISOString()}\n`);
    return;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !existsSync(done); waited += 250) {
    if (waited > 20 * 60_000) throw new Error(`bench/mutation-setup.ts: the sandbox's setup did not finish in 20 minutes (${done})`);
    Atomics.wait(pause, 0, 0, 250);
  }
}

// what test/global-setup.ts provides: the build's outputs, the oracle tools (tshark and the Wireshark
// tools that come with it) run by name, the browser, GNU time (a false match only costs the build)
const NEEDS_SETUP =
  /(?<![\w@.-])dist\/|bin\/edgesim|runTool\(|(?:spawn|execFile)(?:Sync)?\(\s*['"](?:tshark|tcpdump|capinfos|mergecap|editcap|text2pcap)\b|\/usr\/bin\/(?:time|chromium)\b/;

/** Whether `file` (relative to the root) or a file of test/ it imports needs the global setup. */
export function needsGlobalSetup(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(path.join(root, file), 'utf8');
  if (NEEDS_SETUP.test(text)) return true;
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.\.?\/[^'"]+)['"]/g)) {
    let target = path.join(path.dirname(file), m[1]!);
    if (!existsSync(path.join(root, target)) && target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
    if (!target.startsWith(`test${path.sep}`) || !existsSync(path.join(root, target))) continue;
    if (needsGlobalSetup(target, seen)) return true;
  }
  return false;
}
