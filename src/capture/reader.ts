// Reading a capture: pull bytes from the file (inflating gzip) a megabyte at a time into two buffers
// in turn, let the format parser (pcap or pcapng, told apart by the first four bytes) consume the
// complete records in one while the next chunk is read into the other, carry the cut-off record at
// the end over, and read on. Each packet is decoded into ONE PacketRecord whose `data` points into
// the current buffer, and handed to the caller synchronously,
// so the per-packet path allocates nothing and memory stays flat however big the file is.
//
// A file that cannot be read at all (missing, not a capture, broken file header) rejects with a
// CaptureError. Damage after a good start (a truncated last record, a corrupt block, corrupt gzip
// data) ends or skips what it must and becomes a warning in CaptureInfo: every packet before it is
// delivered. A bad packet is never an error: it is decoded as far as it goes and carries a note.
import { CaptureError } from './capture-error.js';
import { decodeFrameAt } from './decode/link-up.js';
import { type FormatParser, type FrameDecoder, FrameDelivery, type FrameSink, type TimeOrder } from './frame-delivery.js';
import { PCAP_FILE_HEADER, isPcapMagic, pcapParser, type PcapParser } from './pcap.js';
import { PCAPNG_MIN_HEADER, SHB, pcapngParser } from './pcapng.js';
import { PacketRecord } from './record.js';
import { type ByteSource, CHUNK, openSource, STDIN_NAME } from './source.js';

export { CaptureError } from './capture-error.js';

export interface ReadOptions {
  /** called after each chunk read: bytes of the file consumed so far (compressed bytes for gzip) and the file's size */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** aborting stops the read at the next chunk; readCapture then rejects with the signal's reason */
  signal?: AbortSignal;
  /**
   * aborting ends the read at the next chunk, or while it waits for data (standard input), as if the
   * data ended there: what was delivered is reported (`interrupted`), the part of a record not yet
   * read is not a warning (Ctrl-C on a replay)
   */
  interrupt?: AbortSignal;
  /** the capture already opened with openSource (it is closed at the end); else `path` is opened */
  source?: ByteSource;
  /** fills the record from each frame instead of the full decoder (the firewall's fast path, fastpath/) */
  decodeFrame?: FrameDecoder;
  /**
   * Only the records of a classic pcap file that start in [from, to) (file offsets; `from` must be
   * where a record starts): a range of the file read on its own thread (sim/jobs/). Frames are
   * numbered from 1 within the range.
   */
  range?: { from: number; to: number };
  /**
   * With `range`: the range goes on from where a read of the ranges before it stopped: frames are
   * numbered from `frames` + 1, and the first packet's time is compared with `last` (sec, nsec) for
   * the time-order count (default: frames from 1, nothing before).
   */
  after?: { frames: number; last: readonly [number, number] };
  /** read a plain file with blocking reads on this thread (source.ts SourceOptions); the event loop runs every 16 MB */
  blocking?: boolean;
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
  /** packets stamped earlier than the packet before them, and the first such frame (0: none) */
  timeOrder: TimeOrder;
  /** the file offset after the last record read (with a range: where the next range's first record starts) */
  end: number;
  /** the read was ended early by the `interrupt` signal */
  interrupted: boolean;
}

/**
 * Decodes one frame (link type + bytes) into rec; used by readCapture and by tests/synth. The frame
 * is data[0, capLen) and is taken as complete (origLen = capLen); frame and timestamps are the caller's.
 */
export function decodeFrame(rec: PacketRecord, linkType: number, data: Uint8Array, capLen: number): void {
  decodeFrameAt(rec, linkType, data, 0, capLen, capLen);
}

/** Room before each chunk for the cut-off record carried over from the previous chunk. */
const RESERVE = 64 << 10;

