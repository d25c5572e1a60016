// The label sidecar of a synthetic capture, `<capture>.labels.ndjson`: one line per frame,
//   {"frame":N,"label":"legit"|"attack","part":"<part name>","flow":<flow id or null>}
// so that a replay can score mitigation: how much attack traffic was dropped, how many legitimate
// packets and flows were harmed. Writing goes byte by byte into a reused buffer (a line per packet
// of a million-packet capture must cost next to nothing); reading keeps the labels in typed arrays
// (a byte, a 16-bit part index and a 32-bit flow id per line) rather than an object per frame.
// Memory follows the number of lines, never the frame numbers they name: a sidecar is the user's
// file, and one line naming frame 2147483647 must not reserve gigabytes. Lines written by
// LabelWriter name frames 1, 2, 3… in order, and a frame's line is then found by its number; any
// other file is sorted by frame once and searched.
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { OutputError, systemErrorText, UserError } from '../../errors.js';
import { counted, groupDigits } from '../../numbers.js';
import { labelsPathFor } from './label-path.js';

export { labelsPathFor };


const encoder = new TextEncoder();
const CHUNK = 1 << 20;
const FRAME_KEY = encoder.encode('{"frame":');
const LINE_END = encoder.encode('}\n');
const NULL = encoder.encode('null');

/** Writes a label sidecar, one line per frame in frame order. */
export class LabelWriter {
  private readonly buf = new Uint8Array(CHUNK);
  private used = 0;
  private frame = 0;
  private readonly tags: Uint8Array[] = [];

  private constructor(private readonly fd: number, private readonly path: string) {}

  /** Creates (or truncates) the sidecar; throws an Error naming the path if it cannot. */
  static open(path: string): LabelWriter {
    try {
      return new LabelWriter(openSync(path, 'w'), path);
    } catch (err) {
      throw new OutputError(path, err);
    }
  }

  /** A handle for the lines of one part (label and part name), for write(). */
  tag(label: 'legit' | 'attack', part: string): number {
    this.tags.push(encoder.encode(`,"label":"${label}","part":${JSON.stringify(part)},"flow":`));
    return this.tags.length - 1;
  }

  /** Adds the next frame's line, of the part `tag` stands for; flow 0 is written as null. */
  write(tag: number, flow: number): void {
    const middle = this.tags[tag]!;
    if (this.used + middle.length + 40 > CHUNK) this.flush();
    const b = this.buf;
    b.set(FRAME_KEY, this.used);
    this.used = this.digits(++this.frame, this.used + FRAME_KEY.length);
    b.set(middle, this.used);
    this.used += middle.length;
    if (flow === 0) {
      b.set(NULL, this.used);
      this.used += NULL.length;
    } else this.used = this.digits(flow, this.used);
    b.set(LINE_END, this.used);
    this.used += LINE_END.length;
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private digits(n: number, at: number): number {
    const b = this.buf;
    let len = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) len++;
    for (let i = at + len - 1; i >= at; i--) {
      b[i] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    return at + len;
  }

  private flush(): void {
    let off = 0;
    try {
      while (off < this.used) off += writeSync(this.fd, this.buf, off, this.used - off);
    } catch (err) {
      throw new OutputError(this.path, err);
    }
    this.used = 0;
  }
}

/** The labels of a synthetic capture, by 1-based frame number. */
export interface Labels {
  /** the highest frame number with a label line (0: none) */
  readonly frames: number;
  /** label lines read */
  readonly lines: number;
  /** part names, in the order they first appear */
  readonly parts: readonly string[];
  /** 'legit', 'attack', or null for a frame without a label */
  label(frame: number): 'legit' | 'attack' | null;
  /** the name of the frame's part, or null */
  part(frame: number): string | null;
  /** the frame's flow id, or null (attack packets, frames without a label) */
  flow(frame: number): number | null;
}

/** A label sidecar that cannot be read; the message names the file and the line. */
export class LabelsError extends UserError {
  override name = 'LabelsError';
}

const LEGIT = 1;
const ATTACK = 2;

class LabelTable implements Labels {
  frames = 0;
  lines = 0;
  readonly parts: string[] = [];
  private frameNos = new Uint32Array(1024);
  private kinds = new Uint8Array(1024);
  private partIds = new Uint16Array(1024);
  private flows = new Int32Array(1024);
  /** line k names frame k + 1 (LabelWriter's files): a frame's line is found by its number */
  private dense = true;

  label(frame: number): 'legit' | 'attack' | null {
    const i = this.find(frame);
    const k = i < 0 ? 0 : this.kinds[i];
    return k === LEGIT ? 'legit' : k === ATTACK ? 'attack' : null;
  }

  part(frame: number): string | null {
    const i = this.find(frame);
    return i < 0 ? null : this.parts[this.partIds[i]!]!;
  }

