// Builds edgesim's start-up snapshot (dist/bundle/edgesim-INODE-SIZE.blob, one per Node executable)
// for the Node that runs this file, in the background: bin/edgesim.js, finding none for the `node` on
// PATH, runs the command from the bundle and then calls requestSnapshot, which starts
// `node snapshot-build.js ID` detached, at a low priority, once at a time per blob (a lock file), and
// never again for an ID whose build failed (the failure is kept in the blob's .failed file). The build
// runs `node --build-snapshot` on snapshot-entry.cjs, checks that the new snapshot starts and says
// edgesim's version, and only then puts it in place beside its ID (the line bin/edgesim.js compares),
// the ID last: a run meanwhile finds no ID, or an old one, and runs from the bundle. Each Node has its
// own blob, so two Nodes used in turn (a user's and the one npm scripts run) never rebuild or replace
// each other's: a run checks its blob's ID and then starts Node on it, and only a build for that same
// Node executable ever replaces that file.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../about.js';

/** dist/bundle/, where the bundle, the snapshot's entry and the snapshots are */
const dir = path.dirname(fileURLToPath(import.meta.url));

/**
 * The snapshot's file for an ID as bin/edgesim.js writes it ("SELF NODE" then the inode, size and time
 * of the Node executable, of snapshot-entry.cjs and of datasets/colos.json): edgesim-INODE-SIZE.blob,
 * by the Node executable's inode and size, as the shell names it. Undefined for any other text.
 */
export function snapshotFile(id: string): string | undefined {
  const m = /^\S.* (\d+) (\d+) \d+ \d+ \d+ \d+ \d+ \d+ \d+$/.exec(id);
  return m === null ? undefined : path.join(dir, `edgesim-${m[1]}-${m[2]}.blob`);
}
/** a lock older than this is a build that died */
const STALE_LOCK_MS = 10 * 60 * 1000;

/** Starts a build of the snapshot in the background, unless one is under way, failed for this ID, or cannot be written here. */
export function requestSnapshot(id: string): void {
  try {
    const blob = snapshotFile(id);
    if (blob === undefined) return;
    accessSync(dir, constants.W_OK);
    if (failedFor(blob, id)) return;
    if (!takeLock(`${blob}.lock`)) return;
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), id], { cwd: dir, detached: true, stdio: 'ignore', env: withoutNodeOptions() });
    child.unref();
    if (child.pid !== undefined) os.setPriority(child.pid, 15);
  } catch {
    // a snapshot is only ever a faster start: anything in the way leaves the command as it was
  }
}

function failedFor(blob: string, id: string): boolean {
  try {
    return readFileSync(`${blob}.failed`, 'utf8').split('\n')[0] === id;
  } catch {
    return false;
  }
}

function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      return true;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < STALE_LOCK_MS) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

function withoutNodeOptions(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.EDGESIM_SNAPSHOT_ID;
  return env;
}

/**
 * Builds the snapshot for this Node and ID now; throws with the reason when it cannot be built or
 * does not start. `bin`: the command the snapshot is started with, for the check.
 */
export function buildSnapshot(id: string, bin: string = path.resolve(dir, '../../bin/edgesim.js')): void {
  const blob = snapshotFile(id);
  if (blob === undefined) throw new Error(`not a snapshot ID: ${id}`);
  const temporary = `${blob}.${process.pid}.tmp`;
  try {
    const built = spawnSync(process.execPath, ['--snapshot-blob', temporary, '--build-snapshot', path.join(dir, 'snapshot-entry.cjs')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      env: withoutNodeOptions(),
    });
    if (built.status !== 0) throw new Error(`node --build-snapshot failed (${built.status ?? built.signal}): ${built.stderr.trim().split('\n').slice(-5).join('\n')}`);
    const tried = spawnSync(process.execPath, ['--no-rehash-snapshot', '--snapshot-blob', temporary, bin, '--version'], { encoding: 'utf8', env: withoutNodeOptions() });
    if (tried.status !== 0 || tried.stdout !== `${VERSION}\n`) throw new Error(`the snapshot does not start (${tried.status ?? tried.signal}): ${tried.stderr.trim()}`);
    rmSync(`${blob}.id`, { force: true });
    renameSync(temporary, blob);
    writeFileSync(`${blob}.id.${process.pid}.tmp`, `${id}\n`);
    renameSync(`${blob}.id.${process.pid}.tmp`, `${blob}.id`);
    rmSync(`${blob}.failed`, { force: true });
  } finally {
    rmSync(temporary, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const id = process.argv[2] ?? '';
  const blob = snapshotFile(id);
  if (blob !== undefined) {
    try {
      buildSnapshot(id);
    } catch (err) {
      try {
        writeFileSync(`${blob}.failed`, `${id}\n${(err as Error).message}\n`);
      } catch {
        // the folder went away (a rebuild of the bundle): nothing to keep
      }
    } finally {
      rmSync(`${blob}.lock`, { force: true });
    }
  }
}
