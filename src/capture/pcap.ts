// Classic libpcap files: a 24-byte file header (magic, version, snap length, link type) and then
// records of a 16-byte header (seconds, fraction, captured and original length) plus the bytes.
// The magic gives the byte order (whichever the writing host used) and the fraction's unit
// (0xa1b2c3d4 microseconds, 0xa1b23c4d nanoseconds).
//
// A record header is all a parser has to find the next record, so an impossible captured length
// ends the read there (with a warning); everything before it has been delivered.
import { CaptureError } from './capture-error.js';
import { type FormatParser, type FrameSink, MAX_RECORD } from './frame-delivery.js';

const MAGIC_USEC = 0xa1b2c3d4;
const MAGIC_NSEC = 0xa1b23c4d;
export const PCAP_FILE_HEADER = 24;
const RECORD_HEADER = 16;

/** True when the first four bytes are a classic pcap magic in either byte order. */
export function isPcapMagic(view: DataView): boolean {
  const m = view.getUint32(0, false);
  const s = view.getUint32(0, true);
  return m === MAGIC_USEC || m === MAGIC_NSEC || s === MAGIC_USEC || s === MAGIC_NSEC;
}

export class PcapParser implements FormatParser {
  readonly format = 'pcap';
  needed = RECORD_HEADER;
  stopped = false;
  readonly linkTypes: number[];
  /** a file offset: the records that start at or after it are left unread (a range of the file, sim/jobs/) */
  limit = Infinity;

  constructor(
    private readonly sink: FrameSink,
    private readonly little: boolean,
    private readonly nanoFactor: number,
    private readonly linkType: number,
  ) {
    this.linkTypes = [linkType];
  }

  parse(buf: Uint8Array, view: DataView, start: number, end: number, base: number): number {
    const stop = this.limit - base;
    const p = deliverRecords(this.sink, this.linkType, this.little, this.nanoFactor, buf, view, start, end, stop);
    // why the records stopped there: the buffer's end, the range's end, damage, or a record not yet whole
    if (end - p < RECORD_HEADER) {
      this.needed = RECORD_HEADER;
      return p;
    }
    if (p >= stop) {
      this.stopped = true;
      return p;
    }
    const capLen = view.getUint32(p + 8, this.little);
    if (capLen > MAX_RECORD) {
      this.sink.warn(`bad record length ${capLen} at byte ${base + p} (frame ${this.sink.frames + 1}); the rest of the file is ignored`);
      this.stopped = true;
      return p;
    }
    this.needed = RECORD_HEADER + capLen;
    return p;
  }

  finish(leftover: number, base: number): void {
    if (leftover > 0 && base < this.limit) this.sink.warn(`truncated final record at byte ${base} (frame ${this.sink.frames + 1})`);
  }
}

/** What a classic pcap file header says about the records after it. */
export interface PcapHeader {
  little: boolean;
  /** nanoseconds per unit of the records' fraction field: 1000 (microseconds) or 1 */
  nanoFactor: number;
  linkType: number;
  snapLen: number;
}

/** Reads the file header (at least PCAP_FILE_HEADER bytes in view, a pcap magic first). */
export function pcapHeader(path: string, view: DataView): PcapHeader {
  const little = view.getUint32(0, true) === MAGIC_USEC || view.getUint32(0, true) === MAGIC_NSEC;
  const magic = view.getUint32(0, little);
  const major = view.getUint16(4, little);
  const minor = view.getUint16(6, little);
  if (major !== 2) throw new CaptureError(`${path}: unsupported pcap version ${major}.${minor}`);
  // the top bits of the link-type field carry FCS information, not the link type
  const linkType = view.getUint32(20, little) & 0xffff;
  return { little, nanoFactor: magic === MAGIC_NSEC ? 1 : 1000, linkType, snapLen: view.getUint32(16, little) };
}

/** Reads the file header (at least PCAP_FILE_HEADER bytes in view) and returns the record parser. */
export function pcapParser(path: string, view: DataView, sink: FrameSink): FormatParser {
  const h = pcapHeader(path, view);
  return new PcapParser(sink, h.little, h.nanoFactor, h.linkType);
}

/**
 * Delivers the complete records of buf[p, end) that start before `stop` and returns where it stopped
 * (parse says why). The per-record loop is a function of its own that reads only its arguments: parse
 * runs once per chunk, so V8 optimizes it while its first call is still in the loop, before the code
 * around the loop has run (the feedback vector is made lazily), and that code, when it ran inside the
 * loop's function, threw the optimized loop away two or three times in a replay, each time compiled
 * again with everything inlined into it (a 1M-packet replay spent more on compiling it than on running it).
 */
function deliverRecords(sink: FrameSink, linkType: number, little: boolean, nanoFactor: number, buf: Uint8Array, view: DataView, p: number, end: number, stop: number): number {
  while (end - p >= RECORD_HEADER && p < stop) {
    const capLen = view.getUint32(p + 8, little);
    if (capLen > MAX_RECORD || end - p - RECORD_HEADER < capLen) return p;
    let sec = view.getUint32(p, little);
    let nsec = view.getUint32(p + 4, little) * nanoFactor;
    if (nsec >= 1e9) {
      // a fraction of a second or more, as damaged or odd writers leave: carry it into the seconds
      sec += Math.floor(nsec / 1e9);
      nsec %= 1e9;
    }
    sink.emit(linkType, buf, p + RECORD_HEADER, capLen, view.getUint32(p + 12, little), sec, nsec);
    p += RECORD_HEADER + capLen;
  }
  return p;
}
