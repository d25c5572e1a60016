// Builds edgesim's start-up snapshot (dist/bundle/edgesim-INODE-SIZE.blob, one per Node executable)
// for the Node that runs this file, in the background: bin/edgesim.js, finding none for the `node` on
// PATH, runs the command from the bundle and then calls requestSnapshot, which starts
// `node snapshot-build.js` detached, at a low priority, once at a time per blob (a lock file), and
// never again for an ID whose build failed (the failure is kept in the blob's .failed file). The build
// runs `node --build-snapshot` on snapshot-entry.cjs (every command) and on snapshot-replay.cjs (the
// replay alone, which `edgesim replay` starts from), checks that each new snapshot starts and says
// edgesim's version, and only then puts them in place, with two links beside it that say what it was
// built for and that bin/edgesim.js's shell compares without starting a process: edgesim-….node, the
// Node executable, and edgesim-….root, this copy of edgesim's folder (the blob holds paths into it).
// The .node link goes last and is removed first when a blob is replaced: a run meanwhile finds none
// and runs from the bundle. Each Node has its own blob, so two Nodes used in turn (a user's and the
// one npm scripts run) never rebuild or replace each other's: a run finds its Node's link and then
// starts Node on that blob, and only a build for that same Node executable ever replaces that file.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../about.js';

/** dist/bundle/, where the bundle, the snapshot's entry and the snapshots are */
const dir = path.dirname(fileURLToPath(import.meta.url));
/** the package's folder */
const root = path.resolve(dir, '../..');

/** the flags every run from a snapshot is started with (bin/edgesim.js says them too): the hash seed the snapshot was built with is kept, not a new one rehashed into every table at each start */
export const SNAPSHOT_FLAGS = ['--no-rehash-snapshot'] as const;

/**
 * The snapshots' files for the Node that runs this: edgesim-INODE-SIZE (INODE and SIZE: the Node
 * executable's) and beside it .blob (every command's snapshot), .replay.blob (the replay's alone),
 * .node, .root, .lock, .failed.
 */
export function snapshotFiles(): { blob: string; replayBlob: string; node: string; root: string; lock: string; failed: string } {
  const s = statSync(process.execPath);
  const base = path.join(dir, `edgesim-${s.ino}-${s.size}`);
  return { blob: `${base}.blob`, replayBlob: `${base}.replay.blob`, node: `${base}.node`, root: `${base}.root`, lock: `${base}.blob.lock`, failed: `${base}.blob.failed` };
}

/**
 * What a snapshot is built from, as one line: the Node executable (its path, inode, size and time),
 * this copy's folder, and the snapshot's code and data centres' table (inode, size, time). A build
 * that failed is not tried again for the same line.
 */
export function snapshotId(): string {
  const of = (file: string) => {
    const s = statSync(file);
    return `${s.ino} ${s.size} ${Math.trunc(s.mtimeMs)}`;
  };
  return [realpathSync(process.execPath), of(process.execPath), realpathSync(root), of(path.join(dir, 'snapshot-entry.cjs')), of(path.join(dir, 'snapshot-replay.cjs')), of(path.join(root, 'datasets/colos.json'))].join(' ');
}

/** a lock older than this is a build that died */
const STALE_LOCK_MS = 10 * 60 * 1000;

/**
 * Starts a build of the snapshot in the background, unless one is under way, failed for this ID, or
 * cannot be written here. `node`: the `node` the shell found on PATH; no snapshot is built when it is
 * not the Node running this (a version manager's shim, which may pick another Node another time).
 */
export function requestSnapshot(node: string): void {
  try {
    const found = statSync(node);
    const running = statSync(process.execPath);
    if (found.ino !== running.ino || found.dev !== running.dev) return;
    accessSync(dir, constants.W_OK);
    const files = snapshotFiles();
    // a build that ended while this command ran (it started before the snapshot was in place)
    if (inPlace(files)) return;
    if (failedFor(files.failed, snapshotId())) return;
    if (!takeLock(files.lock)) return;
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { cwd: dir, detached: true, stdio: 'ignore', env: withoutNodeOptions() });
    child.unref();
    if (child.pid !== undefined) os.setPriority(child.pid, 15);
  } catch {
    // a snapshot is only ever a faster start: anything in the way leaves the command as it was
  }
}

