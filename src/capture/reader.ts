// Reading a capture: pull bytes from the file (inflating gzip) a megabyte at a time into one buffer,
// let the format parser (pcap or pcapng, told apart by the first four bytes) consume the complete
// records in it, move the cut-off record at the end to the front, and read on. Each packet is decoded
// into ONE PacketRecord whose `data` points into that buffer, and handed to the caller synchronously,
// so the per-packet path allocates nothing and memory stays flat however big the file is.
//
// A file that cannot be read at all (missing, not a capture, broken file header) rejects with a
// CaptureError. Damage after a good start (a truncated last record, a corrupt block, corrupt gzip
// data) ends or skips what it must and becomes a warning in CaptureInfo: every packet before it is
// delivered. A bad packet is never an error: it is decoded as far as it goes and carries a note.
import { CaptureError } from './capture-error.js';
import { decodeFrameAt } from './decode/link-up.js';
import { type FormatParser, FrameDelivery } from './frame-delivery.js';
import { PCAP_FILE_HEADER, isPcapMagic, pcapParser } from './pcap.js';
import { PCAPNG_MIN_HEADER, SHB, pcapngParser } from './pcapng.js';
import { PacketRecord } from './record.js';
import { type ByteSource, CHUNK, openSource, STDIN_NAME } from './source.js';

export { CaptureError } from './capture-error.js';

export interface ReadOptions {
  /** called after each chunk read: bytes of the file consumed so far (compressed bytes for gzip) and the file's size */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** aborting stops the read at the next chunk; readCapture then rejects with the signal's reason */
  signal?: AbortSignal;
  /** the capture already opened with openSource (it is closed at the end); else `path` is opened */
  source?: ByteSource;
}

export interface CaptureInfo {
  format: 'pcap' | 'pcapng';
  compressed: boolean;
  /** packets delivered to onPacket */
  packets: number;
  /** link types of the file (pcap) or of its interfaces (pcapng), in order of first appearance */
  linkTypes: number[];
  /** file-level problems that did not stop the read, e.g. "truncated final record at byte 123456 (frame 99)" */
  warnings: string[];
}

/**
 * Decodes one frame (link type + bytes) into rec; used by readCapture and by tests/synth. The frame
 * is data[0, capLen) and is taken as complete (origLen = capLen); frame and timestamps are the caller's.
 */
export function decodeFrame(rec: PacketRecord, linkType: number, data: Uint8Array, capLen: number): void {
  decodeFrameAt(rec, linkType, data, 0, capLen, capLen);
}

/** The read buffer: buf[start, end) holds bytes not yet consumed; buf[0] is byte `base` of the data. */
class Window {
  buf = new Uint8Array(2 * CHUNK);
  view = new DataView(this.buf.buffer);
  start = 0;
  end = 0;
  base = 0;
  eof = false;

  constructor(readonly source: ByteSource) {}

  /** Moves the unconsumed bytes to the front, grows the buffer to hold `needed` bytes if it must, reads a chunk. */
  async refill(needed: number): Promise<void> {
    if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.end);
      this.base += this.start;
      this.end -= this.start;
      this.start = 0;
    }
    if (needed > this.buf.length - CHUNK) {
      const bigger = new Uint8Array(needed + CHUNK);
      bigger.set(this.buf.subarray(0, this.end));
      this.buf = bigger;
      this.view = new DataView(bigger.buffer);
    }
    const n = await this.source.read(this.buf, this.end, this.buf.length - this.end);
    if (n === 0) this.eof = true;
    this.end += n;
  }

  /** Reads until at least n bytes are buffered or the data ends. */
  async fill(n: number): Promise<void> {
    while (this.end - this.start < n && !this.eof) await this.refill(n);
  }
}

function hex(buf: Uint8Array, n: number): string {
  return Array.from(buf.subarray(0, n), (b) => b.toString(16).padStart(2, '0')).join(' ');
}

async function openFormat(path: string, w: Window, sink: FrameDelivery): Promise<FormatParser> {
  await w.fill(PCAP_FILE_HEADER);
  const have = w.end;
  if (have < PCAP_FILE_HEADER && w.source.problem !== '') throw new CaptureError(`${path}: ${w.source.problem}`);
  if (have === 0) throw new CaptureError(`${path}: empty file`);
  if (have >= 4 && w.view.getUint32(0, true) === SHB) {
    if (have < PCAPNG_MIN_HEADER) throw new CaptureError(`${path}: truncated pcapng section header`);
    return pcapngParser(path, w.view, sink);
  }
  if (have >= 4 && isPcapMagic(w.view)) {
    if (have < PCAP_FILE_HEADER) throw new CaptureError(`${path}: truncated pcap file header`);
    const parser = pcapParser(path, w.view, sink);
    w.start = PCAP_FILE_HEADER;
    return parser;
  }
  throw new CaptureError(`${path}: not a pcap or pcapng file (it starts with ${hex(w.buf, Math.min(have, 4))})`);
}

/** Streams the capture (pcap, pcapng, either gzip-compressed), decodes each packet into ONE reused PacketRecord and calls onPacket synchronously. */
export async function readCapture(path: string, onPacket: (rec: PacketRecord) => void, opts: ReadOptions = {}): Promise<CaptureInfo> {
  const { signal, onProgress } = opts;
  signal?.throwIfAborted();
  const source = opts.source ?? (await openSource(path));
  const name = path === '-' ? STDIN_NAME : path;
  try {
    const w = new Window(source);
    const sink = new FrameDelivery(new PacketRecord(), onPacket);
    const parser = await openFormat(name, w, sink);
    onProgress?.(source.position, source.size);
    for (;;) {
      w.start = parser.parse(w.buf, w.view, w.start, w.end, w.base);
      if (parser.stopped) break;
      if (w.eof) {
        parser.finish(w.end - w.start, w.base + w.start);
        break;
      }
      signal?.throwIfAborted();
      await w.refill(parser.needed);
      onProgress?.(source.position, source.size);
    }
    if (source.problem !== '') sink.warn(source.problem);
    return { format: parser.format, compressed: source.compressed, packets: sink.delivered, linkTypes: parser.linkTypes, warnings: sink.allWarnings() };
  } finally {
    await source.close();
  }
}
