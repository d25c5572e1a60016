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
// When a range's check fails (its thread took a guessed record start that was not one, or found
// none near damage) or its thread failed, this thread replays that range itself, from where the
// range before it ended, once everything before it has been added: a parallel replay gives the
// one-thread result. Damage in a range ends the replay there, as it ends a one-thread read.
//
// Only classic pcap files on disk are cut (a pcapng file's interfaces are defined as it goes; a
// gzip stream or standard input cannot be read from the middle), and only replays whose result
// does not depend on the order of packets across ranges: protection off (Advanced TCP
// Protection's state depends on the order of packets), no per-packet outputs, no label sidecar.
import os from 'node:os';
import type { Frame } from '../../capture/frame.js';
import { timeOrderWarning, type TimeOrder } from '../../capture/frame-delivery.js';
import type { PcapHeader } from '../../capture/pcap.js';
import { PCAP_FILE_HEADER } from '../../capture/pcap.js';
import { readPcapHeader } from '../../capture/pcap-resync.js';
import { readFrames, type CaptureInfo } from '../../capture/reader.js';
import { systemErrorText } from '../../errors.js';
import { closeSpillFile, openSpillFile } from '../address-log.js';
import type { CompiledPath } from '../compiled-path.js';
import { decideFrame } from '../decide-frame.js';
import type { LoopOptions, OpenCapture } from '../packet-loop.js';
import type { Run } from '../run.js';
import type { ReplaySummary } from '../summary.js';
import type { RangeOutcome, RangeTask } from './range-task.js';
import type { Jobs } from './threads.js';

/** Starts the replay of one range (on a worker thread; tests run ranges in this thread to go faster). */
export type RangeRunner = (task: RangeTask) => RunningRange;

export interface RunningRange {
  outcome: Promise<RangeOutcome>;
  stop(): Promise<unknown>;
}

export interface RangeReplay {
  /** the read's information for the whole capture, or null: replay it on one thread instead */
  info: CaptureInfo | null;
  /** why the capture was not replayed on several threads, when info is null (null: nothing to say) */
  why: string | null;
  /** whether `why` is worth saying even to a replay that did not ask for threads (no temporary file) */
  unexpected?: boolean;
  /** what the user should know of a replay that ran on several threads (a thread failed and its range was replayed here) */
  said?: string[];
}

/** Bytes of a range's drops' addresses kept in memory before the rest goes to a file (address-log.ts). */
const ADDRESS_LOG_MEMORY = 8 << 20;

/**
 * Replays `capture` on `threads` threads into `summary` and `run`'s tally (see the top of this file;
 * this thread's range in `run`). The file is read by path: `capture` itself is left unread, for the
 * caller to replay on one thread when the result is null, or to close.
 */
