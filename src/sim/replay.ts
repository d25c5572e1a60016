// A replay: decide every packet of a capture on the packet path, feed the per-packet sinks and the
// summary, and return the report. A bad packet is reported (decode note) and the replay goes on;
// only a capture that cannot be read at all stops it.
import type { PacketRecord } from '../capture/record.js';
import { labelsMisfit, labelsPathFor, readLabels } from '../capture/synth/labels.js';
import type { Firewall } from '../firewall/firewall.js';
import type { Snapshot } from '../config/snapshot.js';
import { buildPacketPath, type BuiltPath, type PathOptions } from './build.js';
import type { PacketSink } from './outputs/packet-sinks.js';
import { PacketDecider } from './packet-decider.js';
import { OpenCapture, type LoopOptions } from './packet-loop.js';
import { ReplaySummary, type ReplayReport } from './summary.js';

export interface ReplayOptions extends LoopOptions {
  /** per-packet outputs, made once the capture is open (they name the firewall's rules) */
  sinks?: (firewall: Firewall) => PacketSink[];
  /** use the capture's label sidecar (synthetic scenarios) to score mitigation; default true */
  useLabels?: boolean;
  /** decide packets with the firewall's fast path where it can (default true; results are identical) */
  fastPath?: boolean;
}

export interface ReplayResult {
  report: ReplayReport;
  warnings: string[];
}

/** Replays an opened capture through a built path; the capture is closed at the end. */
export async function replay(capture: OpenCapture, built: BuiltPath, opts: ReplayOptions = {}): Promise<ReplayResult> {
  let sinks: PacketSink[] = [];
  let labels;
  try {
    labels = opts.useLabels === false || capture.path === '-' ? null : await readLabels(capture.path);
    sinks = opts.sinks ? opts.sinks(built.firewall) : [];
  } catch (err) {
    await capture.close();
    await Promise.allSettled(sinks.map((s) => s.close()));
    throw err;
  }
  const summary = new ReplaySummary(labels);
  const decider = PacketDecider.of(built, opts.fastPath !== false);
  const started = process.hrtime.bigint();
  const onPacket = (rec: PacketRecord): void => {
    const verdict = decider.decide(rec);
    summary.add(rec, verdict);
    for (let i = 0; i < sinks.length; i++) sinks[i].packet(rec, verdict);
  };
  let info;
  try {
    info = await capture.forEachPacket(onPacket, { ...opts, decodeFrame: decider.decodeFrame });
  } finally {
    // every sink is closed (and flushed) even when one fails or the read did; the first error wins
    const closed = await Promise.allSettled(sinks.map((s) => s.close()));
    const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (failed !== undefined && info !== undefined) throw failed.reason;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const warnings = [...built.warnings];
  for (const sink of sinks) warnings.push(...(sink.warnings?.() ?? []));
  const misfit = labels === null ? null : labelsMisfit(labels, summary.lastFrame, labelsPathFor(capture.path));
  if (misfit !== null) warnings.push(misfit);
  const scored = misfit === null ? labels : null;
  const atpReport = built.atp.active ? built.atp.report(scored ?? undefined) : null;
  return { report: summary.report(capture.name, info, built.firewall, atpReport, elapsed, scored), warnings };
}

/** Builds the path for `snapshot` and replays the capture file through it (for scripts, benches and tests). */
export async function replayFile(capture: string, snapshot: Snapshot, opts: ReplayOptions & PathOptions = {}): Promise<ReplayResult> {
  const built = await buildPacketPath(snapshot, opts);
  return replay(await OpenCapture.open(capture), built, opts);
}