/** Whether the snapshot bin/edgesim.js's shell would start from is in place for this Node and this copy (the same tests, in JavaScript). */
function inPlace(files: ReturnType<typeof snapshotFiles>): boolean {
  const same = (a: string, b: string) => {
    const x = statSync(a, { throwIfNoEntry: false });
    const y = statSync(b, { throwIfNoEntry: false });
    return x !== undefined && y !== undefined && x.ino === y.ino && x.dev === y.dev;
  };
  const built = statSync(files.blob, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const changed = [process.execPath, path.join(dir, 'snapshot-entry.cjs'), path.join(root, 'datasets/colos.json')].map((file) => statSync(file).mtimeMs);
  return same(files.node, process.execPath) && same(files.root, root) && changed.every((time) => built > time);
}

function failedFor(failed: string, id: string): boolean {
  try {
    return readFileSync(failed, 'utf8').split('\n')[0] === id;
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
  delete env.EDGESIM_SNAPSHOT_NODE;
  return env;
}

/** Puts a link to `target` at `at` by renaming one made beside it, so a run sees the old link or the new one. */
function linkInPlace(target: string, at: string): void {
  const temporary = `${at}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  symlinkSync(target, temporary);
  renameSync(temporary, at);
}

/**
 * Builds the snapshot for this Node now; throws with the reason when it cannot be built or does not
 * start. `bin`: the command the snapshot is started with, for the check.
 */
export function buildSnapshot(bin: string = path.join(root, 'bin/edgesim.js')): void {
  const files = snapshotFiles();
  const built: Array<[string, string]> = [
    [`${files.blob}.${process.pid}.tmp`, files.blob],
    [`${files.replayBlob}.${process.pid}.tmp`, files.replayBlob],
  ];
  try {
    buildOne('snapshot-entry.cjs', built[0]![0], bin);
    buildOne('snapshot-replay.cjs', built[1]![0], bin);
    rmSync(files.node, { force: true });
    for (const [temporary, blob] of built) renameSync(temporary, blob);
    linkInPlace(realpathSync(root), files.root);
    linkInPlace(realpathSync(process.execPath), files.node);
    rmSync(files.failed, { force: true });
  } finally {
    for (const [temporary] of built) rmSync(temporary, { force: true });
  }
}

/** Builds the snapshot of one entry (in dist/bundle/) into `blob` and checks that it starts. */
function buildOne(entry: string, blob: string, bin: string): void {
  // built with the flags it is started with: Node 20's V8 refuses a snapshot whose flags differ ("built with different V8 configurations")
  const built = spawnSync(process.execPath, [...SNAPSHOT_FLAGS, '--snapshot-blob', blob, '--build-snapshot', path.join(dir, entry)], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: withoutNodeOptions(),
  });
  if (built.status !== 0) throw new Error(`node --build-snapshot ${entry} failed (${built.status ?? built.signal}): ${built.stderr.trim().split('\n').slice(-5).join('\n')}`);
  const tried = spawnSync(process.execPath, [...SNAPSHOT_FLAGS, '--snapshot-blob', blob, bin, '--version'], { encoding: 'utf8', env: withoutNodeOptions() });
  if (tried.status !== 0 || tried.stdout !== `${VERSION}\n`) throw new Error(`the snapshot of ${entry} does not start (${tried.status ?? tried.signal}): ${tried.stderr.trim()}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--id') process.stdout.write(`${snapshotId()}\n`);
  else {
    const files = snapshotFiles();
    try {
      buildSnapshot();
    } catch (err) {
      try {
        writeFileSync(files.failed, `${snapshotId()}\n${(err as Error).message}\n`);
      } catch {
        // the folder went away (a rebuild of the bundle): nothing to keep
      }
    } finally {
      rmSync(files.lock, { force: true });
    }
  }
}
