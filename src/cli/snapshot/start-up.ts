// What each start-up snapshot's entry runs under `node --build-snapshot` (README "Speed",
// docs/start-up.md): the commands users run most on the bundled demo files, so the heap it saves
// holds their code compiled and their modules loaded, then a program whose commands are registered;
// the command started from the snapshot (bin/edgesim.js starts it when one was built for the Node it
// finds) then begins where a run from the bundle would be after 60-70 ms of loading, compiling and
// registering. Two entries use it, each bundled on its own (CommonJS, the dependencies inlined but
// those snapshot/ requires at run time): snapshot-entry.ts, every command; snapshot-replay.ts, the
// replay alone, which `edgesim replay` starts from (less heap to deserialize).
//
// Nothing the warm-up does may leave state a later run would see: it writes to a temporary file, never
// to standard output or error (the streams of the process that builds the snapshot), and its results
// are dropped; module-level caches it fills hold only what the package ships (the demo's lists, the
// data centres' table).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { Command } from 'commander';
import { runProgram } from '../program.js';

/** the package's root: two levels above dist/bundle/ */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `edgesim ARGS` in this process, its results written into a temporary folder. */
async function warmUp(buildProgram: () => Command): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-snapshot-'));
  try {
    const demo = [path.join(root, 'examples/demo.pcap'), '--config', path.join(root, 'examples/demo-snapshot.json')];
    const runs = [
      ['replay', ...demo, '--format', 'table'],
      ['replay', ...demo, '--format', 'json'],
    ];
    for (const [i, args] of runs.entries()) {
      await buildProgram().parseAsync(['node', 'edgesim', ...args, '--no-progress', '--out', path.join(dir, `${i}.out`)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = undefined;
}

/** Warms `buildProgram`'s commands up, then sets the snapshot's main function: a run of a new program of them. */
export function buildStartupSnapshot(buildProgram: () => Command): void {
  if (!v8.startupSnapshot.isBuildingSnapshot()) throw new Error('the snapshot entries are run by node --build-snapshot (see snapshot-build.js)');
  warmUp(buildProgram).then(
    () => {
      // registered after the warm-up, so that no command of it has parsed anything
      const program = buildProgram();
      v8.startupSnapshot.setDeserializeMainFunction(() => {
        if (process.env.EDGESIM_DEBUG) process.stderr.write(`edgesim: started from the start-up snapshot (${process.execArgv.join(' ')})\n`);
        void runProgram(process.argv, program).then((code) => {
          process.exitCode = code;
        });
      });
    },
    (err: unknown) => {
      process.stderr.write(`edgesim: the start-up snapshot's warm-up failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
