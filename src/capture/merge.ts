// Several captures read as one, merged by timestamp as Wireshark's `mergecap` merges them: the next
// frame is always the earliest of the files' next frames, the first file in the list winning a tie
// (so a frame never overtakes an earlier frame of its own file, and a file that is out of time order
// in itself stays so, as in mergecap's output). Each frame keeps its file (Frame.file, PacketRecord.file, its
// place in the list: Frame.file) and its frame number in that file, so every per-packet record names where the
// packet is; the caller sees one stream, which protection takes in time order.
//
// A k-way merge of readers: each file is read as readCapture reads one (reader.ts Window: chunks read
// ahead, a format parser per file), but its parser queues a chunk's records (FrameQueue, offsets into
// the chunk's buffer, nothing copied) instead of delivering them; a small heap of the files ordered by
// their next frame's time picks the next frame, which the one reused Frame is pointed at by that
// file's FrameDelivery (frame numbers, time order and warnings per file, as one file's read has them).
// A file's buffer is read again only once its queue is empty, so memory is two chunks per file
// (MERGE_CHUNK each), bounded by the number of files, never by their size.
import { FrameDelivery, type FormatParser, type FrameSink } from './frame-delivery.js';
import { openFormat, untilInterrupted, Window, type CaptureInfo, type ReadOptions } from './reader.js';
import { Frame } from './frame.js';
import { STDIN_NAME, type ByteSource } from './source.js';
import { BinaryHeap } from './binary-heap.js';

/** Bytes read at a time from each file of a merge (a lone file reads CHUNK): 64 files hold 32 MB of buffers. */
export const MERGE_CHUNK = 256 << 10;

/** A capture of a merge, opened: its path ('-': standard input) and its bytes. */
export interface MergeInput {
  path: string;
  source: ByteSource;
}

/** One file's part of a merged read, as readCapture reports a file's read (its warnings and time order its own). */
export type FileInfo = Pick<CaptureInfo, 'format' | 'compressed' | 'packets' | 'linkTypes' | 'warnings' | 'timeOrder'> & {
  /** the file as messages name it */
  name: string;
};

/** What a read of one capture or of several merged says (format: with several, the files' formats joined by '+' when they differ). */
export interface ReadInfo extends Omit<CaptureInfo, 'format'> {
  format: string;
  /** each file's part, when several captures were merged */
  files?: FileInfo[];
}

/** The read of several captures: each file's part, and the whole. */
export interface MergedInfo extends ReadInfo {
  files: FileInfo[];
}

/** A chunk's records of one file, waiting for their turn: where each is in the chunk's buffer, and its time. */
class FrameQueue implements FrameSink {
  /** the file's frames numbered so far (ahead of those delivered by the records queued) */
  frames = 0;
  /** queued records: [head, count) are still to be taken */
  head = 0;
  count = 0;
  /** the buffer every queued record is in (one chunk's window: the queue is emptied before the window reads on) */
  buf: Uint8Array = new Uint8Array(0);
  linkType = new Int32Array(256);
  off = new Float64Array(256);
  /** captured length; -1 for a record numbered as a frame that holds no packet (pcapng) */
  capLen = new Float64Array(256);
  origLen = new Float64Array(256);
  sec = new Float64Array(256);
  nsec = new Float64Array(256);

  constructor(private readonly delivery: FrameDelivery) {}

  emit(linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number, tsSec: number, tsNsec: number): void {
    const i = this.slot();
    this.buf = data;
    this.linkType[i] = linkType;
    this.off[i] = off;
    this.capLen[i] = capLen;
    this.origLen[i] = origLen;
    this.sec[i] = tsSec;
    this.nsec[i] = tsNsec;
  }

  skipFrame(): void {
    this.capLen[this.slot()] = -1;
  }

  warn(message: string): void {
    this.delivery.warn(message);
  }

  /** Takes the queued records that hold no packet at the head (they only take a frame number). */
  skipEmpty(): void {
    while (this.head < this.count && this.capLen[this.head]! < 0) {
      this.delivery.skipFrame();
      this.head++;
    }
  }

  /** Delivers the record at the head (it holds a packet) through the file's FrameDelivery. */
  deliverHead(): void {
    const i = this.head++;
    this.delivery.emit(this.linkType[i]!, this.buf, this.off[i]!, this.capLen[i]!, this.origLen[i]!, this.sec[i]!, this.nsec[i]!);
  }

  private slot(): number {
    if (this.count === this.off.length) this.grow();
    this.frames++;
    return this.count++;
  }

  private grow(): void {
    const n = this.off.length * 2;
    const more = <T extends Int32Array | Float64Array>(a: T, make: new (n: number) => T): T => {
      const b = new make(n);
      b.set(a);
      return b;
    };
    this.linkType = more(this.linkType, Int32Array);
    this.off = more(this.off, Float64Array);
    this.capLen = more(this.capLen, Float64Array);
    this.origLen = more(this.origLen, Float64Array);
    this.sec = more(this.sec, Float64Array);
    this.nsec = more(this.nsec, Float64Array);
  }
}

