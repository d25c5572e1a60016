// The frame's record on the compiled lane, filled once per frame, on the first ask, as far as the
// asking condition needs it: the looked-up fields (countries, AS numbers, the ingress data center and
// region), from the frame's addresses by the very Enrichment the packet path uses (data/
// enrichment.ts); or the whole frame, decoded as the decoder's lane decodes it (decodeFrameAt) and
// enriched, for a rule whose condition the compiled program does not write itself (conditions.ts
// NotCompiled): the firewall's own compiled predicate for that rule reads it there, and the program
// goes on with the next rule. So its values are the decoder's. A frame no rule asks about is neither
// looked up nor decoded; which rules asked for the decoded record is kept for the run's lane counts.
// Each run has its own (it is the program's scratch: fastpath/fast-firewall.ts ProgramResult).
import { decodeFrameAt } from '../capture/decode/link-up.js';
import { readAddresses } from '../capture/decode/ip.js';
import { Has, PacketRecord } from '../capture/record.js';
import type { Enrichment } from '../data/enrichment.js';
import type { Condition, Constants } from './conditions.js';

/** How far the current frame's record is filled (FrameRecord.filled). */
const LOOKED_UP = 1;
const DECODED = 2;

export class FrameRecord {
  /** how far the current frame is filled: 0, LOOKED_UP or DECODED; the generated function sets 0 for each frame */
  filled = 0;
  /** the rules read on the decoded record in the current frame: their count, then their indices */
  private readonly asked: Int32Array;
  private readonly rec = new PacketRecord();

  /**
   * `enrichment`: the path's (undefined: the configuration reads no looked-up field it can fill);
   * `rules`: how many rules the firewall has
   */
  constructor(private readonly enrichment: Enrichment | undefined, rules: number) {
    this.asked = new Int32Array(rules + 1);
  }

  /** The frame's looked-up fields (IP version `fam`, IP header at d[l3]), in a record the compiled evaluator reads. */
  lookup(d: Uint8Array, l3: number, fam: number): PacketRecord {
    const rec = this.rec;
    if (this.filled !== 0) return rec;
    this.filled = LOOKED_UP;
    rec.present = Has.IP;
    rec.ipVersion = fam;
    readAddresses(rec, d, l3, fam);
    this.enrichment?.enrich(rec);
    return rec;
  }

  /** The frame d[off, end) decoded and enriched, for rule `rule`'s predicate (the generated function's arguments). */
  decode(d: Uint8Array, off: number, end: number, origLen: number, linkType: number, rule: number): PacketRecord {
    const rec = this.rec;
    const asked = this.asked;
    if (this.filled !== DECODED) {
      this.filled = DECODED;
      asked[0] = 0;
      decodeFrameAt(rec, linkType, d, off, end - off, origLen);
      this.enrichment?.enrich(rec);
    }
    asked[++asked[0]] = rule;
    return rec;
  }

  /** How many rules were read on the last frame's decoded record (0: it was not decoded). */
  decodedRules(): number {
    return this.filled === DECODED ? this.asked[0] : 0;
  }

  /** The index of the i-th of them (0 ≤ i < decodedRules()), in the order they were read. */
  decodedRule(i: number): number {
    return this.asked[i + 1];
  }
}

/** The condition of rule `index`, whose condition the fast path does not write: its `predicate` on the frame's decoded record. */
export function onDecodedRecord(predicate: (rec: PacketRecord) => boolean, index: number, k: Constants): Condition {
  return { prelude: '', expr: `${k.add(predicate)}(out.frame.decode(d, off, end, origLen, linkType, ${index}))`, locals: new Set(['d', 'off', 'end', 'origLen', 'linkType', 'decode']) };
}
