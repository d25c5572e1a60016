// pcapng files: a sequence of blocks (type, total length, body, total length again). A Section
// Header Block starts each section and sets its byte order; Interface Description Blocks declare
// the section's interfaces (link type, snap length, timestamp unit and offset); packets come in
// Enhanced Packet Blocks, Simple Packet Blocks (interface 0, no timestamp) or the obsolete Packet
// Block. Every other block type is skipped by its length. Frame numbers follow Wireshark, which also
// numbers custom blocks and systemd journal entries as frames: those take a frame number and are
// not delivered, so frame N here is frame N in Wireshark.
//
// Damage is handled by how far it reaches: a packet block that is inconsistent inside (captured
// length beyond its block, unknown interface) is skipped with a warning and reading goes on, since
// the block length still finds the next block; a block length that is impossible, or that does not
// match the copy at the block's end, leaves no way to find the next block, so reading stops there.
import { CaptureError } from './capture-error.js';
import { type FormatParser, type FrameSink, MAX_RECORD } from './frame-delivery.js';
import { TimeBase } from './timestamps.js';

export const SHB = 0x0a0d0d0a;
const IDB = 0x00000001;
const PB = 0x00000002;
const SPB = 0x00000003;
const EPB = 0x00000006;
/** blocks Wireshark shows as (non-packet) frames: systemd journal export, custom (copyable or not) */
const NUMBERED_RECORDS = new Set([0x00000009, 0x00000bad, 0x40000bad]);
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
const MIN_BLOCK = 12;
/** SHB up to and including the version: type, length, byte-order magic, major, minor */
export const PCAPNG_MIN_HEADER = 16;

const OPT_END = 0;
const IF_TSRESOL = 9;
const IF_TSOFFSET = 14;

interface Interface {
  linkType: number;
  snapLen: number;
  time: TimeBase;
}

/** Reads the byte order of the section header at view[p]: true little, false big, undefined damaged. */
function sectionByteOrder(view: DataView, p: number): boolean | undefined {
  const magic = view.getUint32(p + 8, true);
  if (magic === BYTE_ORDER_MAGIC) return true;
  if (magic === 0x4d3c2b1a) return false;
  return undefined;
}

class PcapngParser implements FormatParser {
  readonly format = 'pcapng';
  needed = MIN_BLOCK;
  stopped = false;
  readonly linkTypes: number[] = [];
  private little = true;
  private interfaces: Interface[] = [];

  constructor(private readonly sink: FrameSink) {}

  parse(buf: Uint8Array, view: DataView, start: number, end: number, base: number): number {
    let p = start;
    while (end - p >= MIN_BLOCK) {
      const type = view.getUint32(p, this.little);
      if (type === SHB && !this.newSection(view, p, base)) return this.stop(p);
      const len = view.getUint32(p + 4, this.little);
      if (len < MIN_BLOCK || len % 4 !== 0 || len > MAX_RECORD) {
        this.sink.warn(`bad block length ${len} at byte ${base + p}; the rest of the file is ignored`);
        return this.stop(p);
      }
      if (end - p < len) {
        this.needed = len;
        return p;
      }
      if (view.getUint32(p + len - 4, this.little) !== len) {
        this.sink.warn(`block at byte ${base + p} has mismatched lengths; the rest of the file is ignored`);
        return this.stop(p);
      }
      if (type === EPB) this.enhancedPacket(buf, view, p, len, base);
      else if (type === SPB) this.simplePacket(buf, view, p, len, base);
      else if (type === IDB) this.interfaceDescription(view, p, len, base);
      else if (type === PB) this.obsoletePacket(buf, view, p, len, base);
      else if (NUMBERED_RECORDS.has(type)) this.sink.skipFrame();
      p += len;
    }
    this.needed = MIN_BLOCK;
    return p;
  }

  finish(leftover: number, base: number): void {
    if (leftover > 0) this.sink.warn(`truncated final block at byte ${base} (frame ${this.sink.frames + 1})`);
  }

  private stop(p: number): number {
    this.stopped = true;
    return p;
  }

  private newSection(view: DataView, p: number, base: number): boolean {
    const little = sectionByteOrder(view, p);
    if (little === undefined) {
      this.sink.warn(`section header at byte ${base + p} has a bad byte-order magic; the rest of the file is ignored`);
      return false;
    }
    this.little = little;
    this.interfaces = [];
    return true;
  }