/** One file of the merge: its read window, parser, queue and delivery. */
class MergedFile {
  parser!: FormatParser;
  done = false;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly w: Window,
    readonly delivery: FrameDelivery,
    readonly queue: FrameQueue,
  ) {}

  /** the time of the next frame: seconds, nanoseconds */
  get sec(): number {
    return this.queue.sec[this.queue.head]!;
  }

  get nsec(): number {
    return this.queue.nsec[this.queue.head]!;
  }

  /** whether a frame is queued at the head */
  get ready(): boolean {
    return this.queue.head < this.queue.count;
  }
}

/** a's next frame comes before b's: earlier, or as early and from a file earlier in the list (mergecap's order) */
function before(a: MergedFile, b: MergedFile): boolean {
  const as = a.sec;
  const bs = b.sec;
  if (as !== bs) return as < bs;
  const an = a.nsec;
  const bn = b.nsec;
  return an !== bn ? an < bn : a.index < b.index;
}

/**
 * Reads several opened captures merged by time (see the top of this file), pointing ONE reused Frame
 * at each record (`file` and `number` say where it is) and calling onFrame synchronously.
 * Every source is closed at the end. A capture that cannot be read at all rejects with its CaptureError
 * before any packet is delivered. Options as readCapture's, without ranges.
 */
export async function readMerged(inputs: readonly MergeInput[], onFrame: (frame: Frame) => void, opts: ReadOptions = {}): Promise<MergedInfo> {
  const { signal, interrupt, onProgress } = opts;
  const frame = new Frame();
  const files: MergedFile[] = [];
  let interrupted = false;
  const position = (): number => inputs.reduce((n, i) => n + i.source.position, 0);
  const size = inputs.reduce((n, i) => n + i.source.size, 0);
  try {
    signal?.throwIfAborted();
    for (const [index, input] of inputs.entries()) {
      const delivery = new FrameDelivery(frame, onFrame);
      const f = new MergedFile(index, input.path === '-' ? STDIN_NAME : input.path, new Window(input.source, MERGE_CHUNK), delivery, new FrameQueue(delivery));
      files.push(f);
      f.parser = await openFormat(f.name, f.w, f.queue);
    }
    onProgress?.(position(), size);
    // reads a file on until a frame is queued or it ends; false when the read was interrupted
    const fill = async (f: MergedFile): Promise<boolean> => {
      const { w, parser, queue } = f;
      queue.head = queue.count = 0;
      for (;;) {
        w.start = parser.parse(w.buf, w.view, w.start, w.end, w.base);
        queue.skipEmpty();
        if (f.ready) return true;
        queue.head = queue.count = 0;
        if (parser.stopped) break;
        if (w.eof) {
          parser.finish(w.end - w.start, w.base + w.start);
          break;
        }
        signal?.throwIfAborted();
        if (interrupt === undefined) await w.refill(parser.needed);
        else if (interrupt.aborted || !(await untilInterrupted(w.refill(parser.needed), interrupt))) return false;
        onProgress?.(position(), size);
      }
      f.done = true;
      return true;
    };
    // the files with a frame queued, the one whose next frame comes first at the top
    const heap = new BinaryHeap<MergedFile>(before);
    for (const f of files) {
      if (!(await fill(f))) {
        interrupted = true;
        break;
      }
      if (f.ready) heap.push(f);
    }
    while (!interrupted && heap.size > 0) {
      const f = heap.top();
      frame.file = f.index;
      f.queue.deliverHead();
      f.queue.skipEmpty();
      if (f.ready) {
        heap.siftTop();
        continue;
      }
      if (!(await fill(f))) interrupted = true;
      else if (f.ready) heap.siftTop();
      else heap.pop();
    }
    const parts: FileInfo[] = files.map((f) => {
      if (f.w.source.problem !== '') f.delivery.warn(f.w.source.problem);
      return {
        name: f.name,
        format: f.parser.format,
        compressed: f.w.source.compressed,
        packets: f.delivery.delivered,
        linkTypes: f.parser.linkTypes,
        warnings: f.delivery.allWarnings(),
        timeOrder: f.delivery.timeOrder(),
      };
    });
    return mergedInfo(parts, interrupted);
  } finally {
    // a read still waiting for standard input ends only once the input is closed
    const close = (): Promise<unknown> => Promise.allSettled(inputs.map((i) => i.source.close()));
    if (interrupted) await close();
    await Promise.all(files.map((f) => f.w.settle()));
    if (!interrupted) await close();
  }
}

/** The whole of a merged read: the files' counts added, their warnings each named by its file. */
function mergedInfo(files: FileInfo[], interrupted: boolean): MergedInfo {
  const linkTypes: number[] = [];
  for (const f of files) for (const t of f.linkTypes) if (!linkTypes.includes(t)) linkTypes.push(t);
  const outOfOrder = files.reduce((n, f) => n + f.timeOrder.outOfOrder, 0);
  return {
    format: [...new Set(files.map((f) => f.format))].join('+'),
    compressed: files.some((f) => f.compressed),
    packets: files.reduce((n, f) => n + f.packets, 0),
    linkTypes,
    warnings: files.flatMap((f) => f.warnings.map((w) => `${f.name}: ${w}`)),
    timeOrder: { outOfOrder, firstOutOfOrder: files.find((f) => f.timeOrder.outOfOrder > 0)?.timeOrder.firstOutOfOrder ?? 0 },
    end: 0,
    interrupted,
    files,
  };
}
