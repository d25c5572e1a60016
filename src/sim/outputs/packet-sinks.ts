// Per-packet outputs of a replay: NDJSON (the contract in DESIGN.md), CSV, and pcap files of the
// passed or dropped packets. Each sink sees every packet once, after its verdict.
import type { PacketRecord } from '../../capture/record.js';
import { PcapWriter } from '../../capture/pcap-writer.js';
import type { Firewall } from '../../firewall/firewall.js';
import { decidingRule, type PacketVerdict } from '../verdict.js';
import { TextSink } from './text-sink.js';
import { verdictName } from '../../verdict.js';

export interface PacketSink {
  packet(rec: PacketRecord, v: PacketVerdict): void;
  close(): Promise<void>;
  /** what the user should know about this output once it is closed */
  warnings?(): string[];
}

function openPcap(path: string, linkType: number): PcapWriter {
  return PcapWriter.open(path, { linkType, nanosecond: true });
}

/**
 * One JSON object per packet: frame, time, verdict, stage, rule, matched, monitor, reason (+ note).
 * `rule` is the firewall rule that decided, or for a protection drop the ATP filter or rule whose
 * mode applied (its id, or its snapshot path when it has none); a monitoring note names it too.
 */
export class NdjsonSink implements PacketSink {
  private readonly refs: string[];
  /** the JSON text of each rule name (few), so a packet allocates nothing for it */
  private readonly quoted = new Map<string, string>();

  constructor(
    private readonly out: TextSink,
    private readonly firewall: Firewall,
  ) {
    this.refs = firewall.rules.map((r) => JSON.stringify(r.ref));
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    const fw = v.firewall;
    const refs = this.refs;
    let matched = '';
    for (let k = 0; k < fw.matchedCount; k++) matched += (k === 0 ? '' : ',') + refs[fw.matched[k]];
    const m = v.atp.monitor;
    const monitor = m === null ? 'null' : `{"stage":"${m.stage}","verdict":"${m.verdict}","reason":"${m.reason}","rule":${this.json(v.atp.source?.ref ?? null)}}`;
    const rule = this.json(decidingRule(v, this.firewall));
    this.out.write(
      `{"frame":${rec.frame},"time":${rec.timeText()},"verdict":"${verdictName(v.drop)}",` +
        `"stage":${v.stage === null ? 'null' : `"${v.stage}"`},"rule":${rule},` +
        `"matched":[${matched}],"monitor":${monitor},"reason":${v.reason === null ? 'null' : `"${v.reason}"`}` +
        `${rec.note === '' ? '' : `,"note":${JSON.stringify(rec.note)}`}}\n`,
    );
  }

  private json(name: string | null): string {
    if (name === null) return 'null';
    let text = this.quoted.get(name);
    if (text === undefined) {
      text = JSON.stringify(name);
      this.quoted.set(name, text);
    }
    return text;
  }

  async close(): Promise<void> {
    this.out.close();
  }
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = 'frame,time,verdict,stage,rule,matched,reason,monitor_stage,monitor_reason,note';

/** RFC 4180 CSV, one row per packet; `matched` holds the matched refs joined by ';'. */
export class CsvSink implements PacketSink {
  private readonly refs: string[];
  private readonly quotedRefs: string[];

  constructor(private readonly out: TextSink, firewall: Firewall) {
    this.refs = firewall.rules.map((r) => r.ref);
    this.quotedRefs = this.refs.map(csvField);
    out.write(`${CSV_HEADER}\n`);
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    const fw = v.firewall;
    let matched = '';
    for (let k = 0; k < fw.matchedCount; k++) matched += (k === 0 ? '' : ';') + this.refs[fw.matched[k]];
    const m = v.atp.monitor;
    this.out.write(
      `${rec.frame},${rec.timeText()},${verdictName(v.drop)},${v.stage ?? ''},` +
        `${fw.decidingRule < 0 ? '' : this.quotedRefs[fw.decidingRule]},${csvField(matched)},${v.reason ?? ''},` +
        `${m === null ? '' : m.stage},${m === null ? '' : m.reason},${rec.note === '' ? '' : csvField(rec.note)}\n`,
    );
  }

  async close(): Promise<void> {
    this.out.close();
  }
}

/** A pcap file of chosen frames, as captured, for Wireshark; it holds the link type of the first frame written. */
export class FramePcap {
  private writer: PcapWriter | null = null;
  private linkType = -1;
  private skipped = 0;

  constructor(readonly path: string) {}

  write(rec: PacketRecord): void {
    if (this.writer === null) {
      this.linkType = rec.linkType;
      this.writer = openPcap(this.path, rec.linkType);
    }
    // a classic pcap holds one link type: frames of another interface's link type are left out
    if (rec.linkType !== this.linkType) {
      this.skipped++;
      return;
    }
    this.writer.write(rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen), rec.tsSec, rec.tsNsec, rec.origLen);
  }

  warnings(): string[] {
    if (this.skipped === 0) return [];
    return [`${this.path}: ${this.skipped} frames of a second link type were left out (a pcap file holds one link type, ${this.linkType})`];
  }

  async close(): Promise<void> {
    if (this.writer === null) this.writer = openPcap(this.path, 1);
    await this.writer.close();
  }
}

/** Writes the packets with one verdict (pass or drop) to a pcap file. */
export class PcapVerdictSink implements PacketSink {
  private readonly file: FramePcap;

  constructor(path: string, private readonly wantDrop: boolean) {
    this.file = new FramePcap(path);
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    if (v.drop === this.wantDrop) this.file.write(rec);
  }

  warnings(): string[] {
    return this.file.warnings();
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
