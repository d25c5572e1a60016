// The label sidecar of a synthetic capture, `<capture>.labels.ndjson`: one line per frame,
//   {"frame":N,"label":"legit"|"attack","part":"<part name>","flow":<flow id or null>}
// so that a replay can score mitigation: how much attack traffic was dropped, how many legitimate
// packets and flows were harmed. Writing goes byte by byte into a reused buffer (a line per packet
// of a million-packet capture must cost next to nothing); reading keeps the labels in typed arrays
// (a byte, a 16-bit part index and a 32-bit flow id per frame) rather than an object per frame.
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { OutputError, UserError } from '../../errors.js';

/** The label sidecar's path for a capture. */
export function labelsPathFor(capturePath: string): string {
  return `${capturePath}.labels.ndjson`;
}

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
  /** frames with a label line */
  readonly frames: number;
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
  readonly parts: string[] = [];
  kinds = new Uint8Array(1024);
  partIds = new Uint16Array(1024);
  flows = new Int32Array(1024);

  label(frame: number): 'legit' | 'attack' | null {
    const k = frame >= 1 && frame <= this.frames ? this.kinds[frame - 1] : 0;
    return k === LEGIT ? 'legit' : k === ATTACK ? 'attack' : null;
  }

  part(frame: number): string | null {
    if (frame < 1 || frame > this.frames || this.kinds[frame - 1] === 0) return null;
    return this.parts[this.partIds[frame - 1]!]!;
  }

  flow(frame: number): number | null {
    const f = frame >= 1 && frame <= this.frames ? this.flows[frame - 1]! : -1;
    return f < 0 ? null : f;
  }

  set(frame: number, kind: number, part: number, flow: number): void {
    if (frame > this.kinds.length) this.grow(frame);
    this.kinds[frame - 1] = kind;
    this.partIds[frame - 1] = part;
    this.flows[frame - 1] = flow;
    if (frame > this.frames) this.frames = frame;
  }

  private grow(frame: number): void {
    let n = this.kinds.length;
    while (n < frame) n *= 2;
    const kinds = new Uint8Array(n);
    kinds.set(this.kinds);
    const partIds = new Uint16Array(n);
    partIds.set(this.partIds);
    const flows = new Int32Array(n).fill(-1);
    flows.set(this.flows);
    this.kinds = kinds;
    this.partIds = partIds;
    this.flows = flows;
  }
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
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(new LabelsError(`cannot read ${path}: ${err.code ?? err.message}`))));
  });
  if (!opened) return null;
  const table = new LabelTable();
  table.flows.fill(-1);
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
    table.set(frame as number, label === 'legit' ? LEGIT : ATTACK, p, flow === null ? -1 : (flow as number));
  }
  return table;
}
