// A replay on several threads (`edgesim replay --jobs N`) whose report is identical to one thread's.
// The file is cut into N byte ranges; this thread replays the records that start in the first range
// into the replay's summary, and each other thread (range-worker.ts) reads the file itself from its
// range's start, finds the first record there, and replays the records that start in its range into
// a part. Nothing is copied between threads but the parts. This thread then checks that each range's
// first record is exactly where the range before it ended (the record chain from the file's start
// runs through every range) and adds the parts in capture order (ReplaySummary.absorb), which gives
// exactly the counts of one thread: time buckets from the capture's first packet, decode notes with
// their first frame, packets out of time order, the top addresses (counted here, in order).
//
// When a check fails (a range started at a guessed record start that was not one) or a range met
// damage that a one-thread read reports with frame numbers, the capture is replayed again on one
// thread: a parallel replay gives the one-thread result or defers to it.
//
// Only classic pcap files on disk are cut (a pcapng file's interfaces are defined as it goes; a
// gzip stream or standard input cannot be read from the middle), and only replays whose result
// does not depend on the order of packets across ranges: protection off (Advanced TCP
// Protection's state depends on the order of packets), no per-packet outputs, no label sidecar.
import os from 'node:os';
import { timeOrderWarning, type TimeOrder } from '../../capture/frame-delivery.js';
import type { PcapHeader } from '../../capture/pcap.js';
import { PCAP_FILE_HEADER } from '../../capture/pcap.js';
import { readPcapHeader } from '../../capture/pcap-resync.js';
import { readCapture, type CaptureInfo } from '../../capture/reader.js';
import type { BuiltPath } from '../build.js';
import type { LoopOptions, OpenCapture } from '../packet-loop.js';
import { countingVisit } from '../count-packets.js';
import { PacketDecider } from '../packet-decider.js';
import type { ReplaySummary } from '../summary.js';
import type { RangeOutcome, RangeTask } from './range-task.js';

/** Captures from this size on are replayed on several threads by default (smaller ones finish before other threads would pay off). */
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

/** Starts the replay of one range (on a worker thread; tests run ranges in this thread to go faster). */
export type RangeRunner = (task: RangeTask) => RunningRange;

export interface RunningRange {
  outcome: Promise<RangeOutcome>;
  stop(): Promise<unknown>;
}

export interface RangeReplay {
  /** the read's information for the whole capture, or null: replay it on one thread instead */
  info: CaptureInfo | null;
  /** why the capture could not be cut (not a classic pcap file), when info is null for that reason */
  why: string | null;
}

/**
 * Replays `capture` on `threads` threads into `summary` and the firewall's counters (see the top of
 * this file). The file is read by path: `capture` itself is left unread, for the caller to replay on
 * one thread when the result is null, or to close.
 */
export async function replayInRanges(
  capture: OpenCapture,
  built: BuiltPath,
  threads: number,
  summary: ReplaySummary,
  opts: LoopOptions & { fastPath?: boolean; runRange?: RangeRunner },
): Promise<RangeReplay> {
  const header = await readPcapHeader(capture.path);
  if (header === null) return { info: null, why: 'only a classic pcap file is cut into ranges (this one is pcapng)' };
  const size = capture.size;
  let start: [number, number] | null = null;
  await readCapture(capture.path, (rec) => (start = [rec.tsSec, rec.tsNsec]), { range: { from: PCAP_FILE_HEADER, to: PCAP_FILE_HEADER + 1 } });
  if (start === null) return { info: null, why: null };
  const cuts = Array.from({ length: threads + 1 }, (_, k) => (k === threads ? Infinity : PCAP_FILE_HEADER + Math.floor((k * (size - PCAP_FILE_HEADER)) / threads)));
  const progress = new SharedArrayBuffer(8 * threads);
  const read = new Float64Array(progress);
  const fastPath = opts.fastPath !== false;
  // worker_threads is loaded only for a replay on several threads (start-up time)
  const { Worker } = await import('node:worker_threads');
  const runRange = opts.runRange ?? ((task: RangeTask) => onWorkerThread(Worker, task));
  const workers = cuts.slice(1, -1).map((from, i) =>
    runRange({ setup: built.setup!, path: capture.path, header, from, to: cuts[i + 2]!, start: start!, fastPath, progress, slot: i + 1 }),
  );
  const report = (): void => opts.onProgress?.(read.reduce((a, b) => a + b, 0), size);
  const ticker = opts.onProgress === undefined ? null : setInterval(report, 200);
  try {
    const decider = PacketDecider.of(built, fastPath);
    const main = await readCapture(capture.path, countingVisit(decider, summary), {
      signal: opts.signal,
      decodeFrame: decider.decodeFrame,
      range: { from: PCAP_FILE_HEADER, to: cuts[1]! },
      onProgress: (bytesRead) => {
        read[0] = bytesRead;
        report();
      },
    });
    // damage in the first range ends a one-thread read there too: its result is this range's
    if (hasDamage(main)) {
      void Promise.allSettled(workers.map((w) => w.stop()));
      return { info: main, why: null };
    }
    const parts = await Promise.all(workers.map((w) => w.outcome));
    return { info: merge(main, parts, summary, built, header), why: null };
  } finally {
    if (ticker !== null) clearInterval(ticker);
    await Promise.allSettled(workers.map((w) => w.stop()));
  }
}

