// Per-packet outputs of a replay: NDJSON (the contract in DESIGN.md), CSV, and pcap files of the
// passed or dropped packets. Each sink sees every packet once, after its verdict.
import type { PacketRecord } from '../../capture/record.js';
import { PcapWriter } from '../../capture/pcap-writer.js';
import { counted } from '../../numbers.js';
import type { Firewall } from '../../firewall/firewall.js';
import type { PacketVerdict } from '../verdict.js';
import type { PacketField } from './packet-fields.js';
import { csvColumns, csvLine, ndjsonLine, type PacketLine } from './packet-lines.js';
import { TextSink } from './text-sink.js';

export interface PacketSink {
  packet(rec: PacketRecord, v: PacketVerdict): void;
  close(): Promise<void>;
  /** what the user should know about this output once it is closed */
  warnings?(): string[];
}

function openPcap(path: string, linkType: number): PcapWriter {
  return PcapWriter.open(path, { linkType, nanosecond: true });
}

/** One JSON object per packet (packet-lines.ts). */
export class NdjsonSink implements PacketSink {
  private readonly line: PacketLine;

  /** `extra`: the packet's own fields after the contract's (recordFieldColumns); `files`: merged captures' names (OpenCapture.fileNames) */
  constructor(private readonly out: TextSink, firewall: Firewall, extra: readonly PacketField[] = [], files: readonly string[] | null = null) {
    this.line = ndjsonLine(firewall, extra, files);
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    this.out.write(this.line(rec, v));
  }

  async close(): Promise<void> {
    this.out.close();
  }
}

/** CSV, a header and one row per packet (packet-lines.ts). */
export class CsvSink implements PacketSink {
  private readonly line: PacketLine;

  /** `extra`: the packet's own fields after the contract's (recordFieldColumns); `files`: merged captures' names (OpenCapture.fileNames) */
  constructor(private readonly out: TextSink, firewall: Firewall, extra: readonly PacketField[] = [], files: readonly string[] | null = null) {
    this.line = csvLine(firewall, extra, files);
    out.write(`${csvColumns(extra, files).join(',')}\n`);
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    this.out.write(this.line(rec, v));
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
    return [`${this.path}: left out ${counted(this.skipped, 'frame')} of a second link type (a pcap file holds one link type, ${this.linkType})`];
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