/**
 * The read buffer, double-buffered: while the parser consumes one buffer, the next chunk is already
 * being read straight into the other (at RESERVE, so no chunk is ever copied); switching buffers
 * copies only the cut-off record at the end of the old one in front of the new chunk. 1 MB chunks
 * stay in the L2 cache while they are parsed (4-8 MB ones measured slower).
 *
 * buf[start, end) holds bytes not yet consumed; buf[0] is byte `base` of the data.
 */
export class Window {
  private readonly bufs: Uint8Array[];
  private cur = 0;
  buf: Uint8Array;
  view: DataView;
  start = RESERVE;
  end = RESERVE;
  base = -RESERVE;
  eof = false;
  /** the read of the next chunk into the other buffer, at RESERVE */
  private ahead: Promise<number> | null = null;

  /** `chunk`: bytes read at a time (a merge of many files reads smaller chunks, merge.ts) */
  constructor(
    readonly source: ByteSource,
    private readonly chunk = CHUNK,
  ) {
    this.bufs = [new Uint8Array(RESERVE + chunk), new Uint8Array(RESERVE + chunk)];
    this.buf = this.bufs[0]!;
    this.view = new DataView(this.buf.buffer);
  }

  /** Moves to the other buffer: the unconsumed bytes, then the next chunk; then starts reading the one after. */
  async refill(needed: number): Promise<void> {
    let next = this.bufs[1 - this.cur];
    const n = await (this.ahead ?? this.source.read(next, RESERVE, this.chunk));
    this.ahead = null;
    const left = this.end - this.start;
    if (left > RESERVE) {
      // a record bigger than the reserve: a buffer of its own, as big as the record needs
      const bigger = new Uint8Array(Math.max(needed, left + n) + RESERVE + this.chunk);
      bigger.set(next.subarray(RESERVE, RESERVE + n), left + RESERVE);
      next = bigger;
      this.bufs[1 - this.cur] = bigger;
      bigger.set(this.buf.subarray(this.start, this.end), RESERVE);
      this.base += this.end - (left + RESERVE);
      this.start = RESERVE;
      this.end = RESERVE + left + n;
    } else {
      next.set(this.buf.subarray(this.start, this.end), RESERVE - left);
      this.base += this.end - RESERVE;
      this.start = RESERVE - left;
      this.end = RESERVE + n;
    }
    this.cur = 1 - this.cur;
    this.buf = next;
    this.view = new DataView(next.buffer);
    if (n === 0) this.eof = true;
    else this.readAhead();
  }

  private readAhead(): void {
    this.ahead = this.source.read(this.bufs[1 - this.cur]!, RESERVE, this.chunk);
    this.ahead.catch(() => undefined); // reported when awaited
  }

  /** Reads until at least n bytes are buffered or the data ends. */
  async fill(n: number): Promise<void> {
    while (this.end - this.start < n && !this.eof) await this.refill(n);
  }

  /** Empties the window and goes on reading at file offset `offset` (a plain file only). */
  async seek(offset: number): Promise<void> {
    await this.settle();
    if (this.source.seek === undefined) throw new Error('seek on a stream');
    this.source.seek(offset);
    this.start = this.end = RESERVE;
    this.base = offset - RESERVE;
    this.eof = false;
  }

  /** Waits for a read still in flight (before the source is closed). */
  async settle(): Promise<void> {
    if (this.ahead !== null) await this.ahead.catch(() => 0);
    this.ahead = null;
  }
}