  flow(frame: number): number | null {
    const i = this.find(frame);
    const f = i < 0 ? -1 : this.flows[i]!;
    return f < 0 ? null : f;
  }

  add(frame: number, kind: number, part: number, flow: number): void {
    const i = this.lines;
    if (i === this.kinds.length) this.grow();
    this.frameNos[i] = frame;
    this.kinds[i] = kind;
    this.partIds[i] = part;
    this.flows[i] = flow;
    this.lines++;
    if (frame !== this.lines) this.dense = false;
    if (frame > this.frames) this.frames = frame;
  }

  /** After the last line: a file whose lines are not frames 1, 2, 3… is sorted by frame (a later line for a frame wins). */
  finish(): void {
    if (this.dense) return;
    const n = this.lines;
    const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => this.frameNos[a]! - this.frameNos[b]! || a - b);
    this.frameNos = Uint32Array.from(order, (k) => this.frameNos[k]!);
    this.kinds = Uint8Array.from(order, (k) => this.kinds[k]!);
    this.partIds = Uint16Array.from(order, (k) => this.partIds[k]!);
    this.flows = Int32Array.from(order, (k) => this.flows[k]!);
  }

  // The line of `frame` (the last one, if several name it), or -1.
  private find(frame: number): number {
    if (this.dense) return frame >= 1 && frame <= this.lines ? frame - 1 : -1;
    let lo = 0;
    let hi = this.lines;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.frameNos[mid]! <= frame) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.frameNos[lo - 1] === frame ? lo - 1 : -1;
  }

  private grow(): void {
    const n = this.kinds.length * 2;
    const frameNos = new Uint32Array(n);
    frameNos.set(this.frameNos);
    const kinds = new Uint8Array(n);
    kinds.set(this.kinds);
    const partIds = new Uint16Array(n);
    partIds.set(this.partIds);
    const flows = new Int32Array(n);
    flows.set(this.flows);
    this.frameNos = frameNos;
    this.kinds = kinds;
    this.partIds = partIds;
    this.flows = flows;
  }
}

/**
 * Why `labels` do not fit a capture of `frames` frames (more label lines than frames, or a line
 * naming a frame past the end), or null when they fit. Labels that do not fit belong to another
 * capture: the replay warns and prints no score against them.
 */
export function labelsMisfit(labels: Labels, frames: number, path: string): string | null {
  const n = groupDigits;
  if (labels.lines > frames) return `${path} has ${counted(labels.lines, 'label line')} for ${counted(frames, 'frame')}; the labels were not scored`;
  if (labels.frames > frames) return `${path} labels frame ${n(labels.frames)}, past the capture's last frame (${n(frames)}); the labels were not scored`;
  return null;
}

/**
 * Reads the label sidecar of `capturePath` (`<capturePath>.labels.ndjson`); resolves to null when
 * there is none. Throws LabelsError naming the file and line of a bad line.
 */
export async function readLabels(capturePath: string): Promise<Labels | null> {
  const path = labelsPathFor(capturePath);
  const stream = createReadStream(path);
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(new LabelsError(`cannot read ${path}: ${systemErrorText(err)}`))));
  });
  if (!opened) return null;
  const table = new LabelTable();
  const partIndex = new Map<string, number>();
  let lineNo = 0;
  const fail = (msg: string): never => {
    stream.destroy();
    throw new LabelsError(`${path}:${lineNo}: ${msg}`);
  };
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNo++;
    if (line.trim() === '') continue;
    let o: { frame?: unknown; label?: unknown; part?: unknown; flow?: unknown };
    try {
      o = JSON.parse(line) as typeof o;
    } catch {
      fail('not a JSON object');
    }
    if (typeof o! !== 'object' || o! === null) fail('not a JSON object');
    const { frame, label, part, flow } = o!;
    if (typeof frame !== 'number' || !Number.isInteger(frame) || frame < 1 || frame > 0x7fffffff) fail('"frame" must be a frame number (1, 2, ...)');
    if (label !== 'legit' && label !== 'attack') fail('"label" must be "legit" or "attack"');
    if (typeof part !== 'string') fail('"part" must be a string');
    if (flow !== null && (typeof flow !== 'number' || !Number.isInteger(flow) || flow < 0 || flow > 0x7fffffff)) fail('"flow" must be a flow id or null');
    let p = partIndex.get(part as string);
    if (p === undefined) {
      if (table.parts.length === 0xffff) fail('more than 65535 part names');
      p = table.parts.length;
      partIndex.set(part as string, p);
      table.parts.push(part as string);
    }
    table.add(frame as number, label === 'legit' ? LEGIT : ATTACK, p, flow === null ? -1 : (flow as number));
  }
  table.finish();
  return table;
}
