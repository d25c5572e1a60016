// What the library says about a packet: one NDJSON record of `edgesim replay --format ndjson`,
// spelled by the same compiled line (sim/outputs/packet-lines.ts) and read back, so the two cannot
// differ in a key or a value.
import type { AtpStage, MitigationReason } from '../atp/index.js';
import type { PacketRecord } from '../capture/record.js';
import type { Firewall } from '../firewall/firewall.js';
import { ndjsonLine } from '../sim/outputs/packet-lines.js';
import type { PacketVerdict, Stage } from '../sim/verdict.js';
import type { VerdictName } from '../verdict.js';

/** One packet's verdict, as one line of replay's NDJSON (docs/commands.md, "Per-packet output"). */
export interface VerdictRecord {
  /** 1-based, as Wireshark numbers frames (decide: the packets since the last reset; in its own file when several captures are replayed) */
  frame: number;
  /** the capture the frame is in, present only when several captures are replayed merged by time */
  file?: string;
  /** capture time, seconds since the epoch */
  time: number;
  verdict: VerdictName;
  /** the stage that dropped the packet, or null when it passed */
  stage: Stage | null;
  /** the firewall rule that decided, or for a protection drop the ATP filter or rule whose mode applied */
  rule: string | null;
  /** every firewall rule that matched, in evaluation order */
  matched: string[];
  /** what a protection in monitoring mode would have done */
  monitor: { stage: AtpStage; verdict: 'drop'; reason: MitigationReason; rule: string | null } | null;
  /** ATP's mitigation reason */
  reason: MitigationReason | null;
  /** present when decoding stopped early */
  note?: string;
}

export type VerdictRecordOf = (rec: PacketRecord, v: PacketVerdict) => VerdictRecord;

export function verdictRecords(firewall: Firewall): VerdictRecordOf {
  const line = ndjsonLine(firewall);
  return (rec, v) => JSON.parse(line(rec, v)) as VerdictRecord;
}
