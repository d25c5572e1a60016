// Where capture bytes come from: the file itself, or a gzip stream over it (detected by its magic,
// so "x.pcap.gz" and a gzipped file without the suffix both work). The reader pulls bytes into its
// own buffer with read(); a plain file is read straight into that buffer, a gzip stream is inflated
// a megabyte at a time and copied in. At most one read is in flight at a time. Either way memory
// stays flat however big the file.
//
// Corrupt or cut-off compressed data does not lose what was already inflated: the source reports
// the end of the data and keeps the problem in `problem`, which the reader turns into a warning.
import { open, type FileHandle } from 'node:fs/promises';
import { createReadStream, type ReadStream } from 'node:fs';
import { createGunzip, type Gunzip } from 'node:zlib';
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
  close(): Promise<void>;
}

const OPEN_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return (e.code !== undefined ? OPEN_ERRORS[e.code] : undefined) ?? e.message ?? String(err);
}

/** Compressions recognised by magic only to say clearly that they are not read. */
const UNSUPPORTED_COMPRESSION: ReadonlyArray<readonly [number[], string]> = [
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
  [[0x42, 0x5a, 0x68], 'bzip2'],
  [[0x04, 0x22, 0x4d, 0x18], 'lz4'],
];

/** A plain file, read straight into the caller's buffer (the reader keeps one read ahead of parsing). */
class FileSource implements ByteSource {
  readonly compressed = false;
  position = 0;
  readonly problem = '';

  constructor(private readonly fh: FileHandle, readonly size: number, private readonly path: string) {}

  async read(buf: Uint8Array, off: number, len: number): Promise<number> {
    let n: number;
    try {
      ({ bytesRead: n } = await this.fh.read(buf, off, len, this.position));
    } catch (err) {
      throw new CaptureError(`${this.path}: read failed: ${describe(err)}`);
    }
    this.position += n;
    return n;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}

class GzipSource implements ByteSource {
  readonly compressed = true;
  problem = '';
  private readonly file: ReadStream;
  private readonly gunzip: Gunzip;
  private readonly chunks: AsyncIterator<Buffer>;
  private pending: Buffer | undefined;
  private pendingOff = 0;
  private ended = false;

  constructor(path: string, readonly size: number) {
    this.file = createReadStream(path, { highWaterMark: CHUNK });
    this.gunzip = createGunzip({ chunkSize: CHUNK });
    this.file.on('error', (err) => this.gunzip.destroy(err));
    this.file.pipe(this.gunzip);
    this.chunks = this.gunzip[Symbol.asyncIterator]();
  }

  get position(): number {
    return this.file.bytesRead;
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
        this.problem = `compressed data is corrupt or cut off (${describe(err)})`;
        return 0;
      }
    }
    const n = Math.min(len, this.pending.length - this.pendingOff);
    buf.set(this.pending.subarray(this.pendingOff, this.pendingOff + n), off);
    this.pendingOff += n;
    return n;
  }

  async close(): Promise<void> {
    this.file.destroy();
    this.gunzip.destroy();
  }
}

function startsWith(head: Uint8Array, n: number, magic: readonly number[]): boolean {
  if (n < magic.length) return false;
  return magic.every((b, i) => head[i] === b);
}

/** Opens a capture file as a byte source, inflating it if it is gzip-compressed. */
export async function openSource(path: string): Promise<ByteSource> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new CaptureError(`${path}: cannot open: ${describe(err)}`);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new CaptureError(`${path}: cannot open: is a directory`);
    const head = new Uint8Array(8);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    for (const [magic, name] of UNSUPPORTED_COMPRESSION) {
      if (startsWith(head, bytesRead, magic)) throw new CaptureError(`${path}: ${name}-compressed captures are not supported; decompress it first (gzip is)`);
    }
    if (startsWith(head, bytesRead, [0x1f, 0x8b])) {
      await fh.close();
      return new GzipSource(path, st.size);
    }
    return new FileSource(fh, st.size, path);
  } catch (err) {
    await fh.close();
    if (err instanceof CaptureError) throw err;
    throw new CaptureError(`${path}: cannot read: ${describe(err)}`);
  }
}
