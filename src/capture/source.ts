// Where capture bytes come from: the file itself, or a gzip stream over it (detected by its magic,
// so "x.pcap.gz" and a gzipped file without the suffix both work). The reader pulls bytes into its
// own buffer with read(); a plain file is read straight into that buffer, a gzip stream is inflated
// a megabyte at a time and copied in. At most one read is in flight at a time. Either way memory
// stays flat however big the file.
//
// Corrupt or cut-off compressed data does not lose what was already inflated: the source reports
// the end of the data and keeps the problem in `problem`, which the reader turns into a warning.
import { open, type FileHandle } from 'node:fs/promises';
import { createReadStream, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { systemErrorText } from '../errors.js';
import { CaptureError } from './capture-error.js';

export const CHUNK = 1 << 20;

export interface ByteSource {
  readonly compressed: boolean;
  /** size of the file on disk */
  readonly size: number;
  /** bytes of the file consumed so far (compressed bytes for a gzip file) */
  readonly position: number;
  /** why the data ended early (corrupt compressed data), or '' */
  readonly problem: string;
  /** Reads up to len bytes into buf at off; resolves to 0 at the end of the data. */
  read(buf: Uint8Array, off: number, len: number): Promise<number>;
  /** Goes on reading at file offset `offset` (a plain file only; none in flight). */
  seek?(offset: number): void;
  close(): Promise<void>;
}

/** Compressions recognised by magic only to say clearly that they are not read. */
const UNSUPPORTED_COMPRESSION: ReadonlyArray<readonly [number[], string]> = [
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
  [[0x42, 0x5a, 0x68], 'bzip2'],
  [[0x04, 0x22, 0x4d, 0x18], 'lz4'],
];

/**
 * A plain file, read straight into the caller's buffer (the reader keeps one read ahead of parsing,
 * on libuv's thread), or with blocking reads on the caller's thread (`blocking`).
 */
class FileSource implements ByteSource {
  readonly compressed = false;
  position = 0;
  readonly problem = '';

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly path: string,
    private readonly blocking: boolean,
  ) {}

  async read(buf: Uint8Array, off: number, len: number): Promise<number> {
    let n: number;
    try {
      if (this.blocking) n = readSync(this.fh.fd, buf, off, len, this.position);
      else ({ bytesRead: n } = await this.fh.read(buf, off, len, this.position));
    } catch (err) {
      throw new CaptureError(`${this.path}: read failed: ${systemErrorText(err)}`);
    }
    this.position += n;
    return n;
  }

  seek(offset: number): void {
    this.position = offset;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}

/** A stream of chunks (a gzip stream inflating a file, or standard input) read into the caller's buffer. */
class StreamSource implements ByteSource {
  problem = '';
  private pending: Buffer | undefined;
  private pendingOff = 0;
  private ended = false;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    readonly compressed: boolean,
    readonly size: number,
    private readonly consumed: () => number,
    private readonly stop: () => void,
  ) {}

  get position(): number {
    return this.consumed();
  }

  async read(buf: Uint8Array, off: number, len: number): Promise<number> {
    while (this.pending === undefined || this.pendingOff >= this.pending.length) {
      if (this.ended) return 0;
      try {
        const next = await this.chunks.next();
        if (next.done === true) {
          this.ended = true;
          return 0;
        }
        this.pending = next.value;
        this.pendingOff = 0;
      } catch (err) {
        this.ended = true;
        this.problem = `${this.compressed ? 'compressed data is corrupt or cut off' : 'the input ended with an error'} (${systemErrorText(err)})`;
        return 0;
      }
    }
    const n = Math.min(len, this.pending.length - this.pendingOff);
    buf.set(this.pending.subarray(this.pendingOff, this.pendingOff + n), off);
    this.pendingOff += n;
    return n;
  }

  async close(): Promise<void> {
    this.stop();
  }
}

// zlib is loaded only for a compressed capture (start-up time)
async function gzipFile(path: string, size: number): Promise<ByteSource> {
  const { createGunzip } = await import('node:zlib');
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const gunzip = createGunzip({ chunkSize: CHUNK });
  file.on('error', (err) => gunzip.destroy(err));
  file.pipe(gunzip);
  return new StreamSource(gunzip[Symbol.asyncIterator](), true, size, () => file.bytesRead, () => {
    file.destroy();
    gunzip.destroy();
  });
}

/** Standard input (`-`), inflated when it starts like gzip; its size is unknown (0). */
async function openStdin(input: Readable): Promise<ByteSource> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  let consumed = first.done === true ? 0 : first.value.length;
  async function* all(): AsyncGenerator<Buffer> {
    if (first.done === true) return;
    yield first.value;
    for (;;) {
      const next = await chunks.next();
      if (next.done === true) return;
      consumed += next.value.length;
      yield next.value;
    }
  }
  const head = first.done === true ? new Uint8Array(0) : first.value;
  if (!startsWith(head, head.length, [0x1f, 0x8b])) return new StreamSource(all(), false, 0, () => consumed, () => input.destroy());
  const { createGunzip } = await import('node:zlib');
  const gunzip = createGunzip({ chunkSize: CHUNK });
  Readable.from(all()).on('error', (err) => gunzip.destroy(err)).pipe(gunzip);
  return new StreamSource(gunzip[Symbol.asyncIterator](), true, 0, () => consumed, () => {
    gunzip.destroy();
    input.destroy();
  });
}

function startsWith(head: Uint8Array, n: number, magic: readonly number[]): boolean {
  if (n < magic.length) return false;
  return magic.every((b, i) => head[i] === b);
}

/** The name standard input goes by in messages. */
export const STDIN_NAME = 'standard input';

/** How a plain file is read. */
export interface SourceOptions {
  /**
   * Blocking reads on the calling thread instead of reads ahead on libuv's: cheaper where every core
   * already runs a thread of the same replay (sim/jobs/: two threads on two cores 15% faster), slower
   * where the read ahead overlaps a lone thread's work.
   */
  blocking?: boolean;
}

/** Opens a capture file as a byte source, inflating it if it is gzip-compressed; `-` is standard input. */
export async function openSource(path: string, stdin: Readable = process.stdin, opts: SourceOptions = {}): Promise<ByteSource> {
  if (path === '-') return openStdin(stdin);
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new CaptureError(`${path}: cannot open: ${systemErrorText(err)}`);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new CaptureError(`${path}: cannot open: ${systemErrorText({ code: 'EISDIR' })}`);
    const head = new Uint8Array(8);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    for (const [magic, name] of UNSUPPORTED_COMPRESSION) {
      if (startsWith(head, bytesRead, magic)) throw new CaptureError(`${path}: ${name}-compressed captures are not supported; decompress it first (gzip is)`);
    }
    if (startsWith(head, bytesRead, [0x1f, 0x8b])) {
      await fh.close();
      return await gzipFile(path, st.size);
    }
    return new FileSource(fh, st.size, path, opts.blocking === true);
  } catch (err) {
    await fh.close();
    if (err instanceof CaptureError) throw err;
    throw new CaptureError(`${path}: cannot read: ${systemErrorText(err)}`);
  }
}
