// What the format parsers share: numbering frames, decoding each into the one reused record and
// handing it to the caller, and collecting file-level warnings (bounded, so a file corrupt in a
// million places cannot fill memory with messages). One of them is counted here: packets stamped
// earlier than the packet before them (capinfos's "Strict time order: False"), which a reader of
// rates and durations needs to know about.
import { decodeFrameAt } from './decode/link-up.js';
import type { PacketRecord } from './record.js';
import { counted, groupDigits } from '../numbers.js';

const MAX_WARNINGS = 100;

/** Fills rec from the frame data[off, off + capLen) of link type linkType (decodeFrameAt's signature). */
export type FrameDecoder = (rec: PacketRecord, linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number) => void;

/**
 * What a format parser hands each record to: a frame to deliver, a record numbered as a frame that
 * holds no packet, a file-level warning. `frames` is the last frame number the file's records took.
 * FrameDelivery decodes and delivers at once; a merge of several files queues them (merge.ts).
 */
export interface FrameSink {
  readonly frames: number;
  emit(linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number, tsSec: number, tsNsec: number): void;
  skipFrame(): void;
  warn(message: string): void;
}

export class FrameDelivery implements FrameSink {
  /** the last frame number given out; the next frame is frames + 1 */
  frames = 0;
  /** packets handed to onPacket */
  delivered = 0;
  readonly warnings: string[] = [];
  private dropped = 0;
  private lastSec = -Infinity;
  private lastNsec = 0;
  private outOfOrder = 0;
  private firstOutOfOrder = 0;

  constructor(
    private readonly rec: PacketRecord,
    private readonly onPacket: (rec: PacketRecord) => void,
    private readonly decode: FrameDecoder = decodeFrameAt,
  ) {}

  /** Numbers frames on from `frames` and compares the first packet's time with (sec, nsec): a read that goes on from where another stopped. */
  continueAfter(frames: number, sec: number, nsec: number): void {
    this.frames = frames;
    this.lastSec = sec;
    this.lastNsec = nsec;
  }

  emit(linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number, tsSec: number, tsNsec: number): void {
    const rec = this.rec;
    this.decode(rec, linkType, data, off, capLen, origLen);
    rec.frame = ++this.frames;
    rec.tsSec = tsSec;
    rec.tsNsec = tsNsec;
    if (tsSec < this.lastSec || (tsSec === this.lastSec && tsNsec < this.lastNsec)) {
      if (this.outOfOrder++ === 0) this.firstOutOfOrder = rec.frame;
    }
    this.lastSec = tsSec;
    this.lastNsec = tsNsec;
    this.delivered++;
    this.onPacket(rec);
  }

  /** A record Wireshark numbers as a frame but that holds no packet: it takes a frame number, nothing is delivered. */
  skipFrame(): void {
    this.frames++;
  }

  warn(message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
    else this.dropped++;
  }

  /** The warnings, with the time-order count and a last line counting those left out. */
  allWarnings(): string[] {
    const out = [...this.warnings];
    if (this.outOfOrder > 0) out.push(timeOrderWarning(this.timeOrder()));
    if (this.dropped > 0) out.push(`${counted(this.dropped, 'more warning')} not shown`);
    return out;
  }

  timeOrder(): TimeOrder {
    return { outOfOrder: this.outOfOrder, firstOutOfOrder: this.firstOutOfOrder };
  }
}

/** Packets stamped earlier than the packet before them, and the first such frame (0: none). */
export interface TimeOrder {
  outOfOrder: number;
  firstOutOfOrder: number;
}

/** The warning for packets out of time order (as capinfos's "Strict time order: False"). */
export function timeOrderWarning(order: TimeOrder): string {
  const n = groupDigits(order.outOfOrder);
  return `timestamps out of order: ${n} packet${order.outOfOrder === 1 ? ' is' : 's are'} stamped earlier than the packet before them (the first is frame ${order.firstOutOfOrder})`;
}

/** What a format parser does with the bytes the reader has buffered. */
export interface FormatParser {
  /**
   * Consumes the complete records in buf[start, end) (buf[0] is byte `base` of the capture) and
   * returns the offset of the first byte it did not consume.
   */
  parse(buf: Uint8Array, view: DataView, start: number, end: number, base: number): number;
  /** bytes the record at the returned offset needs before parse can go on */
  readonly needed: number;
  /** true once the parser found damage it cannot read past; the rest of the file is ignored */
  readonly stopped: boolean;
  /** Called at the end of the data with the bytes parse could not consume (a cut-off last record). */
  finish(leftover: number, base: number): void;
  readonly format: 'pcap' | 'pcapng';
  readonly linkTypes: number[];
}

/** Largest record or block accepted: bigger lengths are taken as damage, which keeps memory bounded. */
export const MAX_RECORD = 64 << 20;
