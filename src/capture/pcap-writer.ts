// Writes classic little-endian pcap (the format every tool opens: Wireshark, tcpdump, capinfos,
// pcap-parser). The replay writes the packets it passed or dropped through it, and the synthetic
// scenarios write whole captures through it, so it must keep up with millions of packets: records
// are copied into one large buffer and handed to the output a megabyte at a time.
//
// A file is written with fs.writeSync: the disk itself is the backpressure and the one buffer is
// reused. Standard output ('-') may be a pipe to a slow reader, so there each full buffer is handed
// to the stream and a fresh one started; `needsDrain` and `drain()` let a producer that can wait do so.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { OutputError } from '../errors.js';

/** Options of PcapWriter.open. */
export interface PcapWriterOptions {
  /** pcap LINKTYPE_* of every record; default 1 (Ethernet) */
  linkType?: number;
  /** nanosecond timestamps (magic 0xa1b23c4d); default microseconds (0xa1b2c3d4) */
  nanosecond?: boolean;
  /** longest record kept; longer packets are cut (their original length is kept); default 262144 */
  snaplen?: number;
}

const MAGIC_USEC = 0xa1b2c3d4;
const MAGIC_NSEC = 0xa1b23c4d;
const FILE_HEADER = 24;
const RECORD_HEADER = 16;
const CHUNK = 1 << 20;
const DEFAULT_SNAPLEN = 262144;

interface Sink {
  put(buf: Uint8Array, len: number): Uint8Array;
  readonly needsDrain: boolean;
  drain(): Promise<void>;
  close(): Promise<void>;
}

class FileSink implements Sink {
  readonly needsDrain = false;
  constructor(private readonly fd: number, private readonly path: string) {}

  put(buf: Uint8Array, len: number): Uint8Array {
    let off = 0;
    try {
      while (off < len) off += writeSync(this.fd, buf, off, len - off);
    } catch (err) {
      throw new OutputError(this.path, err);
    }
    return buf;
  }

  drain(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    closeSync(this.fd);
    return Promise.resolve();
  }
}

class StreamSink implements Sink {
  private failure: Error | null = null;
  /** settles once the stream has taken the last buffer handed to it */
  private written: Promise<void> = Promise.resolve();

  constructor(private readonly out: Writable) {
    out.on('error', (err) => {
      this.failure = streamFailure(err);
    });
  }

  get needsDrain(): boolean {
    return this.out.writableNeedDrain;
  }

  put(buf: Uint8Array, len: number): Uint8Array {
    if (this.failure) throw this.failure;
    this.written = new Promise((resolve, reject) => {
      this.out.write(buf.subarray(0, len), (err) => (err ? reject(streamFailure(err)) : resolve()));
    });
    this.written.catch(() => undefined); // reported by close
    return new Uint8Array(buf.length);
  }

  drain(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.out.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (): void => {
        this.out.off('error', fail);
        resolve();
      };
      const fail = (err: Error): void => {
        this.out.off('drain', done);
        reject(err);
      };
      this.out.once('drain', done);
      this.out.once('error', fail);
    });
  }

  async close(): Promise<void> {
    await this.drain();
    await this.written;
    if (this.failure) throw this.failure;
  }
}

/** Standard output that cannot be written is an OutputError; a closed pipe stays EPIPE, which the CLI ends quietly on. */
function streamFailure(err: Error): Error {
  return (err as NodeJS.ErrnoException).code === 'EPIPE' ? err : new OutputError('standard output', err);
}

/** A classic pcap file being written: open, write records in order, close. */
export class PcapWriter {
  private buf: Uint8Array = new Uint8Array(CHUNK);
  private view: DataView = new DataView(this.buf.buffer);
  private used = 0;
  private closed = false;
  private readonly nanosecond: boolean;
  private readonly snaplen: number;

  private constructor(private readonly sink: Sink, opts: PcapWriterOptions) {
    this.nanosecond = opts.nanosecond ?? false;
    this.snaplen = opts.snaplen ?? DEFAULT_SNAPLEN;
    const linkType = opts.linkType ?? 1;
    if (!Number.isInteger(this.snaplen) || this.snaplen < 1 || this.snaplen > 0x7fffffff) {
      throw new RangeError(`pcap snaplen must be an integer from 1 to 2147483647, got ${this.snaplen}`);
    }
    if (!Number.isInteger(linkType) || linkType < 0 || linkType > 0xffff) {
      throw new RangeError(`pcap link type must be an integer from 0 to 65535, got ${linkType}`);
    }
    const v = this.view;
    v.setUint32(0, this.nanosecond ? MAGIC_NSEC : MAGIC_USEC, true);
    v.setUint16(4, 2, true);
    v.setUint16(6, 4, true);
    v.setInt32(8, 0, true);
    v.setUint32(12, 0, true);
    v.setUint32(16, this.snaplen, true);
    v.setUint32(20, linkType, true);
    this.used = FILE_HEADER;
  }

  /**
   * Creates (or truncates) `path` and writes the pcap file header; '-' writes to standard output.
   * Throws an OutputError naming the path when the file cannot be created.
   */
  static open(path: string, opts: PcapWriterOptions = {}): PcapWriter {
    if (path === '-') return new PcapWriter(new StreamSink(process.stdout), opts);
    let fd: number;
    try {
      fd = openSync(path, 'w');
    } catch (err) {
      throw new OutputError(path, err);
    }
    try {
      return new PcapWriter(new FileSink(fd, path), opts);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /**
   * Appends one record; data is copied into an internal buffer (batched writes, backpressure-aware).
   * `tsNsec` is the fraction of the second in nanoseconds (cut to microseconds in a µs file);
   * `origLen` is the packet's length on the wire, default data.length. Data longer than the
   * snaplen is cut to it.
   */
  write(data: Uint8Array, tsSec: number, tsNsec: number, origLen = data.length): void {
    if (this.closed) throw new Error('pcap writer is closed');
    if (!(tsSec >= 0 && tsSec <= 0xffffffff) || !(tsNsec >= 0 && tsNsec < 1e9)) {
      throw new RangeError(`pcap timestamp out of range: ${tsSec} s ${tsNsec} ns`);
    }
    const capLen = data.length < this.snaplen ? data.length : this.snaplen;
    const need = RECORD_HEADER + capLen;
    if (this.used + need > this.buf.length) this.makeRoom(need);
    const v = this.view;
    const at = this.used;
    v.setUint32(at, tsSec, true);
    v.setUint32(at + 4, this.nanosecond ? tsNsec : Math.floor(tsNsec / 1000), true);
    v.setUint32(at + 8, capLen, true);
    v.setUint32(at + 12, origLen > capLen ? origLen : capLen, true);
    this.buf.set(capLen === data.length ? data : data.subarray(0, capLen), at + RECORD_HEADER);
    this.used = at + need;
  }

  /** True while standard output holds more than its high-water mark; await drain() before writing on. */
  get needsDrain(): boolean {
    return this.sink.needsDrain;
  }

  /** Resolves once the output has taken what it was given (at once for files). */
  drain(): Promise<void> {
    return this.sink.drain();
  }

  /** Writes what is buffered and closes the file (standard output stays open). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    await this.sink.close();
  }

  private flush(): void {
    if (this.used === 0) return;
    const next = this.sink.put(this.buf, this.used);
    if (next !== this.buf) {
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.used = 0;
  }

  private makeRoom(need: number): void {
    this.flush();
    if (need > this.buf.length) {
      this.buf = new Uint8Array(need);
      this.view = new DataView(this.buf.buffer);
    }
  }
}
