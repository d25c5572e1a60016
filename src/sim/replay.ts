// A replay: decide every frame of a capture on a compiled path in a run (decide-frame.ts), feed the per-packet sinks and the
// summary, and return the report. A bad packet is reported (decode note) and the replay goes on;
// only a capture that cannot be read at all stops it.
import type { Frame } from '../capture/frame.js';
import type { Labels } from '../capture/synth/labels.js';
import type { Snapshot } from '../config/snapshot.js';
import { compilePath, type PathOptions } from './build.js';
import type { CompiledPath } from './compiled-path.js';
import { decideFrame } from './decide-frame.js';
import type { PacketSink } from './outputs/packet-sinks.js';
import type { ReadInfo } from '../capture/merge.js';
import type { RangeRunner } from './jobs/range-replay.js';
import { threadsWanted, whyOneThread, type Jobs } from './jobs/threads.js';
import { OpenCapture, type LoopOptions } from './packet-loop.js';
import { Run } from './run.js';
import { ReplaySummary, type ReplayReport } from './summary.js';
import { counted } from '../numbers.js';

export interface ReplayOptions extends LoopOptions {
  /** per-packet outputs, made once the capture is open, for the replay's run (they name its path's rules, and the files of merged captures: OpenCapture.fileNames) */
  sinks?: (run: Run) => PacketSink[];
  /** use the capture's label sidecar (synthetic scenarios) to score mitigation; default true */
  useLabels?: boolean;
  /** decide frames on the compiled lane where it can (default true; results are identical); false: the decoder's lane alone */
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
 * Replays an opened capture on a compiled path, in a run of its own; the capture is closed at the
 * end. The label reader and the code of parallel replays are loaded only for a replay that uses them
 * (start-up time).
 */
export async function replay(capture: OpenCapture, path: CompiledPath, opts: ReplayOptions = {}): Promise<ReplayResult> {
  let sinks: PacketSink[] = [];
  let labels: Labels | null;
  const runOptions = { record: opts.fastPath === false };
  let run = new Run(path, runOptions);
  // a label sidecar belongs to one synthetic capture: merged captures are replayed without labels
  const labelFiles = opts.useLabels === false || capture.path === '-' || capture.merged ? null : await import('../capture/synth/labels.js');
  try {
    labels = labelFiles === null ? null : await labelFiles.readLabels(capture.path);
    sinks = opts.sinks ? opts.sinks(run) : [];
  } catch (err) {
    await capture.close();
    await Promise.allSettled(sinks.map((s) => s.close()));
    throw err;
  }
  const warnings = [...path.warnings];
  const files = capture.fileNames?.length ?? 1;
  let summary = new ReplaySummary(labels, undefined, files);
  const started = process.hrtime.bigint();
  let info: ReadInfo | undefined;
  let threads = 1;
  try {
    threads = threadsFor(opts.jobs ?? 1, path, capture, sinks.length > 0, labels !== null, warnings);
    if (threads > 1) {
      const { replayInRanges } = await import('./jobs/range-replay.js');
      const ranges = await replayInRanges(capture, path, run, threads, summary, opts).catch(async (err: unknown) => {
        await capture.close();
        throw err;
      });
      if (ranges.info !== null) {
        info = ranges.info;
        warnings.push(...(ranges.said ?? []));
        await capture.close();
      } else {
        if (ranges.why !== null && (opts.jobs !== 'auto' || ranges.unexpected)) warnings.push(`--jobs ${opts.jobs}: ${ranges.why}, so it ran on one thread`);
        // what the ranges counted is let go: the one-thread replay counts in a run of its own
        run = new Run(path, runOptions);
        summary = new ReplaySummary(labels, undefined, files);
        threads = 1;
      }
    }
    if (info === undefined) {
      const one = run;
      const all = summary;
      const onFrame =
        sinks.length === 0
          ? (frame: Frame): void => all.add(decideFrame(frame, path, one))
          : (frame: Frame): void => {
              const verdict = decideFrame(frame, path, one);
              all.add(verdict);
              for (let i = 0; i < sinks.length; i++) sinks[i].packet(verdict);
            };
      info = await capture.forEachFrame(onFrame, opts);
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
  const atpReport = run.protection === null ? null : run.protection.report(scored ?? undefined);
  return { report: summary.report(capture.name, info, path.firewall, run.tally, atpReport, elapsed, scored), warnings, threads };
}

/** What a replay ended early says; `reason` is the interrupt's (a signal's name, e.g. SIGINT). */
function interruptedWarning(reason: unknown, packets: number): string {
  return `interrupted${typeof reason === 'string' ? ` by ${reason}` : ''}: the report covers the first ${counted(packets, 'packet')} of the capture`;
}

/**
 * The threads a replay runs on: what `jobs` asks for where the replay allows it (an explicit number
 * is taken as it is, as make -j and pigz -p do); why not, in `warnings`, when asked for explicitly.
 */
function threadsFor(jobs: Jobs, path: CompiledPath, capture: OpenCapture, perPacket: boolean, labels: boolean, warnings: string[]): number {
  const wanted = threadsWanted(jobs, capture);
  if (wanted <= 1) return 1;
  const why = labels ? "the capture's label sidecar is scored packet by packet" : whyOneThread(path, capture, perPacket);
  if (why === null) return wanted;
  if (jobs !== 'auto') warnings.push(`--jobs ${wanted}: ${why}, so it ran on one thread`);
  return 1;
}

/** Compiles the path for `snapshot` and replays the capture file (or several, merged by time) on it (for scripts, benches and tests). */
export async function replayFile(capture: string | readonly string[], snapshot: Snapshot, opts: ReplayOptions & PathOptions = {}): Promise<ReplayResult> {
  const path = await compilePath(snapshot, opts);
  return replay(await OpenCapture.open(capture), path, opts);
}
