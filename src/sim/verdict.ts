// The one verdict record: what decideFrame (decide-frame.ts) says of a frame, and the only thing every
// output renders — NDJSON and CSV (outputs/packet-fields.ts), the summary and its table and HTML page,
// diff, trace, suites' expectations and the library. One instance is reused for every frame of a run;
// the stage objects it holds (the firewall's result, ATP's decision, the packet's record) are reused
// too, so deciding a frame allocates nothing. What a reader wants as plain data, it asks for
// (`rule`, `matchedRefs()`, `monitor`, `toRecord()`), when it asks.
import { AtpDecision, type AtpStage, type MitigationReason } from '../atp/index.js';
import { STAGES } from '../atp/vocabulary.js';
import { PacketRecord } from '../capture/record.js';
import type { FirewallResult, FirewallRule } from '../firewall/firewall.js';
import { verdictName, type VerdictName } from '../verdict.js';
import type { LaneCode } from './lane.js';
import { SERIES_COLUMNS } from './verdict-series.js';

export type Stage = 'firewall' | AtpStage;

/** PacketVerdict.column: the verdict's column of the report's series (verdict-series.ts): 'pass', or the stage that dropped */
const COLUMN_STAGES: ReadonlyArray<Stage | null> = SERIES_COLUMNS.map((c) => (c === 'pass' ? null : c));
const FIREWALL_COLUMN = SERIES_COLUMNS.indexOf('firewall');
/** the column of each ATP component, by its code (SYN, OOS) */
const ATP_COLUMNS = STAGES.map((s) => SERIES_COLUMNS.indexOf(s));

/** What a protection in monitoring mode would have done with the packet, and the filter or rule that set that mode. */
export interface MonitorRecord {
  stage: AtpStage;
  verdict: 'drop';
  reason: MitigationReason;
  rule: string | null;
}

/** A verdict as plain data: the library's record of a packet (README "Using edgesim as a library"). */
export interface VerdictRecord {
  /** 1-based, as Wireshark numbers frames (decide: the packets since the last reset; in its own file when several captures are replayed) */
  frame: number;
  /** the capture the frame is in, present only when several captures are replayed merged by time */
  file?: string;
  /** capture time, seconds since the epoch (a number: to the nearest it can hold; timeNs is exact) */
  time: number;
  /** capture time, nanoseconds since the epoch, exact */
  timeNs: bigint;
  verdict: VerdictName;
  /** the stage that dropped the packet, or null when it passed */
  stage: Stage | null;
  /** the firewall rule that decided, or for a protection drop the ATP filter or rule whose mode applied */
  rule: string | null;
  /** every firewall rule that matched, in evaluation order */
  matched: string[];
  /** what a protection in monitoring mode would have done */
  monitor: MonitorRecord | null;
  /** ATP's mitigation reason */
  reason: MitigationReason | null;
  /** present when decoding stopped early */
  note?: string;
}

export class PacketVerdict {
  /** the stage that dropped the packet as a number, for counting: its series column (0: passed) */
  column = 0;
  /** the lane that decided it (lane.ts) */
  lane: LaneCode = 0;
  readonly atp = new AtpDecision();

  constructor(
    /** the path's firewall rules, which `rule` and `matchedRefs` name */
    private readonly rules: readonly FirewallRule[],
    /** the firewall's result for the packet (cleared when the firewall did not see it) */
    readonly firewall: FirewallResult,
    /**
     * the packet: its frame number, time and link type, and its fields as far as its lane read them
     * (every field on the decoder's lane; on the compiled lane what protection reads, and a dropped
     * packet's addresses)
     */
    readonly record: PacketRecord = new PacketRecord(),
  ) {}

  get drop(): boolean {
    return this.column !== 0;
  }

  /** the stage that dropped the packet, or null when it passed */
  get stage(): Stage | null {
    return COLUMN_STAGES[this.column];
  }

  /** ATP's mitigation reason when an ATP stage dropped it (ATP's decision holds none otherwise) */
  get reason(): MitigationReason | null {
    return this.atp.reason;
  }

  /**
   * The rule that decided the packet, as every report names it: the firewall rule that decided, or
   * for a protection drop the ATP filter or rule whose mode applied (its id, or its snapshot path
   * when it has none); null when no rule decided.
   */
  get rule(): string | null {
    const i = this.firewall.decidingRule;
    if (i >= 0) return this.rules[i]!.ref;
    return this.column !== 0 && this.column !== FIREWALL_COLUMN ? (this.atp.source?.ref ?? null) : null;
  }

  /** The refs of every firewall rule that matched, in evaluation order. */
  matchedRefs(): string[] {
    const fw = this.firewall;
    const refs: string[] = [];
    for (let k = 0; k < fw.matchedCount; k++) refs.push(this.rules[fw.matched[k]!]!.ref);
    return refs;
  }

  /** What a monitoring-mode protection would have done, with the filter or rule that set its mode; null when none. */
  get monitor(): MonitorRecord | null {
    const m = this.atp.monitor;
    return m === null ? null : { stage: m.stage, verdict: m.verdict, reason: m.reason, rule: this.atp.source?.ref ?? null };
  }

  /** why decoding stopped early, or null */
  get note(): string | null {
    return this.record.note === '' ? null : this.record.note;
  }

  /** The verdict as plain data (the library's record); `files`: the names of merged captures, by PacketRecord.file (OpenCapture.fileNames), null for one capture. */
  toRecord(files: readonly string[] | null = null): VerdictRecord {
    const rec = this.record;
    const note = this.note;
    return {
      frame: rec.frame,
      ...(files === null ? {} : { file: files[rec.file]! }),
      time: Number(rec.timeText()),
      timeNs: BigInt(rec.tsSec) * 1_000_000_000n + BigInt(rec.tsNsec),
      verdict: verdictName(this.drop),
      stage: this.stage,
      rule: this.rule,
      matched: this.matchedRefs(),
      monitor: this.monitor,
      reason: this.reason,
      ...(note === null ? {} : { note }),
    };
  }

  /** @internal the packet passes, seen by no stage (a frame without IP) */
  passUninspected(): void {
    this.column = 0;
    this.firewall.clear();
  }

  /** @internal the verdict of a packet the firewall decided (its result is in `firewall`) */
  setFromFirewall(): void {
    this.column = this.firewall.drop ? FIREWALL_COLUMN : 0;
  }

  /** @internal the verdict of a packet an ATP component dropped (its decision is in `atp`); the firewall never saw it */
  setFromAtp(): void {
    this.column = ATP_COLUMNS[this.atp.stageCode]!;
    this.firewall.clear();
  }
}