export async function replayInRanges(
  capture: OpenCapture,
  path: CompiledPath,
  run: Run,
  threads: number,
  summary: ReplaySummary,
  opts: LoopOptions & { fastPath?: boolean; runRange?: RangeRunner; jobs?: Jobs },
): Promise<RangeReplay> {
  const header = await readPcapHeader(capture.path);
  if (header === null) return { info: null, why: 'only a classic pcap file is cut into ranges (this one is pcapng)' };
  const size = capture.size;
  let start: [number, number] | null = null;
  await readFrames(capture.path, (frame) => (start = [frame.tsSec, frame.tsNsec]), { range: { from: PCAP_FILE_HEADER, to: PCAP_FILE_HEADER + 1 } });
  if (start === null) return { info: null, why: null };
  // range k holds the records that start in [starts[k], ends[k]); the last one reads to the end, as a one-thread read does
  const starts = Array.from({ length: threads }, (_, k) => PCAP_FILE_HEADER + Math.floor((k * (size - PCAP_FILE_HEADER)) / threads));
  const ends = [...starts.slice(1), Infinity];
  const progress = new SharedArrayBuffer(8 * threads);
  const read = new Float64Array(progress);
  const fastPath = opts.fastPath !== false;
  // worker_threads is loaded only for a replay on several threads (start-up time)
  const { Worker } = await import('node:worker_threads');
  const runRange = opts.runRange ?? ((task: RangeTask) => onWorkerThread(Worker, task));
  // a file for each other range's drops' addresses past its memory budget (address-log.ts)
  const spills: number[] = [];
  try {
    for (let slot = 1; slot < threads; slot++) spills.push(openSpillFile());
  } catch (err) {
    spills.forEach(closeSpillFile);
    return { info: null, why: `no temporary file could be made in ${os.tmpdir()} for the dropped packets' addresses (${systemErrorText(err)})`, unexpected: true };
  }
  const workers = starts.slice(1).map((from, i): RunningRange => {
    const slot = i + 1;
    const to = ends[slot]!;
    const addresses = { fd: spills[i]!, memoryBytes: ADDRESS_LOG_MEMORY };
    // a runner that throws or rejects is a thread that failed: its range is then replayed on this one
    const failed = (err: unknown): RangeOutcome => ({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    try {
      const running = runRange({ setup: path.setup!, path: capture.path, header, from, to, start: start!, fastPath, addresses, progress, slot });
      return { ...running, outcome: running.outcome.catch(failed) };
    } catch (err) {
      return { outcome: Promise.resolve(failed(err)), stop: async () => undefined };
    }
  });
  const report = (): void => opts.onProgress?.(read.reduce((a, b) => a + b, 0), size);
  const ticker = opts.onProgress === undefined ? null : setInterval(report, 200);
  try {
    const visit = (frame: Frame): void => summary.add(decideFrame(frame, path, run));
    const main = await readFrames(capture.path, visit, {
      signal: opts.signal,
      interrupt: opts.interrupt,
      range: { from: PCAP_FILE_HEADER, to: ends[0]! },
      // every core runs a range: reads ahead on libuv's thread would only compete with them
      blocking: true,
      onProgress: (bytesRead) => {
        read[0] = Math.min(bytesRead, ends[0]!);
        report();
      },
    });
    // damage in the first range ends a one-thread read there too: its result is this range's (as an interrupt's)
    if (main.interrupted || damageOf(main).length > 0) return { info: main, why: null };
    const merged = await addRanges(main, { path: capture.path, ends, workers, summary, run, visit, header, signal: opts.signal, interrupt: opts.interrupt, jobs: opts.jobs ?? threads });
    if (merged.info !== null) opts.onProgress?.(size, size);
    return merged;
  } finally {
    if (ticker !== null) clearInterval(ticker);
    await Promise.allSettled(workers.map((w) => w.stop()));
    spills.forEach(closeSpillFile);
  }
}

/** What adding the ranges in order needs of the replay. */
interface Merge {
  path: string;
  /** where each range ends (range 0 is this thread's) */
  ends: number[];
  workers: RunningRange[];
  summary: ReplaySummary;
  /** this thread's run, which the ranges' tallies are added to */
  run: Run;
  /** decides a frame in `run` and counts it into `summary` */
  visit: (frame: Frame) => void;
  header: PcapHeader;
  signal: AbortSignal | undefined;
  interrupt: AbortSignal | undefined;
  /** what the replay was asked for, for what it says */
  jobs: Jobs;
}

/**
 * Adds the ranges' parts to this thread's in capture order, each as it comes. A range whose first
 * record does not check (a guessed start that was not one, damage near its start), whose thread
 * failed, or that met damage is replayed here instead, from where the range before it ended,
 * straight into the summary: everything before it has been added, so it is counted in order, and
 * its warnings name frames from the capture's start. Damage ends a one-thread read where it is:
 * a range that met damage is the last added. An interrupt ends the replay with the ranges added
 * so far (a part not yet added is not waited for): the report is that of the capture's first packets.
 */
async function addRanges(main: CaptureInfo, m: Merge): Promise<RangeReplay> {
  const { summary, run, workers } = m;
  let end = main.end;
  const order: TimeOrder = { ...main.timeOrder };
  let damage: string[] = [];
  let frames = main.packets;
  const said: string[] = [];
  let interrupted = false;
  for (const [i, w] of workers.entries()) {
    const o = await untilAborted(w.outcome, m.signal, m.interrupt);
    if (o === INTERRUPTED) {
      interrupted = true;
      break;
    }
    if (o.kind === 'done' && o.from === end && damageOf(o.info).length === 0) {
      const { parts, info } = o;
      // the range's first packet against the last one before it, as a one-thread read compares them
      const [lastSec, lastNsec] = summary.lastStamp();
      const [sec, nsec] = parts.first;
      if (summary.packets > 0 && parts.packets > 0 && (sec < lastSec || (sec === lastSec && nsec < lastNsec))) {
        addTimeOrder(order, { outOfOrder: 1, firstOutOfOrder: 1 }, frames);
      }
      addTimeOrder(order, info.timeOrder, frames);
      summary.absorb(parts, frames);
      run.tally.absorb(o.tally);
      frames += info.packets;
      end = info.end;
      continue;
    }
    if (o.kind === 'failed') said.push(`--jobs ${m.jobs}: a replay thread failed (${o.message}); its range was replayed on the main thread`);
    const info = await readFrames(m.path, m.visit, {
      signal: m.signal,
      range: { from: end, to: m.ends[i + 1]! },
      after: { frames, last: summary.packets > 0 ? summary.lastStamp() : [-Infinity, 0] },
      blocking: true,
      interrupt: m.interrupt,
    });
    // frame numbers, and the first packet's time order, already count from the capture's start
    addTimeOrder(order, info.timeOrder, 0);
    frames += info.packets;
    end = info.end;
    damage = damageOf(info);
    interrupted = info.interrupted;
    if (damage.length > 0 || interrupted) break;
  }
  return {
    info: {
      format: 'pcap',
      compressed: false,
      packets: frames,
      linkTypes: [m.header.linkType],
      warnings: [...damage, ...(order.outOfOrder > 0 ? [timeOrderWarning(order)] : [])],
      timeOrder: order,
      end,
      interrupted,
    },
    why: null,
    said,
  };
}

/** Adds a later read's packets out of time order to `order` (`before`: the frames before that read's frame 1). */
function addTimeOrder(order: TimeOrder, later: TimeOrder, before: number): void {
  if (later.outOfOrder === 0) return;
  if (order.outOfOrder === 0) order.firstOutOfOrder = before + later.firstOutOfOrder;
  order.outOfOrder += later.outOfOrder;
}

/** A read's warnings other than the time-order one (which comes last): damage, reported with frame numbers. */
function damageOf(info: CaptureInfo): string[] {
  return info.warnings.slice(0, info.warnings.length - (info.timeOrder.outOfOrder > 0 ? 1 : 0));
}

const INTERRUPTED = Symbol('interrupted');

/** `outcome`; or the signal's reason once it is aborted (as a one-thread read rejects); or INTERRUPTED once `interrupt` is (as a one-thread read ends). */
function untilAborted<T>(outcome: Promise<T>, signal: AbortSignal | undefined, interrupt: AbortSignal | undefined): Promise<T | typeof INTERRUPTED> {
  signal?.throwIfAborted();
  if (interrupt?.aborted === true) return Promise.resolve(INTERRUPTED);
  return new Promise<T | typeof INTERRUPTED>((resolve, reject) => {
    const abort = (): void => reject(signal?.reason);
    const stop = (): void => resolve(INTERRUPTED);
    signal?.addEventListener('abort', abort, { once: true });
    interrupt?.addEventListener('abort', stop, { once: true });
    outcome.then(resolve, reject).finally(() => {
      signal?.removeEventListener('abort', abort);
      interrupt?.removeEventListener('abort', stop);
    });
  });
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
