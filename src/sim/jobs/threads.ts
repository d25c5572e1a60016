// How many threads a replay runs on (`--jobs`): a number is taken as it is, as make -j and pigz -p
// take theirs; `auto` by the capture's size and the machine's processors. Loaded by every replay,
// unlike the code of a parallel replay itself (range-replay.ts), which only one on several threads loads.
import os from 'node:os';
import type { BuiltPath } from '../build.js';
import type { OpenCapture } from '../packet-loop.js';

/** Captures from this size on are replayed on several threads by `auto` (smaller ones finish before other threads would pay off). */
export const AUTO_THREADS_FROM = 256 << 20;
/** the most threads `--jobs auto` takes */
const AUTO_THREADS_MAX = 4;

export type Jobs = number | 'auto';

/** How many threads a replay of `capture` asks for (before what the capture's format allows). */
export function threadsWanted(jobs: Jobs, capture: OpenCapture): number {
  if (jobs !== 'auto') return jobs;
  return capture.size >= AUTO_THREADS_FROM ? Math.min(os.availableParallelism(), AUTO_THREADS_MAX) : 1;
}

/** Why a replay that asked for several threads runs on one, or null when it can run on several. */
export function whyOneThread(built: BuiltPath, capture: OpenCapture, perPacket: boolean): string | null {
  if (built.atp.active) return "protection is on, and Advanced TCP Protection's state depends on the order of packets";
  if (perPacket) return 'per-packet outputs are written in capture order';
  if (built.setup === null) return 'the path cannot be built on another thread';
  if (capture.path === '-') return 'standard input is read in one piece';
  if (capture.compressed) return 'a compressed capture is read in one piece';
  return null;
}
