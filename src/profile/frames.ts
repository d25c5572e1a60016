// The capture a benchmark runs on, held in memory so that repeated passes time evaluation and not
// the disk: every frame's captured bytes copied once into one growing buffer, with its link type,
// lengths and timestamp in typed arrays (no object per frame). A pass decodes each frame from here
// into one reused PacketRecord, as the reader does from its read buffer. Synthetic traffic (a
// scenario) is generated straight into the same store, with no file in between.
import type { ReadInfo } from '../capture/merge.js';
import { decodeFrameAt } from '../capture/decode/link-up.js';
import type { FrameDecoder } from '../capture/frame-delivery.js';
import { PacketRecord } from '../capture/record.js';
import { counted } from '../numbers.js';
import { generate, resolveSpec, type GenerateOptions } from '../capture/synth/index.js';
import { OpenCapture } from '../sim/packet-loop.js';

const ETHERNET = 1;

export class FrameStore {
  count = 0;
  bytes = new Uint8Array(1 << 20);
  used = 0;
  offsets = new Float64Array(1024);
  capLens = new Uint32Array(1024);
  origLens = new Uint32Array(1024);
  linkTypes = new Uint16Array(1024);
  tsSec = new Float64Array(1024);
  tsNsec = new Uint32Array(1024);
  /** file-level warnings of the read (a truncated last record...) */
  warnings: string[] = [];

  add(data: Uint8Array, off: number, capLen: number, origLen: number, linkType: number, sec: number, nsec: number): void {
    if (this.count === this.offsets.length) this.growIndex();
    if (this.used + capLen > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + capLen));
      bigger.set(this.bytes.subarray(0, this.used));
      this.bytes = bigger;
    }
    this.bytes.set(data.subarray(off, off + capLen), this.used);
    const i = this.count++;
    this.offsets[i] = this.used;
    this.capLens[i] = capLen;
    this.origLens[i] = origLen;
    this.linkTypes[i] = linkType;
    this.tsSec[i] = sec;
    this.tsNsec[i] = nsec;
    this.used += capLen;
  }

  /** Decodes frame i (0-based) into rec (with `decode`, the fast path's frame decoder, when given). */
  decode(i: number, rec: PacketRecord, decode: FrameDecoder = decodeFrameAt): void {
    decode(rec, this.linkTypes[i]!, this.bytes, this.offsets[i]!, this.capLens[i]!, this.origLens[i]!);
    rec.frame = i + 1;
    rec.tsSec = this.tsSec[i]!;
    rec.tsNsec = this.tsNsec[i]!;
  }

  /** Frame i (0-based) through a frame decoder of the reader's shape (the fast path's, say) into rec. */
  /** Every frame decoded into a record of its own (for passes over the firewall alone). */
  decodeAll(): PacketRecord[] {
    const out = new Array<PacketRecord>(this.count);
    for (let i = 0; i < this.count; i++) {
      const rec = new PacketRecord();
      this.decode(i, rec);
      out[i] = rec;
    }
    return out;
  }

  private growIndex(): void {
    const n = this.offsets.length * 2;
    const grow = <T extends Float64Array | Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.offsets = grow(this.offsets, (k) => new Float64Array(k));
    this.capLens = grow(this.capLens, (k) => new Uint32Array(k));
    this.origLens = grow(this.origLens, (k) => new Uint32Array(k));
    this.linkTypes = grow(this.linkTypes, (k) => new Uint16Array(k));
    this.tsSec = grow(this.tsSec, (k) => new Float64Array(k));
    this.tsNsec = grow(this.tsNsec, (k) => new Uint32Array(k));
  }
}

/** Reads a capture's frames (several captures: merged by time) into memory, at most `limit` of them. Rejects with CaptureError as readCapture does. */
export async function loadCapture(file: string | readonly string[], limit = Infinity): Promise<FrameStore> {
  const store = new FrameStore();
  const stop = new AbortController();
  let info: ReadInfo | undefined;
  try {
    info = await (await OpenCapture.open(file)).forEachPacket(
      (rec) => {
        if (store.count >= limit) {
          if (!stop.signal.aborted) stop.abort(new LimitReached());
          return;
        }
        store.add(rec.data, rec.dataOff, rec.capLen, rec.origLen, rec.linkType, rec.tsSec, rec.tsNsec);
      },
      { signal: stop.signal },
    );
  } catch (err) {
    if (!(err instanceof LimitReached)) throw err;
    store.warnings.push(`loaded only the first ${counted(limit, 'packet')} (--limit)`);
  }
  if (info !== undefined) store.warnings.push(...info.warnings);
  return store;
}

class LimitReached extends Error {}

/** Generates a synthetic scenario (or flow spec) straight into memory. Throws SpecError as resolveSpec does. */
export function loadScenario(scenario: string, opts: GenerateOptions = {}): FrameStore {
  const spec = resolveSpec(scenario, opts);
  const store = new FrameStore();
  generate(spec, {
    frame(data, len, timeUs) {
      const sec = Math.floor(timeUs / 1e6);
      store.add(data, 0, len, len, ETHERNET, spec.start + sec, (timeUs - sec * 1e6) * 1000);
    },
  });
  return store;
}