function hex(buf: Uint8Array, n: number): string {
  return Array.from(buf.subarray(0, n), (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Reads the file header and returns the parser of the records after it (the window is left at the first record). */
export async function openFormat(path: string, w: Window, sink: FrameSink): Promise<FormatParser> {
  await w.fill(PCAP_FILE_HEADER);
  const have = w.end - w.start;
  if (have < PCAP_FILE_HEADER && w.source.problem !== '') throw new CaptureError(`${path}: ${w.source.problem}`);
  if (have === 0) throw new CaptureError(`${path}: empty file`);
  const head = new DataView(w.buf.buffer, w.start);
  if (have >= 4 && head.getUint32(0, true) === SHB) {
    if (have < PCAPNG_MIN_HEADER) throw new CaptureError(`${path}: truncated pcapng section header`);
    return pcapngParser(path, head, sink);
  }
  if (have >= 4 && isPcapMagic(head)) {
    if (have < PCAP_FILE_HEADER) throw new CaptureError(`${path}: truncated pcap file header`);
    const parser = pcapParser(path, head, sink);
    w.start += PCAP_FILE_HEADER;
    return parser;
  }
  if (looksLikeJson(w.buf.subarray(w.start, w.end))) throw new CaptureError(`${path}: not a pcap or pcapng file but JSON: did you swap the capture and --config?`);
  throw new CaptureError(`${path}: not a pcap or pcapng file (it starts with ${hex(w.buf.subarray(w.start), Math.min(have, 4))})`);
}

/** Text that opens as a JSON object or array (a snapshot given where the capture goes). */
function looksLikeJson(head: Uint8Array): boolean {
  const text = new TextDecoder().decode(head.subarray(0, 64)).trimStart();
  return /^\{\s*("|\}|$)|^\[/.test(text);
}

/** Streams the capture (pcap, pcapng, either gzip-compressed), decodes each packet into ONE reused PacketRecord and calls onPacket synchronously. */
export async function readCapture(path: string, onPacket: (rec: PacketRecord) => void, opts: ReadOptions = {}): Promise<CaptureInfo> {
  const { signal, interrupt, onProgress } = opts;
  signal?.throwIfAborted();
  const source = opts.source ?? (await openSource(path, undefined, { blocking: opts.blocking }));
  const name = path === '-' ? STDIN_NAME : path;
  const w = new Window(source);
  let interrupted = false;
  try {
    const sink = new FrameDelivery(new PacketRecord(), onPacket, opts.decodeFrame);
    if (opts.after !== undefined) sink.continueAfter(opts.after.frames, opts.after.last[0], opts.after.last[1]);
    const parser = await openFormat(name, w, sink);
    if (opts.range !== undefined) {
      if (parser.format !== 'pcap') throw new CaptureError(`${name}: only a classic pcap file is read in ranges`);
      (parser as PcapParser).limit = opts.range.to;
      if (opts.range.from !== w.base + w.start) await w.seek(opts.range.from);
    }
    onProgress?.(source.position, source.size);
    for (let chunks = 1; ; chunks++) {
      w.start = parser.parse(w.buf, w.view, w.start, w.end, w.base);
      if (parser.stopped) break;
      if (w.eof) {
        parser.finish(w.end - w.start, w.base + w.start);
        break;
      }
      // blocking reads never wait on the event loop: let it run now and then (an abort, timers)
      if (opts.blocking === true && chunks % 16 === 0) await new Promise(setImmediate);
      signal?.throwIfAborted();
      if (interrupt === undefined) await w.refill(parser.needed);
      else if (interrupt.aborted || !(await untilInterrupted(w.refill(parser.needed), interrupt))) {
        interrupted = true;
        break;
      }
      onProgress?.(source.position, source.size);
    }
    if (source.problem !== '') sink.warn(source.problem);
    return {
      format: parser.format,
      compressed: source.compressed,
      packets: sink.delivered,
      linkTypes: parser.linkTypes,
      warnings: sink.allWarnings(),
      timeOrder: sink.timeOrder(),
      end: w.base + w.start,
      interrupted,
    };
  } finally {
    // a read still waiting for standard input ends only once the input is closed
    if (interrupted) await source.close();
    await w.settle();
    if (!interrupted) await source.close();
  }
}

/** Waits for `read`: true once it is done, false as soon as `interrupt` is aborted (the read is left to end when its source is closed). */
export function untilInterrupted(read: Promise<void>, interrupt: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    const stop = (): void => resolve(false);
    interrupt.addEventListener('abort', stop, { once: true });
    read.then(() => resolve(true), reject).finally(() => interrupt.removeEventListener('abort', stop));
  });
}
