// The one loop every command that reads a capture runs (replay, match, inspect, and the test, trace,
// diff and bench commands): open the capture first, so that a missing or unreadable capture fails
// before any output file is created or truncated; then stream its frames, each in one reused Frame,
// to the caller's visit function (which decides it: decide-frame.ts); report file-level warnings at
// the end. `-` reads standard input, as `tcpdump -r -` does.
import type { Frame } from '../capture/frame.js';
import { readFrames, type CaptureInfo } from '../capture/reader.js';
import { openSource, STDIN_NAME, type ByteSource } from '../capture/source.js';
import type { Readable } from 'node:stream';

export interface LoopOptions {
  /** bytes read so far and the file's size (0 for standard input) */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  signal?: AbortSignal;
  /** aborting ends the read early, as if the capture ended there (CaptureInfo.interrupted; capture/reader.ts) */
  interrupt?: AbortSignal;
  /** only the records of a classic pcap file that start in [from, to) (capture/reader.ts) */
  range?: { from: number; to: number };
}

/** A capture that has been opened and not yet read. */
export class OpenCapture {
  private constructor(
    readonly path: string,
    private readonly source: ByteSource,
  ) {}

  /** Opens `path` ('-': standard input); throws CaptureError when it cannot be opened. */
  static async open(path: string): Promise<OpenCapture> {
    return new OpenCapture(path, await openSource(path));
  }

  /** Opens capture bytes that come as a stream of chunks (a library caller's), named `name` in messages. */
  static async fromStream(name: string, chunks: Readable): Promise<OpenCapture> {
    return new OpenCapture(name, await openSource('-', chunks));
  }

  /**
   * This capture read no further ahead than its consumer: each read of its bytes first waits for
   * `ready` (a caller that takes the packets at its own pace, e.g. an async iterator).
   */
  pacedBy(ready: () => Promise<void> | undefined): OpenCapture {
    const source = this.source;
    return new OpenCapture(this.path, {
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
    });
  }

  /** the file's size in bytes (compressed bytes for a gzip file; 0 for standard input) */
  get size(): number {
    return this.source.size;
  }

  get compressed(): boolean {
    return this.source.compressed;
  }

  /** How messages name the capture. */
  get name(): string {
    return this.path === '-' ? STDIN_NAME : this.path;
  }

  /** Streams every frame to `visit` synchronously, then closes the capture. */
  forEachFrame(visit: (frame: Frame) => void, opts: LoopOptions = {}): Promise<CaptureInfo> {
    return readFrames(this.path, visit, { ...opts, source: this.source });
  }

  /** Closes a capture that will not be read after all. */
  close(): Promise<void> {
    return this.source.close();
  }
}
