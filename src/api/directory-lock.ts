// One server per data directory. Each server keeps the accounts in memory and rewrites their files
// from that copy, so two `serve` processes on one directory overwrite each other's files and lose
// writes both acknowledged. The first takes `<dir>/serve.lock`, a file holding its pid; a second is
// refused with one line naming the directory and that pid. The lock is made complete beside it and
// linked into place, so it never exists without its pid, and link fails when a lock is there.
//
// A lock whose pid no longer runs (its server was killed with SIGKILL, or the machine restarted) is
// stale: it is removed, if it is still the same file, and taken; so is one whose pid is a zombie (a
// killed server its parent has not reaped yet). A pid reused by an unrelated
// process keeps the lock held; the refusal says which file to remove then.
import { existsSync, readFileSync } from 'node:fs';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';

export const LOCK_FILE = 'serve.lock';

/** A held lock. */
export interface DirectoryLock {
  release(): Promise<void>;
}

/**
 * Whether `pid` is a live process. kill(pid, 0) also succeeds for a zombie (a server killed but
 * not yet reaped by its parent, which can keep it so for as long as it runs): on Linux its state
 * in /proc/PID/stat (the field after the name, which is in parentheses and may hold any
 * character) tells, Z (zombie) or X (dead) being no server at all.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    // no /proc (not Linux): kill(pid, 0) is all there is; the process gone since: not running
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** The lock file's pid and identity, or undefined when there is none (any more). */
async function holder(file: string): Promise<{ pid: number; ino: number } | undefined> {
  try {
    const { ino } = await stat(file);
    const pid = Number((await readFile(file, 'utf8')).trim());
    return { pid: Number.isSafeInteger(pid) && pid > 0 ? pid : 0, ino };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function tryLink(draft: string, file: string): Promise<boolean> {
  try {
    await link(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Takes the lock of `dir` (which must exist) for this process, taking over a stale one. Throws a
 * UserError naming `dir` and the holder's pid when a running process holds it.
 */
export async function lockDirectory(dir: string): Promise<DirectoryLock> {
  const file = path.join(dir, LOCK_FILE);
  const draft = `${file}.${process.pid}.new`;
  await writeFile(draft, `${process.pid}\n`, { mode: 0o644 });
  try {
    while (!(await tryLink(draft, file))) {
      const held = await holder(file);
      if (held === undefined) continue;
      if (held.pid !== 0 && running(held.pid)) {
        throw new UserError(`in use by another edgesim serve (pid ${held.pid}); stop it or give another --data directory (if no such server runs, remove ${file})`, { source: dir });
      }
      if ((await holder(file))?.ino === held.ino) await unlink(file).catch(() => undefined);
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return {
    async release() {
      if ((await holder(file).catch(() => undefined))?.pid === process.pid) await unlink(file).catch(() => undefined);
    },
  };
}
