// The looked-up fields (countries, AS numbers, the ingress data center and region) on the fast path:
// a rule comparing one asks for this record, which is filled once per frame, on the first ask, with
// the frame's addresses and then by the very Enrichment the packet path uses (data/enrichment.ts),
// so its values are the decoder path's. A frame no rule asks about is never looked up.
import { readAddresses } from '../capture/decode/ip.js';
import { Has, PacketRecord } from '../capture/record.js';
import type { Enrichment } from '../data/enrichment.js';

export class LookupRecord {
  /** 0 until the current frame is looked up; the generated function sets it to 0 for each frame */
  readonly looked = new Int32Array(1);
  private readonly rec = new PacketRecord();

  /** `enrichment`: the path's (undefined: the configuration reads no looked-up field it can fill) */
  constructor(private readonly enrichment: Enrichment | undefined) {}

  /** The frame's looked-up fields (IP version `fam`, IP header at d[l3]), in a record the compiled evaluator reads. */
  readonly read = (d: Uint8Array, l3: number, fam: number): PacketRecord => {
    const rec = this.rec;
    if (this.looked[0] === 1) return rec;
    this.looked[0] = 1;
    rec.present = Has.IP;
    rec.ipVersion = fam;
    readAddresses(rec, d, l3, fam);
    this.enrichment?.enrich(rec);
    return rec;
  };
}