  private interfaceDescription(view: DataView, p: number, len: number, base: number): void {
    if (len < 20) {
      this.sink.warn(`interface description block at byte ${base + p} is too short; skipped`);
      return;
    }
    const little = this.little;
    const linkType = view.getUint16(p + 8, little);
    const snapLen = view.getUint32(p + 12, little);
    let resolution = 6;
    let offset = 0;
    const optEnd = p + len - 4;
    let q = p + 16;
    while (optEnd - q >= 4) {
      const code = view.getUint16(q, little);
      const optLen = view.getUint16(q + 2, little);
      if (code === OPT_END || q + 4 + optLen > optEnd) break;
      if (code === IF_TSRESOL && optLen >= 1) resolution = view.getUint8(q + 4);
      else if (code === IF_TSOFFSET && optLen >= 8) {
        const hi = view.getInt32(q + 4 + (little ? 4 : 0), little);
        const lo = view.getUint32(q + 4 + (little ? 0 : 4), little);
        offset = hi * 4294967296 + lo;
      }
      q += 4 + ((optLen + 3) & ~3);
    }
    this.interfaces.push({ linkType, snapLen, time: new TimeBase(resolution, offset) });
    if (!this.linkTypes.includes(linkType)) this.linkTypes.push(linkType);
  }

  /** EPB: interface id (32 bits), timestamp, captured and original length, data */
  private enhancedPacket(buf: Uint8Array, view: DataView, p: number, len: number, base: number): void {
    this.timedPacket(buf, view, p, len, base, view.getUint32(p + 8, this.little));
  }

  /** obsolete Packet Block: interface id (16 bits), drops count (16 bits), then as an EPB */
  private obsoletePacket(buf: Uint8Array, view: DataView, p: number, len: number, base: number): void {
    this.timedPacket(buf, view, p, len, base, view.getUint16(p + 8, this.little));
  }

  private timedPacket(buf: Uint8Array, view: DataView, p: number, len: number, base: number, ifId: number): void {
    if (len < 32) {
      this.sink.warn(`packet block at byte ${base + p} is too short; skipped`);
      return;
    }
    const little = this.little;
    const capLen = view.getUint32(p + 20, little);
    if (capLen > len - 32) {
      this.sink.warn(`packet block at byte ${base + p} claims ${capLen} captured bytes, more than the block holds; skipped`);
      return;
    }
    const iface = this.interfaces[ifId];
    if (iface === undefined) {
      this.sink.warn(`packet block at byte ${base + p} names interface ${ifId}, which is not described; skipped`);
      return;
    }
    iface.time.convert(view.getUint32(p + 12, little), view.getUint32(p + 16, little));
    this.sink.emit(iface.linkType, buf, p + 28, capLen, view.getUint32(p + 24, little), iface.time.sec, iface.time.nsec);
  }

  /** SPB: original length, data (cut to interface 0's snap length); it has no timestamp, so its time is 0 */
  private simplePacket(buf: Uint8Array, view: DataView, p: number, len: number, base: number): void {
    const iface = this.interfaces[0];
    if (iface === undefined || len < 16) {
      this.sink.warn(`simple packet block at byte ${base + p} ${iface === undefined ? 'comes before any interface is described' : 'is too short'}; skipped`);
      return;
    }
    const origLen = view.getUint32(p + 8, this.little);
    let capLen = Math.min(origLen, len - 16);
    if (iface.snapLen !== 0 && iface.snapLen < capLen) capLen = iface.snapLen;
    this.sink.emit(iface.linkType, buf, p + 12, capLen, origLen, 0, 0);
  }
}

/** Checks the first section header (at least PCAPNG_MIN_HEADER bytes in view) and returns the block parser. */
export function pcapngParser(path: string, view: DataView, sink: FrameSink): FormatParser {
  const little = sectionByteOrder(view, 0);
  if (little === undefined) throw new CaptureError(`${path}: pcapng section header has a bad byte-order magic`);
  const major = view.getUint16(12, little);
  if (major !== 1) throw new CaptureError(`${path}: unsupported pcapng version ${major}.${view.getUint16(14, little)}`);
  return new PcapngParser(sink);
}
