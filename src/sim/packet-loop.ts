// The one loop every command that reads a capture runs (replay, match, inspect, and the test, trace,
// diff and bench commands): open the capture first, so that a missing or unreadable capture fails
// before any output file is created or truncated; then stream its packets, each decoded into one
// reused PacketRecord, to the caller's visit function; report file-level warnings at the end.
// `-` reads standard input, as `tcpdump -r -` does. Several captures (the vendor's, one file per
// server, or one capture cut in parts) are read as one, merged by time as mergecap merges them.
import type { FrameDecoder } from '../capture/frame-delivery.js';
import { readMerged, type MergeInput, type ReadInfo } from '../capture/merge.js';
import { readCapture } from '../capture/reader.js';
import type { PacketRecord } from '../capture/record.js';
import { openSource, STDIN_NAME, type ByteSource } from '../capture/source.js';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export interface LoopOptions {
  /** bytes read so far and the file's size (0 for standard input) */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  signal?: AbortSignal;
  /** aborting ends the read early, as if the capture ended there (CaptureInfo.interrupted; capture/reader.ts) */
  interrupt?: AbortSignal;
  /** fills the record from each frame instead of the full decoder (the firewall's fast path, fastpath/) */
  decodeFrame?: FrameDecoder;
  /** only the records of a classic pcap file that start in [from, to) (capture/reader.ts) */
  range?: { from: number; to: number };
}

/** A capture that has been opened and not yet read: one file, or several read merged by time (capture/merge.ts). */
export class OpenCapture {
  private constructor(
    private readonly files: readonly MergeInput[],
  ) {}

  /**
   * Opens `paths` ('-': standard input), one capture or several to merge by time; throws
   * CaptureError when one cannot be opened (those already open are closed).
   */
  static async open(paths: string | readonly string[]): Promise<OpenCapture> {
    const list = typeof paths === 'string' ? [paths] : paths;
    if (list.length === 0) throw new UsageError('no capture given');
    if (list.filter((p) => p === '-').length > 1) throw new UsageError(`- (${STDIN_NAME}) is given more than once: it can be read once`);
    const files: MergeInput[] = [];
    try {
      for (const path of list) files.push({ path, source: await openSource(path) });
    } catch (err) {
      await Promise.allSettled(files.map((f) => f.source.close()));
      throw err;
    }
    return new OpenCapture(files);
  }

  /** Opens capture bytes that come as a stream of chunks (a library caller's), named `name` in messages. */
  static async fromStream(name: string, chunks: Readable): Promise<OpenCapture> {
    return new OpenCapture([{ path: name, source: await openSource('-', chunks) }]);
  }

  /**
   * This capture read no further ahead than its consumer: each read of its bytes first waits for
   * `ready` (a caller that takes the packets at its own pace, e.g. an async iterator).
   */
  pacedBy(ready: () => Promise<void> | undefined): OpenCapture {
    return new OpenCapture(this.files.map(({ path, source }) => ({ path, source: pacedSource(source, ready) })));
  }

  /** the (first) capture's path ('-': standard input) */
  get path(): string {
    return this.files[0]!.path;
  }

  /** whether several captures are read merged by time */
  get merged(): boolean {
    return this.files.length > 1;
  }

  /** the size in bytes (compressed bytes for a gzip file; 0 for standard input), of every capture together */
  get size(): number {
    return this.files.reduce((n, f) => n + f.source.size, 0);
  }

  get compressed(): boolean {
    return this.files.some((f) => f.source.compressed);
  }

  /** How messages name the capture: its name, or the merged captures' names joined by " + ". */
  get name(): string {
    return this.files.map((f) => nameOf(f.path)).join(' + ');
  }

  /** What the read's warnings are said of: the capture; nothing for merged captures, whose warnings each name their file. */
  get warningSource(): string | undefined {
    return this.merged ? undefined : this.name;
  }

  /** The captures' names, by PacketRecord.file, when several are merged (per-packet records name their file); null for one. */
  get fileNames(): readonly string[] | null {
    return this.merged ? this.files.map((f) => nameOf(f.path)) : null;
  }

  /** Streams every packet to `visit` synchronously (several captures merged by time), then closes the capture. */
  forEachPacket(visit: (rec: PacketRecord) => void, opts: LoopOptions = {}): Promise<ReadInfo> {
    if (this.merged) return readMerged(this.files, visit, opts);
    return readCapture(this.path, visit, { ...opts, source: this.files[0]!.source });
  }

  /** Closes a capture that will not be read after all. */
  async close(): Promise<void> {
    await Promise.all(this.files.map((f) => f.source.close()));
  }
}

function nameOf(path: string): string {
  return path === '-' ? STDIN_NAME : path;
}

/** `source`, each read of it waiting for `ready` first. */
function pacedSource(source: ByteSource, ready: () => Promise<void> | undefined): ByteSource {
  return {
    get compressed() {
      return source.compressed;
    },
    get size() {
      return source.size;
    },
    get position() {
      return source.position;
    },
    get problem() {
      return source.problem;
    },
    read: async (buf, off, len) => {
      await ready();
      return source.read(buf, off, len);
    },
    close: () => source.close(),
  };
}
