// The fast path in a capture read: a frame decoder for readCapture (capture/frame-delivery.ts FrameDecoder)
// that first lets the generated function decide the frame from its bytes and decodes it fully only
// when that function cannot. After each frame, `decided` says which happened: when true, the
// firewall's result for the packet is already in `result` and the record holds only the frame, no
// note and no fields but a dropped packet's addresses (the summary counts where drops came from and
// went to); when false, the record is decoded as usual and the packet goes through the packet path.
import { readAddresses } from '../capture/decode/ip.js';
import { decodeFrameAt } from '../capture/decode/link-up.js';
import type { PacketRecord } from '../capture/record.js';
import type { FirewallResult } from '../firewall/firewall.js';
import { type FastFirewall, FALLBACK } from './fast-firewall.js';

export class FastDecoding {
  /** whether the last frame was decided by the fast path */
  decided = false;

  constructor(private readonly fast: FastFirewall, readonly result: FirewallResult) {}

  readonly decodeFrame = (rec: PacketRecord, linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number): void => {
    const end = Math.max(off, Math.min(off + capLen, data.length));
    const kind = this.fast.decide(data, off, end, origLen, linkType, this.result);
    this.decided = kind !== FALLBACK;
    if (kind === FALLBACK) {
      decodeFrameAt(rec, linkType, data, off, capLen, origLen);
      return;
    }
    rec.setUndecoded(linkType, data, off, end - off, origLen, kind);
    // the summary counts the addresses drops came from and went to
    if (this.result.drop) readAddresses(rec, data, this.fast.ipHeader[0], kind);
  };
}
