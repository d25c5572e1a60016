// The fast path in a capture read: a frame decoder for readCapture (capture/frame-delivery.ts FrameDecoder)
// that first lets the generated function decide the frame from its bytes and decodes it fully only
// when that function cannot. After each frame, `decided` says which happened: when true, the
// firewall's result for the packet is already in `result` and the record holds only the frame, no
// note and no fields but a dropped packet's addresses (the summary counts where drops came from and
// went to); when false, the record is decoded as usual and the packet goes through the packet path.
//
// Several rulesets can decide the same read (`edgesim diff`: before and after): sharedDecoder runs
// each one's function on the frame and decodes the frame in full once if any of them cannot.
import { readAddresses } from '../capture/decode/ip.js';
import { decodeFrameAt } from '../capture/decode/link-up.js';
import type { FrameDecoder } from '../capture/frame-delivery.js';
import type { PacketRecord } from '../capture/record.js';
import type { FirewallResult } from '../firewall/firewall.js';
import { type FastFirewall, FALLBACK } from './fast-firewall.js';

export class FastDecoding {
  /** whether the last frame was decided by the fast path */
  decided = false;

  constructor(protected readonly fast: FastFirewall, readonly result: FirewallResult) {}

  /** Why the last frame was not decided here (when `decided` is false). */
  fallbackReason(): string {
    return this.fast.fallbackReason();
  }

  /** How many rules were read on the last frame's decoded record, when it was decided here (FastFirewall.decodedRules). */
  decodedRules(): number {
    return this.decided ? this.fast.decodedRules() : 0;
  }

  /** Why the i-th of them was (FastFirewall.decodedReason). */
  decodedReason(i: number): string {
    return this.fast.decodedReason(i);
  }

  readonly decodeFrame = (rec: PacketRecord, linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number): void => {
    const end = Math.max(off, Math.min(off + capLen, data.length));
    const kind = this.fast.decide(data, off, end, origLen, linkType, this.result);
    this.decided = kind !== FALLBACK;
    if (kind === FALLBACK) {
      decodeFrameAt(rec, linkType, data, off, capLen, origLen);
      return;
    }
    rec.setUndecoded(linkType, data, off, end - off, origLen, kind);
    this.fill(rec, data, kind);
  };

  /**
   * Fills in what a replay reads of a frame this decided (IP version `kind`, the record otherwise
   * undecoded): a dropped packet's addresses, which the summary counts.
   */
  protected fill(rec: PacketRecord, data: Uint8Array, kind: number): void {
    if (this.result.drop) readAddresses(rec, data, this.fast.ipHeader[0], kind);
  }

  /**
   * One frame decoder for several rulesets' fast paths over the same read; each one's `decided` is
   * set as decodeFrame sets it. A null entry (a path without a fast path) needs every frame decoded.
   */
  static sharedDecoder(all: ReadonlyArray<FastDecoding | null>): FrameDecoder {
    return (rec, linkType, data, off, capLen, origLen) => {
      const end = Math.max(off, Math.min(off + capLen, data.length));
      let kind = 0;
      let undecided = false;
      for (let i = 0; i < all.length; i++) {
        const one = all[i];
        if (one === null) {
          undecided = true;
          continue;
        }
        kind = one.fast.decide(data, off, end, origLen, linkType, one.result);
        one.decided = kind !== FALLBACK;
        if (!one.decided) undecided = true;
      }
      if (undecided) {
        decodeFrameAt(rec, linkType, data, off, capLen, origLen);
        return;
      }
      rec.setUndecoded(linkType, data, off, end - off, origLen, kind);
      for (let i = 0; i < all.length; i++) all[i]!.fill(rec, data, kind);
    };
  }
}
