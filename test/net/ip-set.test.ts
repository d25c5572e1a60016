import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpSet, IpSetBuilder } from '../../src/net/ip-set.js';
import { compareIPv6, formatIPv6 } from '../../src/net/ipv6.js';

const MAX4 = 0xffffffff;
const addr4 = fc.oneof(fc.constant(0), fc.constant(MAX4), fc.integer({ min: 0, max: MAX4 }), fc.integer({ min: 0, max: 64 }), fc.integer({ min: MAX4 - 64, max: MAX4 }));
const range4 = fc.tuple(addr4, addr4).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);

const word = fc.oneof(fc.constant(0), fc.constant(1), fc.constant(0xffffffff), fc.constant(0xfffffffe), fc.integer({ min: 0, max: 0xffffffff }));
// few distinct leading words so that ranges overlap, touch and nest often
const addr6 = fc.tuple(fc.constantFrom(0, 1, 0xffffffff), fc.constantFrom(0, 0xffffffff), word, word).map((t) => Uint32Array.from(t));
const range6 = fc.tuple(addr6, addr6).map(([a, b]) => (compareIPv6(a, b) <= 0 ? [a, b] : [b, a]) as [Uint32Array, Uint32Array]);

function naive6(ranges: Array<[Uint32Array, Uint32Array]>, p: Uint32Array): boolean {
  return ranges.some(([lo, hi]) => compareIPv6(lo, p) <= 0 && compareIPv6(p, hi) <= 0);
}

function next6(a: Uint32Array): Uint32Array {
  const r = Uint32Array.from(a);
  for (let i = 3; i >= 0; i--) {
    r[i] = (r[i] + 1) >>> 0;
    if (r[i] !== 0) break;
  }
  return r;
}

function prev6(a: Uint32Array): Uint32Array {
  const r = Uint32Array.from(a);
  for (let i = 3; i >= 0; i--) {
    r[i] = (r[i] - 1) >>> 0;
    if (r[i] !== 0xffffffff) break;
  }
  return r;
}