/** Adds the ranges' parts to this thread's, or returns null when a range's start or end does not check. */
function merge(main: CaptureInfo, outcomes: RangeOutcome[], summary: ReplaySummary, built: BuiltPath, header: PcapHeader): CaptureInfo | null {
  let end = main.end;
  for (const o of outcomes) {
    if (o.kind !== 'done' || o.from !== end || hasDamage(o.info)) return null;
    end = o.info.end;
  }
  const order: TimeOrder = { ...main.timeOrder };
  let frames = main.packets;
  const { hits, decided } = built.firewall;
  for (const o of outcomes) {
    if (o.kind !== 'done') return null;
    const { parts, info } = o;
    if (parts.packets > 0) {
      // the range's first packet against the last one before it, as a one-thread read compares them
      const [lastSec, lastNsec] = summary.lastStamp();
      const [sec, nsec] = parts.first;
      if (summary.packets > 0 && (sec < lastSec || (sec === lastSec && nsec < lastNsec))) note(order, frames + 1);
      if (info.timeOrder.outOfOrder > 0) {
        if (order.outOfOrder === 0) order.firstOutOfOrder = frames + info.timeOrder.firstOutOfOrder;
        order.outOfOrder += info.timeOrder.outOfOrder;
      }
    }
    summary.absorb(parts, frames);
    for (let i = 0; i < hits.length; i++) hits[i] += o.hits[i]!;
    for (let i = 0; i < decided.length; i++) decided[i] += o.decided[i]!;
    frames += info.packets;
  }
  return {
    format: 'pcap',
    compressed: false,
    packets: frames,
    linkTypes: [header.linkType],
    warnings: order.outOfOrder > 0 ? [timeOrderWarning(order)] : [],
    timeOrder: order,
    end,
  };
}

function note(order: TimeOrder, frame: number): void {
  if (order.outOfOrder++ === 0) order.firstOutOfOrder = frame;
}

/** Warnings other than the time-order one: damage, which a one-thread read reports with its frame number. */
function hasDamage(info: CaptureInfo): boolean {
  return info.warnings.length > (info.timeOrder.outOfOrder > 0 ? 1 : 0);
}

// The worker's module next to this one: range-worker.js once built (dist/, or dist/bundle/ where the
// bundler puts it beside the chunk holding this code); under the tests, the TypeScript source, which
// the worker loads after registering tsx (a development dependency) in itself.
function onWorkerThread(Worker: typeof import('node:worker_threads').Worker, task: RangeTask): RunningRange {
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./range-worker.ts', import.meta.url).href)}); })`, { eval: true, workerData: task })
    : new Worker(new URL('./range-worker.js', import.meta.url), { workerData: task });
  const outcome = new Promise<RangeOutcome>((resolve) => {
    worker.once('message', (m: RangeOutcome) => resolve(m));
    worker.once('error', (err) => resolve({ kind: 'failed', message: err.message }));
    worker.once('exit', (code) => resolve({ kind: 'failed', message: `a replay thread stopped (exit code ${code})` }));
  });
  return { outcome, stop: () => worker.terminate() };
}
