// How many threads a replay runs on (`--jobs`). A number is taken as it is, as make -j and pigz -p
// take theirs. `auto` is decided by measuring: a capture under AUTO_THREADS_FROM finishes before other
// threads would pay off, and a larger one takes the processors that are idle at the moment it starts,
// up to AUTO_THREADS_MAX. On a shared machine whose processors are busy, another thread only competes
// with this one: a 10M-packet replay on 2 threads took 1.4x the wall time of one thread while other
// work kept 7 to 21 tasks runnable on the 2 processors (docs/speed.md). Loaded by every replay,
// unlike the code of a parallel replay itself (range-replay.ts).
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { BuiltPath } from '../build.js';
import type { OpenCapture } from '../packet-loop.js';

/** Captures from this size on are replayed on several threads by `auto` (smaller ones finish before other threads would pay off). */
export const AUTO_THREADS_FROM = 256 << 20;
/** the most threads `--jobs auto` takes */
export const AUTO_THREADS_MAX = 4;

export type Jobs = number | 'auto';

/** How many threads a replay of `capture` asks for (before what the capture's format allows). */
export function threadsWanted(jobs: Jobs, capture: OpenCapture): number {
  if (jobs !== 'auto') return jobs;
  return capture.size < AUTO_THREADS_FROM ? 1 : autoThreads(capture.size, os.availableParallelism(), busyElsewhere());
}

/**
 * `--jobs auto` for a capture of `bytes`: one thread under AUTO_THREADS_FROM, else the processors
 * not `busy` with other work (rounded), at least one and at most AUTO_THREADS_MAX.
 */
export function autoThreads(bytes: number, processors: number, busy: number): number {
  if (bytes < AUTO_THREADS_FROM) return 1;
  return Math.max(1, Math.min(AUTO_THREADS_MAX, processors, Math.round(processors - busy)));
}

/**
 * The processors other work keeps busy now: Linux's tasks runnable at this instant (the 4th field of
 * /proc/loadavg, "runnable/total") less this process's own runnable threads; where there is no /proc,
 * the 1-minute load average (0 on Windows: every processor counts as idle).
 */
export function busyElsewhere(): number {
  let runnable: number;
  try {
    runnable = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]!.split('/')[0]);
  } catch {
    return os.loadavg()[0]!;
  }
  return Number.isFinite(runnable) ? Math.max(0, runnable - ownRunnableThreads()) : os.loadavg()[0]!;
}

// this process's threads in state R (running or runnable); a thread that ends while they are read is not
function ownRunnableThreads(): number {
  let n = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] === 'R') n++;
    } catch {
      // ended
    }
  }
  return n;
}

/** Why a replay that asked for several threads runs on one, or null when it can run on several. */
export function whyOneThread(built: BuiltPath, capture: OpenCapture, perPacket: boolean): string | null {
  if (capture.merged) return 'several captures are merged by time, on one thread';
  if (built.atp.active) return "protection is on, and Advanced TCP Protection's state depends on the order of packets";
  if (perPacket) return 'per-packet outputs are written in capture order';
  if (built.setup === null) return 'the path cannot be built on another thread';
  if (capture.path === '-') return 'standard input is read in one piece';
  if (capture.compressed) return 'a compressed capture is read in one piece';
  return null;
}
