// The classic pcap parser's contract with the reader's buffer: it delivers the records that are whole
// in buf[start, end) and returns where the first one that is not starts, with `needed` the bytes that
// record needs; the same records come out however the bytes are cut into chunks, and a range's limit
// stops it at the first record starting at or after the limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDelivery } from '../../src/capture/frame-delivery.js';
import { PcapParser } from '../../src/capture/pcap.js';
import { Frame } from '../../src/capture/frame.js';

interface Rec {
  sec: number;
  usec: number;
  bytes: number[];
  origLen: number;
}

const records = fc.array(
  fc.record({ sec: fc.nat(), usec: fc.integer({ min: 0, max: 999_999 }), bytes: fc.array(fc.nat(255), { maxLength: 70 }), origLen: fc.nat() }),
  { maxLength: 40 },
);

function recordBytes(recs: Rec[], little: boolean): Uint8Array {
  const out = new Uint8Array(recs.reduce((n, r) => n + 16 + r.bytes.length, 0));
  const view = new DataView(out.buffer);
  let p = 0;
  for (const r of recs) {
    [r.sec, r.usec, r.bytes.length, r.origLen].forEach((v, i) => view.setUint32(p + 4 * i, v, little));
    out.set(r.bytes, p + 16);
    p += 16 + r.bytes.length;
  }
  return out;
}

/** Parses `data` fed in pieces cut at `cuts`, as the reader's window does; the records delivered, and the parser. */
function parseInPieces(data: Uint8Array, cuts: number[], little: boolean, limit = Infinity): { got: Rec[]; parser: PcapParser } {
  const got: Rec[] = [];
  const sink = new FrameDelivery(new Frame(), (frame) => {
    got.push({ sec: frame.tsSec, usec: 0, bytes: [...frame.data.subarray(frame.off, frame.off + frame.capLen)], origLen: frame.origLen });
  });
  const parser = new PcapParser(sink, little, 1000, 1);
  parser.limit = limit;
  let buf = new Uint8Array(0);
  let base = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < data.length).sort((a, b) => a - b), data.length]) {
    const more = data.subarray(base + buf.length, cut);
    const joined = new Uint8Array(buf.length + more.length);
    joined.set(buf);
    joined.set(more, buf.length);
    const p = parser.parse(joined, new DataView(joined.buffer), 0, joined.length, base);
    if (parser.stopped) break;
    // it stopped at a record that is not whole: `needed` says how much of it there must be
    expect(joined.length - p).toBeLessThan(parser.needed);
    buf = joined.slice(p);
    base += p;
  }
  for (const r of got) r.usec = 0;
  return { got, parser };
}

const delivered = (recs: Rec[]): Rec[] => recs.map((r) => ({ sec: r.sec, usec: 0, bytes: r.bytes, origLen: r.origLen }));

describe('classic pcap records', () => {
  it('come out whole and the same however the bytes are cut into chunks, in either byte order', () => {
    fc.assert(
      fc.property(records, fc.array(fc.nat(4000)), fc.boolean(), (recs, cuts, little) => {
        const { got, parser } = parseInPieces(recordBytes(recs, little), cuts, little);
        expect(got).toEqual(delivered(recs));
        expect(parser.stopped).toBe(false);
        expect(parser.needed).toBe(16);
      }),
    );
  });

  it('stop at the first record that starts at or after the limit', () => {
    fc.assert(
      fc.property(records, fc.nat(40), fc.array(fc.nat(4000)), (recs, at, cuts) => {
        const data = recordBytes(recs, true);
        const k = Math.min(at, recs.length);
        const limit = recordBytes(recs.slice(0, k), true).length;
        const { got, parser } = parseInPieces(data, cuts, true, limit);
        expect(got).toEqual(delivered(recs.slice(0, k)));
        expect(parser.stopped).toBe(k < recs.length);
      }),
    );
  });
});
