// A replay: decide every packet of a capture on the packet path, feed the per-packet sinks and the
// summary, and return the report. A bad packet is reported (decode note) and the replay goes on;
// only a capture that cannot be read at all stops it.
import type { PacketRecord } from '../capture/record.js';
import type { Labels } from '../capture/synth/labels.js';
import type { Firewall } from '../firewall/firewall.js';
import type { Snapshot } from '../config/snapshot.js';
import { buildPacketPath, type BuiltPath, type PathOptions } from './build.js';
import type { PacketSink } from './outputs/packet-sinks.js';
import type { ReadInfo } from '../capture/merge.js';
import type { RangeRunner } from './jobs/range-replay.js';
import { threadsWanted, whyOneThread, type Jobs } from './jobs/threads.js';
import { countingVisit } from './count-packets.js';
import { PacketDecider } from './packet-decider.js';
import { OpenCapture, type LoopOptions } from './packet-loop.js';
import { ReplaySummary, type ReplayReport } from './summary.js';
import { counted } from '../numbers.js';

export interface ReplayOptions extends LoopOptions {
  /** per-packet outputs, made once the capture is open (they name the firewall's rules, and the files of merged captures: OpenCapture.fileNames) */
  sinks?: (firewall: Firewall) => PacketSink[];
  /** use the capture's label sidecar (synthetic scenarios) to score mitigation; default true */
  useLabels?: boolean;
  /** decide packets with the firewall's fast path where it can (default true; results are identical) */
  fastPath?: boolean;
  /** threads to replay on (jobs/range-replay.ts; default 1; results are identical), or auto: by the capture's size and the idle processors (jobs/threads.ts) */
  jobs?: Jobs;
  /** how a range of a parallel replay is run (default: on a worker thread) */
  runRange?: RangeRunner;
}

export interface ReplayResult {
  report: ReplayReport;
  warnings: string[];
  /** the threads the replay ran on (1 when a parallel replay deferred to one thread) */
  threads: number;
}

/**
 * Replays an opened capture through a built path; the capture is closed at the end. The label reader
 * and the code of parallel replays are loaded only for a replay that uses them (start-up time).
 */
export async function replay(capture: OpenCapture, built: BuiltPath, opts: ReplayOptions = {}): Promise<ReplayResult> {
  let sinks: PacketSink[] = [];
  let labels: Labels | null;
  // a label sidecar belongs to one synthetic capture: merged captures are replayed without labels
  const labelFiles = opts.useLabels === false || capture.path === '-' || capture.merged ? null : await import('../capture/synth/labels.js');
  try {
    labels = labelFiles === null ? null : await labelFiles.readLabels(capture.path);
    sinks = opts.sinks ? opts.sinks(built.firewall) : [];
  } catch (err) {
    await capture.close();
    await Promise.allSettled(sinks.map((s) => s.close()));
    throw err;
  }
  const warnings = [...built.warnings];
  const files = capture.fileNames?.length ?? 1;
  let summary = new ReplaySummary(labels, undefined, files);
  const started = process.hrtime.bigint();
  let info: ReadInfo | undefined;
  let threads = 1;
  try {
    threads = threadsFor(opts.jobs ?? 1, built, capture, sinks.length > 0, labels !== null, warnings);
    if (threads > 1) {
      const { replayInRanges } = await import('./jobs/range-replay.js');
      const ranges = await replayInRanges(capture, built, threads, summary, opts).catch(async (err: unknown) => {
        await capture.close();
        throw err;
      });
      if (ranges.info !== null) {
        info = ranges.info;
        warnings.push(...(ranges.said ?? []));
        await capture.close();
      } else {
        if (ranges.why !== null && (opts.jobs !== 'auto' || ranges.unexpected)) warnings.push(`--jobs ${opts.jobs}: ${ranges.why}, so it ran on one thread`);
        // what the ranges counted is thrown away: the one-thread replay counts from nothing
        built.firewall.hits.fill(0);
        built.firewall.decided.fill(0);
        summary = new ReplaySummary(labels, undefined, files);
        threads = 1;
      }
    }
    if (info === undefined) {
      const decider = PacketDecider.of(built, opts.fastPath !== false);
      const onPacket =
        sinks.length === 0
          ? countingVisit(decider, summary)
          : (rec: PacketRecord): void => {
              summary.engine.add(decider);
              const verdict = decider.decide(rec);
              summary.add(rec, verdict);
              for (let i = 0; i < sinks.length; i++) sinks[i].packet(rec, verdict);
            };
      info = await capture.forEachPacket(onPacket, { ...opts, decodeFrame: decider.decodeFrame });
    }
  } finally {
    // every sink is closed (and flushed) even when one fails or the read did; the first error wins
    const closed = await Promise.allSettled(sinks.map((s) => s.close()));
    const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (failed !== undefined && info !== undefined) throw failed.reason;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  if (info.interrupted) warnings.push(interruptedWarning(opts.interrupt?.reason, summary.packets));
  for (const sink of sinks) warnings.push(...(sink.warnings?.() ?? []));
  const misfit = labels === null || labelFiles === null ? null : labelFiles.labelsMisfit(labels, summary.lastFrame, labelFiles.labelsPathFor(capture.path));
  if (misfit !== null) warnings.push(misfit);
  const scored = misfit === null ? labels : null;
  const atpReport = built.atp.active ? built.atp.report(scored ?? undefined) : null;
  return { report: summary.report(capture.name, info, built.firewall, atpReport, elapsed, scored), warnings, threads };
}

/** What a replay ended early says; `reason` is the interrupt's (a signal's name, e.g. SIGINT). */
function interruptedWarning(reason: unknown, packets: number): string {
  return `interrupted${typeof reason === 'string' ? ` by ${reason}` : ''}: the report covers the first ${counted(packets, 'packet')} of the capture`;
}

/**
 * The threads a replay runs on: what `jobs` asks for where the replay allows it (an explicit number
 * is taken as it is, as make -j and pigz -p do); why not, in `warnings`, when asked for explicitly.
 */
function threadsFor(jobs: Jobs, built: BuiltPath, capture: OpenCapture, perPacket: boolean, labels: boolean, warnings: string[]): number {
  const wanted = threadsWanted(jobs, capture);
  if (wanted <= 1) return 1;
  const why = labels ? "the capture's label sidecar is scored packet by packet" : whyOneThread(built, capture, perPacket);
  if (why === null) return wanted;
  if (jobs !== 'auto') warnings.push(`--jobs ${wanted}: ${why}, so it ran on one thread`);
  return 1;
}

/** Builds the path for `snapshot` and replays the capture file (or several, merged by time) through it (for scripts, benches and tests). */
export async function replayFile(capture: string | readonly string[], snapshot: Snapshot, opts: ReplayOptions & PathOptions = {}): Promise<ReplayResult> {
  const built = await buildPacketPath(snapshot, opts);
  return replay(await OpenCapture.open(capture), built, opts);
}