describe('IpSet v4', () => {
  it('agrees with a linear scan over the ranges, at random probes and at every range edge', () => {
    fc.assert(
      fc.property(fc.array(range4, { maxLength: 40 }), fc.array(addr4, { maxLength: 40 }), (ranges, probes) => {
        const b = new IpSetBuilder();
        for (const [lo, hi] of ranges) b.addRange4(lo, hi);
        const set = b.build();
        const edges = ranges.flatMap(([lo, hi]) => [lo - 1, lo, hi, hi + 1]).filter((x) => x >= 0 && x <= MAX4);
        for (const p of [...probes, ...edges, 0, MAX4]) {
          const expected = ranges.some(([lo, hi]) => lo <= p && p <= hi);
          if (set.has4(p) !== expected) return false;
        }
        return set.ranges4 <= ranges.length;
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with a linear scan for sets large enough to use the /16 index', () => {
    const small = fc.noBias(fc.tuple(fc.integer({ min: 0, max: MAX4 }), fc.integer({ min: 0, max: 70_000 }), fc.nat(9)).map(([lo, span, cluster]) => {
      const start = cluster === 0 ? lo % 0x40000 : lo;
      return [start, Math.min(MAX4, start + span)] as [number, number];
    }));
    fc.assert(
      fc.property(fc.array(small, { minLength: 1250, maxLength: 1400 }), fc.array(addr4, { maxLength: 200 }), (ranges, probes) => {
        const b = new IpSetBuilder();
        for (const [lo, hi] of ranges) b.addRange4(lo, hi);
        b.addRange4(MAX4 - 3, MAX4);
        ranges.push([MAX4 - 3, MAX4]);
        const set = b.build();
        const edges = ranges.flatMap(([lo, hi]) => [lo - 1, lo, hi, hi + 1, (lo & 0xffff0000) >>> 0]).filter((x) => x >= 0 && x <= MAX4);
        const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
        for (const p of [...probes, ...edges, 0, MAX4]) {
          let expected = false;
          for (const [lo, hi] of sorted) {
            if (lo > p) break;
            if (p <= hi) {
              expected = true;
              break;
            }
          }
          if (set.has4(p) !== expected) return false;
        }
        return set.ranges4 >= 1024;
      }),
      { numRuns: 20, endOnFailure: true },
    );
  });

  it('answers membership in sets of 1,023, 1,024 and 1,025 ranges, either side of where the /16 index starts, past the last range too', () => {
    for (const count of [1023, 1024, 1025]) {
      // ranges 0x30000 apart, each crossing a /16 boundary, every third ending on one; each added in
      // two touching halves, so the builder holds twice the ranges the set keeps
      const ranges: Array<[number, number]> = [];
      for (let i = 0; i < count; i++) {
        const lo = i * 0x30000 + 0x8000;
        ranges.push([lo, i % 3 === 0 ? lo + 0x8000 : lo + 0x10000]);
      }
      const b = new IpSetBuilder();
      for (const [lo, hi] of ranges) b.addRange4(Math.floor((lo + hi) / 2) + 1, hi).addRange4(lo, Math.floor((lo + hi) / 2));
      const set = b.build();
      expect(set.ranges4).toBe(count);
      const probes = [0, MAX4, ranges[count - 1][1] + 1, 0x80000000, ...ranges.flatMap(([lo, hi]) => [lo - 1, lo, (lo & 0xffff0000) >>> 0, ((hi & 0xffff0000) >>> 0) - 1, hi, hi + 1])];
      const wrong = probes.filter((p) => set.has4(p) !== ranges.some(([lo, hi]) => lo <= p && p <= hi));
      expect(wrong, `${count} ranges`).toEqual([]);
      expect(probes.filter((p) => set.has4(p)).length, `${count} ranges`).toBeGreaterThanOrEqual(2 * count);
    }
  });

  it('merges into ascending ranges with a gap between each two, covering exactly the union', () => {
    fc.assert(
      fc.property(fc.array(range4, { maxLength: 40, size: 'max' }), (ranges) => {
        const b = new IpSetBuilder();
        for (const [lo, hi] of ranges) b.addRange4(lo, hi);
        const set = b.build();
        const merged: Array<[number, number]> = [];
        set.forEachRange4((lo, hi) => merged.push([lo, hi]));
        expect(merged.length).toBe(set.ranges4);
        for (let i = 1; i < merged.length; i++) expect(merged[i][0], `range ${i} after a gap`).toBeGreaterThan(merged[i - 1][1] + 1);
        for (const p of ranges.flatMap(([lo, hi]) => [lo - 1, lo, hi, hi + 1]).filter((x) => x >= 0 && x <= MAX4)) {
          expect(merged.some(([lo, hi]) => lo <= p && p <= hi), `${p}`).toBe(ranges.some(([lo, hi]) => lo <= p && p <= hi));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('merges ranges that only touch, and not ranges one address apart', () => {
    expect(new IpSetBuilder().addRange4(21, 30).addRange4(10, 20).build().ranges4).toBe(1);
    expect(new IpSetBuilder().addRange4(22, 30).addRange4(10, 20).build().ranges4).toBe(2);
    expect(new IpSetBuilder().addRange4(20, 30).addRange4(10, 20).build().ranges4).toBe(1);
  });

  it('merges overlapping and adjacent ranges, keeps gaps', () => {
    const set = new IpSetBuilder().addRange4(10, 20).addRange4(21, 30).addRange4(15, 25).addRange4(32, 40).build();
    expect(set.ranges4).toBe(2);
    expect([9, 10, 30, 31, 32, 40, 41].map((v) => set.has4(v))).toEqual([false, true, true, false, true, true, false]);
  });

  it('handles the whole space and its edges', () => {
    const all = new IpSetBuilder().addPrefix4(0, 0).build();
    expect(all.ranges4).toBe(1);
    expect([all.has4(0), all.has4(MAX4), all.has4(-1)]).toEqual([true, true, true]);
    const ends = new IpSetBuilder().addRange4(0, 0).addRange4(MAX4, MAX4).build();
    expect([ends.has4(0), ends.has4(1), ends.has4(MAX4 - 1), ends.has4(MAX4)]).toEqual([true, false, false, true]);
  });

  it('masks host bits of prefixes and accepts signed 32-bit numbers', () => {
    const set = new IpSetBuilder().addPrefix4(0xc0000201 | 0, 24).build();
    expect(set.has4(0xc00002ff | 0)).toBe(true);
    expect(set.has4(0xc0000300)).toBe(false);
  });

  it('refuses a reversed range or a bad prefix length, saying which', () => {
    expect(() => new IpSetBuilder().addRange4(5, 4)).toThrow(new RangeError('IPv4 range start 5 is above its end 4'));
    for (const len of [-1, 33, 1.5, Number.NaN]) expect(() => new IpSetBuilder().addPrefix4(0, len)).toThrow(new RangeError(`IPv4 prefix length ${len} is not 0..32`));
    for (const len of [-1, 129, 2.5]) expect(() => new IpSetBuilder().addPrefix6(new Uint32Array(4), len)).toThrow(new RangeError(`IPv6 prefix length ${len} is not 0..128`));
  });

  it('takes the shortest and longest prefixes', () => {
    const ends = (set: IpSet) => {
      const out: number[] = [];
      set.forEachRange4((lo, hi) => out.push(lo, hi));
      return out;
    };
    expect(ends(new IpSetBuilder().addPrefix4(0x0a000001, 32).build())).toEqual([0x0a000001, 0x0a000001]);
    expect(ends(new IpSetBuilder().addPrefix4(0x0a000001, 0).build())).toEqual([0, MAX4]);
    const host = Uint32Array.of(1, 2, 3, 4);
    const one = new IpSetBuilder().addPrefix6(host, 128).build();
    expect([one.has6(host), one.has6(Uint32Array.of(1, 2, 3, 5)), one.ranges6]).toEqual([true, false, 1]);
    expect(new IpSetBuilder().addPrefix6(host, 0).build().has6(Uint32Array.of(MAX4, 0, 0, 0))).toBe(true);
  });

  it('builds a 100,000-prefix set whose members and non-members are right', () => {
    const b = new IpSetBuilder();
    const starts: number[] = [];
    let x = 0x12345678;
    for (let i = 0; i < 100_000; i++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      const start = (x & 0xffffff00) >>> 0;
      starts.push(start);
      b.addPrefix4(start, 24);
    }
    const set = b.build();
    expect(set.ranges4).toBeGreaterThan(90_000);
    for (const s of starts.slice(0, 2000)) expect(set.has4(s + 255)).toBe(true);
    const sorted = [...new Set(starts)].sort((a, b) => a - b);
    let gaps = 0;
    for (let i = 1; i < sorted.length && gaps < 2000; i++) {
      if (sorted[i] - sorted[i - 1] > 256) {
        expect(set.has4(sorted[i - 1] + 256)).toBe(false);
        gaps++;
      }
    }
    expect(gaps).toBe(2000);
  });
});

describe('IpSet v6', () => {
  it('agrees with a linear scan over the ranges, at random probes and at every range edge', () => {
    fc.assert(
      fc.property(fc.array(range6, { maxLength: 30 }), fc.array(addr6, { maxLength: 30 }), (ranges, probes) => {
        const b = new IpSetBuilder();
        for (const [lo, hi] of ranges) b.addRange6(lo, hi);
        const set = b.build();
        const zero = new Uint32Array(4);
        const max = Uint32Array.of(MAX4, MAX4, MAX4, MAX4);
        const edges = ranges.flatMap(([lo, hi]) => [prev6(lo), lo, hi, next6(hi)]);
        for (const p of [...probes, ...edges, zero, max]) {
          if (set.has6(p) !== naive6(ranges, p)) return false;
        }
        return set.ranges6 <= ranges.length;
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with a linear scan for sets of 17 to 60 ranges (past the builder’s first 16), and merges them into ascending, separate ranges', () => {
    fc.assert(
      fc.property(fc.array(range6, { minLength: 17, maxLength: 60, size: 'max' }), (ranges) => {
        const b = new IpSetBuilder();
        for (const [lo, hi] of ranges) b.addRange6(lo, hi);
        const set = b.build();
        const merged: Array<[Uint32Array, Uint32Array]> = [];
        set.forEachRange6((lo, hi) => merged.push([Uint32Array.from(lo), Uint32Array.from(hi)]));
        expect(merged.length).toBe(set.ranges6);
        for (let i = 1; i < merged.length; i++) expect(compareIPv6(merged[i][0], next6(merged[i - 1][1])), `range ${i} after a gap`).toBeGreaterThan(0);
        for (const p of ranges.flatMap(([lo, hi]) => [prev6(lo), lo, hi, next6(hi)])) {
          expect(set.has6(p), formatIPv6(p)).toBe(naive6(ranges, p));
          expect(naive6(merged, p), formatIPv6(p)).toBe(naive6(ranges, p));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps 40 separate ranges added in descending order, each with its edges, and no address between them', () => {
    const b = new IpSetBuilder();
    const at = (i: number, w: number) => Uint32Array.of(0x20010db8, i, 0, w);
    for (let i = 39; i >= 0; i--) b.addRange6(at(i, 10), at(i, 20));
    const set = b.build();
    expect(set.ranges6).toBe(40);
    for (let i = 0; i < 40; i++) {
      expect([9, 10, 20, 21].map((w) => set.has6(at(i, w))), `range ${i}`).toEqual([false, true, true, false]);
    }
  });

  it('keeps two ranges apart when one address lies between them, within a word and across a word boundary', () => {
    const within = new IpSetBuilder().addRange6(Uint32Array.of(0, 0, 7, 1), Uint32Array.of(0, 0, 7, 5)).addRange6(Uint32Array.of(0, 0, 7, 7), Uint32Array.of(0, 0, 7, 9)).build();
    expect(within.ranges6).toBe(2);
    expect([5, 6, 7].map((w) => within.has6(Uint32Array.of(0, 0, 7, w)))).toEqual([true, false, true]);
    const across = new IpSetBuilder().addRange6(Uint32Array.of(0, 0, 1, 0), Uint32Array.of(0, 0, 1, 9)).addRange6(Uint32Array.of(0, 0, 0, 0), Uint32Array.of(0, 0, 0, MAX4 - 1)).build();
    expect(across.ranges6).toBe(2);
    expect(across.has6(Uint32Array.of(0, 0, 0, MAX4))).toBe(false);
    expect(across.has6(Uint32Array.of(0, 0, 1, 0))).toBe(true);
    const carried = new IpSetBuilder().addRange6(Uint32Array.of(0, 1, 0, 1), Uint32Array.of(0, 1, 0, 2)).addRange6(Uint32Array.of(0, 0, 0, 0), Uint32Array.of(0, 0, MAX4, MAX4)).build();
    expect(carried.ranges6).toBe(2);
    expect(carried.has6(Uint32Array.of(0, 1, 0, 0))).toBe(false);
  });

  it('merges ranges that touch with a carry into the first word, or inside a word ending in ...fffe; not ranges whose lower words only look adjacent', () => {
    const carry = new IpSetBuilder().addRange6(Uint32Array.of(0, MAX4, MAX4, MAX4), Uint32Array.of(0, MAX4, MAX4, MAX4)).addRange6(Uint32Array.of(1, 0, 0, 0), Uint32Array.of(1, 0, 0, 0)).build();
    expect(carry.ranges6).toBe(1);
    const fffe = new IpSetBuilder().addRange6(Uint32Array.of(0, 0, 0, 1), Uint32Array.of(0, 0, 0, MAX4 - 1)).addRange6(Uint32Array.of(0, 0, 0, MAX4), Uint32Array.of(0, 0, 1, 0)).build();
    expect(fffe.ranges6).toBe(1);
    const apart = new IpSetBuilder().addRange6(Uint32Array.of(3, 0, 0, 0), Uint32Array.of(3, 0, 0, 0)).addRange6(Uint32Array.of(5, 0, 0, 1), Uint32Array.of(5, 0, 0, 1)).build();
    expect(apart.ranges6).toBe(2);
    expect(apart.has6(Uint32Array.of(4, 0, 0, 0))).toBe(false);
  });

  it('merges a range into one that ends later, keeping the later end', () => {
    const set = new IpSetBuilder().addRange6(Uint32Array.of(0, 0, 0, 1), Uint32Array.of(0, 0, 9, 0)).addRange6(Uint32Array.of(0, 0, 0, 5), Uint32Array.of(0, 0, 0, 8)).build();
    expect(set.ranges6).toBe(1);
    expect(set.has6(Uint32Array.of(0, 0, 9, 0))).toBe(true);
    expect(set.has6(Uint32Array.of(0, 0, 9, 1))).toBe(false);
  });

  it('refuses a reversed range and accepts a one-address range', () => {
    expect(() => new IpSetBuilder().addRange6(Uint32Array.of(0, 0, 1, 0), Uint32Array.of(0, 0, 0, MAX4))).toThrow('IPv6 range start is above its end');
    const one = new IpSetBuilder().addRange6(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(1, 2, 3, 4)).build();
    expect([one.has6(Uint32Array.of(1, 2, 3, 3)), one.has6(Uint32Array.of(1, 2, 3, 4)), one.has6(Uint32Array.of(1, 2, 3, 5))]).toEqual([false, true, false]);
  });

  it('merges ranges that touch across a word boundary', () => {
    const set = new IpSetBuilder()
      .addRange6(Uint32Array.of(0, 0, 0, 0), Uint32Array.of(0, 0, 0, MAX4))
      .addRange6(Uint32Array.of(0, 0, 1, 0), Uint32Array.of(0, 0, 1, 5))
      .build();
    expect(set.ranges6).toBe(1);
    expect(set.has6(Uint32Array.of(0, 0, 1, 5))).toBe(true);
    expect(set.has6(Uint32Array.of(0, 0, 1, 6))).toBe(false);
  });

  it('covers prefixes exactly, whatever the length', () => {
    fc.assert(
      fc.property(addr6, fc.integer({ min: 0, max: 128 }), addr6, (a, len, probe) => {
        const set = new IpSetBuilder().addPrefix6(a, len).build();
        const bitsEqual = (x: Uint32Array, y: Uint32Array) => {
          for (let i = 0; i < len; i++) {
            const s = 31 - (i & 31);
            if (((x[i >> 5] >>> s) & 1) !== ((y[i >> 5] >>> s) & 1)) return false;
          }
          return true;
        };
        return set.has6(probe) === bitsEqual(a, probe) && set.has6(a);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps families apart', () => {
    const set = new IpSetBuilder().addPrefix4(0, 0).build();
    expect(set.has6(new Uint32Array(4))).toBe(false);
    expect(IpSet.EMPTY.has4(0)).toBe(false);
    expect(IpSet.EMPTY.has6(new Uint32Array(4))).toBe(false);
    expect([IpSet.EMPTY.ranges4, IpSet.EMPTY.ranges6]).toEqual([0, 0]);
  });
});
