// A replay: read a capture, decide every packet on the packet path, feed the per-packet sinks and
// the summary, and return the report. A bad packet is reported (decode note) and the replay goes on;
// only a capture that cannot be read at all stops it.
import { readCapture } from '../capture/reader.js';
import { openSource } from '../capture/source.js';
import type { PacketRecord } from '../capture/record.js';
import { readLabels } from '../capture/synth/labels.js';
import type { Snapshot } from '../config/snapshot.js';
import type { Firewall } from '../firewall/firewall.js';
import { FastDecoding } from '../fastpath/fast-decoding.js';
import { FastFirewall } from '../fastpath/fast-firewall.js';
import { buildPacketPath, type PathOptions } from './build.js';
import type { PacketSink } from './outputs/packet-sinks.js';
import { ReplaySummary, type ReplayReport } from './summary.js';

export interface ReplayOptions extends PathOptions {
  capture: string;
  snapshot: Snapshot;
  /** per-packet outputs, made once the firewall is compiled (they name its rules) */
  sinks?: (firewall: Firewall) => PacketSink[];
  /** use the capture's label sidecar (synthetic scenarios) to score mitigation; default true */
  useLabels?: boolean;
  /** decide packets with the firewall's fast path where it can (default true; results are identical) */
  fastPath?: boolean;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

export interface ReplayResult {
  report: ReplayReport;
  warnings: string[];
}

export async function replay(opts: ReplayOptions): Promise<ReplayResult> {
  const built = await buildPacketPath(opts.snapshot, opts);
  const labels = opts.useLabels === false ? null : await readLabels(opts.capture);
  // a capture that cannot be opened fails here, before any output file is created or truncated
  await (await openSource(opts.capture)).close();
  const summary = new ReplaySummary(labels);
  const sinks = opts.sinks ? opts.sinks(built.firewall) : [];
  const path = built.path;
  const verdict = path.newVerdict();
  // with protection on, every packet needs its decoded fields for ATP's state: the fast path is for the firewall alone
  const fast = opts.fastPath !== false && !built.atp.active ? new FastDecoding(FastFirewall.compile(built.firewall, { lists: built.lists }), verdict.firewall) : null;
  const started = process.hrtime.bigint();
  const onPacket = (rec: PacketRecord): void => {
    if (fast !== null && fast.decided) verdict.setFromFirewall();
    else path.process(rec, verdict);
    summary.add(rec, verdict);
    for (let i = 0; i < sinks.length; i++) sinks[i].packet(rec, verdict);
  };
  let info;
  try {
    info = await readCapture(opts.capture, onPacket, { onProgress: opts.onProgress, decodeFrame: fast?.decodeFrame });
  } finally {
    // every sink is closed (and flushed) even when one fails or the read did; the first error wins
    const closed = await Promise.allSettled(sinks.map((s) => s.close()));
    const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (failed !== undefined && info !== undefined) throw failed.reason;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  for (const sink of sinks) built.warnings.push(...(sink.warnings?.() ?? []));
  const atpReport = built.atp.active ? built.atp.report(labels ?? undefined) : null;
  return { report: summary.report(opts.capture, info, built.firewall, atpReport, elapsed), warnings: built.warnings };
}
