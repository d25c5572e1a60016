// The set algebra under the analysis, checked against plain sets of numbers on small domains:
// interval operations, and box/region subtraction and the depth-first search for an uncovered box.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Budget, WorkLimitReached } from '../../src/analysis/budget.js';
import { type Intervals, contains, covers, equal, first, fromRanges, intersect, isEmpty, overlaps, point, range, subtract, union } from '../../src/analysis/intervals.js';
import {
  DIMS,
  Dim,
  L4,
  V6_BASE,
  type Box,
  type Region,
  coalesced,
  complementOf,
  constrain,
  firstOutside,
  hullsApart,
  intersectRegions,
  isEmptyRegion,
  projection,
  regionCovers,
  regionsOverlap,
  subtractRegions,
  unionRegions,
  universe,
  withComplement,
} from '../../src/analysis/space.js';

const values = (a: Intervals): number[] => {
  const out: number[] = [];
  for (let i = 0; i < a.length; i += 2) for (let v = Number(a[i]); v <= Number(a[i + 1]); v++) out.push(v);
  return out;
};

const rangesOf = (max: number, length: { minLength?: number; maxLength: number }) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 12 })), length).map((xs) => fromRanges(xs.map(([lo, n]) => [BigInt(lo), BigInt(lo + n)] as const)));
const intervals = rangesOf(40, { maxLength: 6 });
// sets of 32 ranges or more, which the operations remember by identity (a 10,000-entry list)
const large = rangesOf(3000, { minLength: 40, maxLength: 60 }).filter((a) => a.length >= 64);
const anySize = fc.oneof(intervals, large);

/** The normal form every operation returns: ranges sorted, each non-empty, with a gap between two. */
function normal(a: Intervals): boolean {
  for (let i = 0; i < a.length; i += 2) if (a[i]! > a[i + 1]! || (i > 0 && a[i]! <= a[i - 1]! + 1n)) return false;
  return a.length % 2 === 0;
}

describe('intervals', () => {
  it('are normalised and agree with set operations', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, b) => {
        const A = new Set(values(a));
        const B = new Set(values(b));
        for (let i = 2; i < a.length; i += 2) expect(a[i]! > a[i - 1]! + 1n).toBe(true);
        expect(values(intersect(a, b))).toEqual([...A].filter((v) => B.has(v)));
        expect(values(subtract(a, b))).toEqual([...A].filter((v) => !B.has(v)));
        expect(values(union(a, b))).toEqual([...new Set([...A, ...B])].sort((x, y) => x - y));
        expect(overlaps(a, b)).toBe([...A].some((v) => B.has(v)));
        expect(covers(a, b)).toBe([...B].every((v) => A.has(v)));
      }),
    );
  });

  it('of any size give the exact set in normal form, so equal compares sets', () => {
    fc.assert(
      fc.property(anySize, anySize, (a, b) => {
        const A = new Set(values(a));
        const B = new Set(values(b));
        for (const [r, expected] of [
          [intersect(a, b), [...A].filter((v) => B.has(v))],
          [subtract(a, b), [...A].filter((v) => !B.has(v))],
          [union(a, b), [...new Set([...A, ...B])].sort((x, y) => x - y)],
        ] as const) {
          expect(normal(r)).toBe(true);
          expect(values(r)).toEqual(expected);
        }
        expect(overlaps(a, b)).toBe([...A].some((v) => B.has(v)));
        expect(covers(a, b)).toBe([...B].every((v) => A.has(v)));
        expect(equal(a, b)).toBe(A.size === B.size && [...A].every((v) => B.has(v)));
      }),
    );
  });

  it('a large set met again and again gives each other set its own answer', () => {
    fc.assert(
      fc.property(large, fc.array(anySize, { minLength: 2, maxLength: 4 }), (a, others) => {
        const A = new Set(values(a));
        for (let round = 0; round < 2; round++)
          for (const b of others) {
            const B = new Set(values(b));
            expect(values(intersect(a, b))).toEqual([...A].filter((v) => B.has(v)));
            expect(values(subtract(a, b))).toEqual([...A].filter((v) => !B.has(v)));
            expect(values(subtract(b, a))).toEqual([...B].filter((v) => !A.has(v)));
            expect(overlaps(b, a)).toBe([...B].some((v) => A.has(v)));
          }
      }),
    );
  });

  it('membership (at and beside every bound), first value, emptiness, a range and a point', () => {
    fc.assert(
      fc.property(anySize, fc.integer({ min: -1, max: 3020 }), fc.integer({ min: -2, max: 20 }), (a, v, n) => {
        const A = values(a);
        for (const x of [v, ...a.flatMap((b) => [Number(b) - 1, Number(b), Number(b) + 1])]) expect(contains(a, BigInt(x))).toBe(A.includes(x));
        expect(isEmpty(a)).toBe(A.length === 0);
        if (A.length > 0) expect(first(a)).toBe(BigInt(A[0]!));
        expect(values(range(BigInt(v), BigInt(v + n)))).toEqual(Array.from({ length: Math.max(0, n + 1) }, (_, i) => v + i));
        expect(values(point(BigInt(v)))).toEqual([v]);
      }),
    );
  });
});

// boxes over the first two dimensions only (the rest one shared value)
const REST: Intervals = [0n, 0n];
// first dimension: sets of many ranges (as a list's addresses), some of them far from the others
const far = fc.tuple(intervals, fc.boolean()).map(([a, moved]) => (moved ? a.map((v) => v + 100n) : a));
const box = fc.tuple(far, intervals).filter(([x, y]) => x.length > 0 && y.length > 0).map(([x, y]): Box => [x, y, ...Array.from({ length: DIMS - 2 }, () => REST)]);
const region = fc.array(box, { maxLength: 4 });

/** The packets of a region, each box checked to be one: a non-empty set on every dimension. */
function points(r: Region): Set<string> {
  const out = new Set<string>();
  for (const b of r) expect(b.length === DIMS && b.every((set) => Array.isArray(set) && set.length > 0), 'a box').toBe(true);
  for (const b of r) for (const x of values(b[0]!)) for (const y of values(b[1]!)) out.add(`${x},${y}`);
  return out;
}

describe('regions', () => {
  it('intersection and subtraction are exact; firstOutside finds an uncovered box exactly when one exists', () => {
    fc.assert(
      fc.property(region, fc.array(region, { maxLength: 4 }), (r, minus) => {
        const R = points(r);
        const M = points(minus.flat());
        expect(points(subtractRegions(r, minus.flat()))).toEqual(new Set([...R].filter((p) => !M.has(p))));
        expect(points(intersectRegions(r, minus.flat()))).toEqual(new Set([...R].filter((p) => M.has(p))));
        const found = firstOutside(r, minus);
        const outside = [...R].filter((p) => !M.has(p));
        expect(found !== null).toBe(outside.length > 0);
        if (found !== null) for (const p of points([found])) expect(R.has(p) && !M.has(p)).toBe(true);
      }),
    );
  });
});

describe('regions of many boxes (the boxes meeting a box found by an index of their ranges)', () => {
  const many = fc.array(box, { minLength: 16, maxLength: 40 });

  it('intersection, subtraction and firstOutside are exact against regions of 16 boxes or more, and keep the boxes in order', () => {
    fc.assert(
      fc.property(fc.oneof(region, many), many, fc.array(fc.oneof(region, many), { maxLength: 2 }), (r, big, more) => {
        const R = points(r);
        const B = points(big);
        expect(points(subtractRegions(r, big))).toEqual(new Set([...R].filter((p) => !B.has(p))));
        expect(points(intersectRegions(r, big))).toEqual(new Set([...R].filter((p) => B.has(p))));
        // as many boxes, in the same order, as comparing every pair: each box of r against big's boxes in turn
        const pairwise = r.flatMap((x) => big.flatMap((y) => intersectRegions([x], [y])));
        expect(intersectRegions(r, big)).toEqual(pairwise);
        const minus = [big, ...more];
        const M = points(minus.flat());
        const found = firstOutside(r, minus);
        expect(found !== null).toBe([...R].some((p) => !M.has(p)));
        if (found !== null) for (const p of points([found])) expect(R.has(p) && !M.has(p)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe("a large region's index: the work of meeting it is bounded by the boxes met, not by the region's size", () => {
  const boxOf = (src: Intervals, dport: Intervals = REST): Box => Array.from({ length: DIMS }, (_, d) => (d === Dim.src ? src : d === Dim.dport ? dport : REST));
  // one rule per customer: 512 boxes, each a /24 of sources (with `ports`, and a port of its own)
  const customers = (ports: boolean): Region => Array.from({ length: 512 }, (_, i) => boxOf(range(BigInt(i) * 256n, BigInt(i) * 256n + 255n), ports ? point(BigInt(1000 + i)) : REST));

  it('intersection, subtraction, overlap and the search each look at a few boxes of 512, wherever the box met lies', () => {
    for (const ports of [false, true]) {
      const big = customers(ports);
      for (const i of [0, 1, 255, 256, 510, 511]) {
        // one host of customer i (with `ports`, on every port: the customer's rule holds one of them)
        const q = [boxOf(point(BigInt(i) * 256n + 7n), ports ? range(0n, 65535n) : REST)];
        // compared pairwise, each would take 512 steps or more; through the index, a handful, with the same answers
        expect(intersectRegions(q, big, new Budget(4))).toEqual([boxOf(point(BigInt(i) * 256n + 7n), ports ? point(BigInt(1000 + i)) : REST)]);
        const rest = subtractRegions(q, big, new Budget(8));
        expect(rest.length > 0).toBe(ports);
        expect(regionsOverlap(q, big, new Budget(4))).toBe(true);
        expect(firstOutside(q, [big], new Budget(8)) !== null).toBe(ports);
      }
      // a box apart from every box of the region: nothing met, nearly no work
      const apart = [boxOf(point(600n * 256n))];
      expect(intersectRegions(apart, big, new Budget(2))).toEqual([]);
      expect(subtractRegions(apart, big, new Budget(2))).toEqual(apart);
      // regions whose hulls are apart (above or below, either way round): no pair of boxes compared at all
      const aways: Region[] = [apart, [boxOf(point(5n)).map((set, d) => (d === Dim.dst ? point(9n) : set))]];
      if (ports) aways.push([boxOf(point(5n), point(5n))]);
      for (const away of aways) {
        expect(regionsOverlap(away, big, new Budget(0))).toBe(false);
        expect(regionsOverlap(big, away, new Budget(0))).toBe(false);
      }
      expect(firstOutside(big, [apart], new Budget(0))).toBe(big[0]);
    }
  });

  it('finds the boxes met whatever order the region lists them in (the index sorts them by their ranges)', () => {
    fc.assert(
      // up to 400 boxes: sorting that many merges runs (an order comparison wrong one way round shows there)
      fc.property(fc.oneof(fc.shuffledSubarray([...Array(40).keys()], { minLength: 16, maxLength: 40 }), fc.shuffledSubarray([...Array(400).keys()], { minLength: 200, maxLength: 400 })), fc.nat(399), (order, q) => {
        // boxes of different widths on the sources, listed in any order: narrow ones (16 addresses each) and a few wide
        const region = order.map((i) => boxOf(i % 9 === 0 ? range(BigInt(i) * 16n, BigInt(i) * 16n + 200n) : range(BigInt(i) * 16n, BigInt(i) * 16n + 15n)));
        const query = [boxOf(point(BigInt(q) * 16n + 3n))];
        const pairwise = query.flatMap((x) => region.flatMap((y) => intersectRegions([x], [y])));
        expect(intersectRegions(query, region)).toEqual(pairwise);
        expect(regionsOverlap(query, region)).toBe(pairwise.length > 0);
        expect(firstOutside(query, [region]) === null).toBe(pairwise.length > 0);
      }),
      { numRuns: 200 },
    );
    // as rules list their ranges: two runs in order, the higher first (from 64 boxes the sort merges runs)
    for (const n of [64, 200, 1000]) {
      const half = n / 2;
      const order = [...Array(n).keys()].map((i) => (i < half ? i + half : i - half));
      const region = order.map((i) => boxOf(range(BigInt(i) * 16n, BigInt(i) * 16n + 15n)));
      for (const q of [0, half - 1, half, n - 1]) {
        const query = [boxOf(point(BigInt(q) * 16n + 3n))];
        expect(intersectRegions(query, region), `${n} boxes, the one at ${q}`).toEqual([query[0]]);
        expect(firstOutside(query, [region]), `${n} boxes, the one at ${q}`).toBeNull();
      }
    }
  });
});

describe("the engine's sort, which the index's order rests on", () => {
  it('asks its comparator of a later element against an earlier one only (docs/mutation.md: the narrow boxes\' comparator)', () => {
    // with (later, earlier) alone, a comparator that answers `x.at - y.at` wherever x.lo >= y.lo, or
    // 1, sorts as the index's does: by lowest value, equal ones in the region's order. Values in any
    // order, in two runs (the sort merges them, galloping where one run wins), or descending:
    const shaped = fc.tuple(fc.array(fc.nat(400), { maxLength: 3000 }), fc.constantFrom('as is', 'two runs', 'descending'), fc.nat());
    fc.assert(
      fc.property(shaped, ([values, shape, cut]) => {
        const sorted = values.slice().sort((a, b) => a - b);
        const split = values.length === 0 ? 0 : cut % values.length;
        const los = shape === 'as is' ? values : shape === 'descending' ? sorted.reverse() : [...sorted.slice(split), ...sorted.slice(0, split)];
        const boxes = los.map((lo, at) => ({ lo, at }));
        let earlier = 0;
        boxes.sort((x, y) => {
          if (x.at <= y.at) earlier++;
          return x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : x.at - y.at;
        });
        expect(earlier).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('coalesced', () => {
  it('keeps every packet in fewer boxes, whichever field two boxes differ in, and leaves the region given unchanged', () => {
    for (const d of [Dim.src, Dim.dst, Dim.dport, Dim.ttl]) {
      const a: Box = Array.from({ length: DIMS }, (_, k) => (k === d ? range(10n, 19n) : REST));
      const b: Box = Array.from({ length: DIMS }, (_, k) => (k === d ? range(30n, 39n) : REST));
      const c: Box = Array.from({ length: DIMS }, (_, k) => (k === d ? range(20n, 29n) : k === Dim.sip ? point(1n) : REST));
      const region: Region = [a, b, c];
      const shown = (r: Region): string => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}` : v));
      const copy = shown(region);
      const joined = coalesced(region);
      // a and b differ in d alone: one box; c differs in two fields: a box of its own
      expect(joined).toHaveLength(2);
      expect(joined[0]![d]).toEqual(fromRanges([[10n, 19n], [30n, 39n]]));
      expect(joined[1]).toEqual(c);
      expect(shown(region)).toBe(copy);
    }
  });
});

describe('regions of sets of many ranges (a list of hundreds of addresses)', () => {
  // sets of single values or pairs apart, so that two of them together hold more or fewer than
  // boxContains' 1,024 entries (past that the cheap judgement says "no" and the cut decides)
  const many = (minLength: number, maxLength: number) =>
    fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 2 })), { minLength, maxLength }).map((xs) => {
      const pairs: Array<[bigint, bigint]> = [];
      let at = 0;
      for (const [n, gap] of xs) {
        pairs.push([BigInt(at), BigInt(at + n)]);
        at += n + 2 + gap;
      }
      return fromRanges(pairs);
    });
  const wide = (x: fc.Arbitrary<Intervals>) => fc.tuple(x, fc.integer({ min: 0, max: 2 })).map(([xs, y]): Box => [xs, [BigInt(y), BigInt(y)], ...Array.from({ length: DIMS - 2 }, () => REST)]);
  // 200 to 400 entries, 900 to 1,300: two small ones hold fewer than 1,024, a small and a large one more
  const small = wide(many(100, 200));
  const large = wide(many(450, 650));
  const part = (b: fc.Arbitrary<Box>) => fc.oneof(b, b.map((x) => [x[0]!.slice(2), ...x.slice(1)] as Box));
  // the piece searched (small), and regions that hold part of it or a subset of a shared set
  const cases = fc.tuple(small, fc.tuple(part(small), part(large), fc.array(part(fc.oneof(small, large)), { maxLength: 1 })).map(([a, b, c]) => [a, b, ...c]), fc.boolean());

  it('firstOutside finds an uncovered box exactly when one exists, whether the boxes compared hold over 1,024 entries or not', () => {
    const sizes = { over: 0, under: 0 };
    fc.assert(
      fc.property(cases, ([piece, minus, holdIt]) => {
        // holdIt: one more region holds the piece itself, with a large set's values (a superset, cheaply judged or cut)
        const regions: Region[] = minus.map((b) => [b]);
        if (holdIt) regions.push([[union(piece[0]!, minus[1]![0]!), piece[1]!, ...piece.slice(2)]]);
        for (const [b] of regions) (piece[0]!.length + b![0]!.length > 1024 ? sizes.over++ : sizes.under++);
        const R = points([piece]);
        const M = points(regions.flat());
        const found = firstOutside([piece], regions);
        expect(found !== null).toBe([...R].some((p) => !M.has(p)));
        if (found !== null) for (const p of points([found])) expect(R.has(p) && !M.has(p)).toBe(true);
        for (const one of [regions[0]!, regions.at(-1)!]) expect(regionCovers(one, [piece])).toBe([...R].every((p) => points(one).has(p)));
      }),
      { numRuns: 8 },
    );
    // both sides of the limit were reached (the cases are built so)
    expect(sizes.over).toBeGreaterThan(0);
    expect(sizes.under).toBeGreaterThan(0);
  });
});

// every region of these tests lies in this box, so a complement within it is one within the universe
const WHOLE: Region = [[[0n, 160n], [0n, 60n], ...Array.from({ length: DIMS - 2 }, () => REST)]];

describe('firstOutside with known complements', () => {
  it('branching on a complement finds an uncovered box exactly when one exists; the regions it used cover the rest', () => {
    // a region alone, with its complement known, or known as the complement of a few boxes (`not (a and b)`)
    const known = fc.oneof(
      region,
      region.map((m) => withComplement(m.slice(), subtractRegions(WHOLE, m))),
      fc.array(box, { minLength: 1, maxLength: 2 }).map((c) => withComplement(subtractRegions(WHOLE, c), c)),
    );
    fc.assert(
      fc.property(region, fc.array(known, { maxLength: 5 }), (r, minus) => {
        const R = points(r);
        const M = points(minus.flat());
        const used = new Set<number>();
        const found = firstOutside(r, minus, undefined, used);
        expect(found !== null).toBe([...R].some((p) => !M.has(p)));
        if (found !== null) for (const p of points([found])) expect(R.has(p) && !M.has(p)).toBe(true);
        else {
          const U = points([...used].flatMap((k) => minus[k]!));
          expect([...R].every((p) => U.has(p))).toBe(true);
        }
        expect(firstOutside(r, minus) !== null).toBe(found !== null);
      }),
    );
  });

  it('branching skips the parts of a complement apart from the piece', () => {
    const at = (x0: bigint, x1: bigint): Box => [[x0, x1], [0n, 10n], ...Array.from({ length: DIMS - 2 }, () => REST)];
    // the complement's first box is apart from the piece searched; the rest of the piece lies in x 3..5
    const notC = withComplement(subtractRegions(WHOLE, [at(100n, 110n), at(0n, 5n)]), [at(100n, 110n), at(0n, 5n)]);
    const found = firstOutside([at(0n, 10n)], [notC, [at(0n, 2n)]]);
    expect(found).not.toBeNull();
    expect([...points([found!])].every((p) => [3, 4, 5].includes(Number(p.split(',')[0])))).toBe(true);
  });
});

describe('the other region operations', () => {
  const constraint = fc.array(fc.tuple(fc.constantFrom(0, 1), intervals), { maxLength: 2 }).map((xs) => new Map<number, Intervals>(xs));

  it('constrain keeps exactly the packets whose constrained values are in their sets (an empty constraint keeps all)', () => {
    fc.assert(
      fc.property(region, constraint, (r, c) => {
        const kept = [...points(r)].filter((p) => p.split(',').every((v, d) => !c.has(d) || values(c.get(d)!).includes(Number(v))));
        const before = structuredClone(r);
        expect(points(constrain(r, c))).toEqual(new Set(kept));
        // the region constrained is left as it was
        expect(r).toEqual(before);
      }),
    );
  });

  it('union, overlap, cover, emptiness and projection agree with the sets of packets', () => {
    fc.assert(
      fc.property(region, region, (a, b) => {
        const A = points(a);
        const B = points(b);
        expect(points(unionRegions(a, b))).toEqual(new Set([...A, ...B]));
        expect(regionsOverlap(a, b)).toBe([...A].some((p) => B.has(p)));
        expect(regionCovers(a, b)).toBe([...B].every((p) => A.has(p)));
        expect(regionCovers(unionRegions(a, b), b)).toBe(true);
        expect(isEmptyRegion(a)).toBe(A.size === 0);
        for (const d of [0, 1]) expect(values(projection(a, d))).toEqual([...new Set([...A].map((p) => Number(p.split(',')[d])))].sort((x, y) => x - y));
      }),
    );
  });
});

describe('universe', () => {
  const u = universe({ countries: 3, coloNames: 5, coloRegions: 2 });
  const V4: Intervals = [0n, V6_BASE - 1n];
  const V6: Intervals = [V6_BASE, V6_BASE + (1n << 128n) - 1n];

  it('is the packets of each family and transport, apart, of which no packet is outside', () => {
    const transports = [
      [L4.tcp, [6n, 6n]],
      [L4.udp, [17n, 17n]],
      [L4.icmp, [1n, 1n, 58n, 58n]],
      [L4.none, [0n, 255n]],
    ] as const;
    expect(u.map((b) => [b[Dim.src], b[Dim.dst], b[Dim.l4], b[Dim.proto]])).toEqual([V4, V6].flatMap((family) => transports.map(([l4, proto]) => [family, family, [l4, l4], proto])));
    for (const [i, a] of u.entries()) for (const b of u.slice(i + 1)) expect(regionsOverlap([a], [b])).toBe(false);
    expect(complementOf(u)).toEqual([]);
  });

  it("each field takes the values a packet can carry, -1 (absent) where a packet may lack it", () => {
    for (const b of u) {
      const v6 = b[Dim.src]![0]! >= V6_BASE;
      expect(Object.fromEntries(Object.entries(Dim).filter(([name]) => !['src', 'dst', 'l4', 'proto'].includes(name)).map(([name, d]) => [name, b[d]]))).toEqual({
        sport: [0n, 65535n],
        dport: [0n, 65535n],
        flags: [0n, 255n],
        icmpType: [0n, 255n],
        icmpCode: [0n, 255n],
        ttl: [0n, 255n],
        // IPv6: the payload length plus the 40 bytes of the header
        len: v6 ? [0n, 65575n] : [0n, 65535n],
        hdrLen: v6 ? [-1n, -1n] : [0n, 15n],
        optType: v6 ? [-1n, -1n] : [-1n, 255n],
        // the three countries named, and 3 for any other
        srcCountry: [-1n, 3n],
        dstCountry: [-1n, 3n],
        srcAsn: [-1n, 2n ** 32n - 1n],
        dstAsn: [-1n, 2n ** 32n - 1n],
        coloName: [-1n, 4n],
        coloRegion: [-1n, 1n],
        sip: [0n, 1n],
      });
    }
  });
});

describe('the work limit', () => {
  it('stops each operation that compares boxes: intersection pays one step per pair of boxes', () => {
    fc.assert(
      fc.property(region, region, (a, b) => {
        const pairs = a.length * b.length;
        expect(() => intersectRegions(a, b, new Budget(pairs))).not.toThrow();
        if (pairs === 0) return;
        expect(() => intersectRegions(a, b, new Budget(pairs - 1))).toThrow(WorkLimitReached);
        expect(() => subtractRegions(a, b, new Budget(0))).toThrow(WorkLimitReached);
        // regions whose hulls are apart share no packet: the search and the overlap know it without a step
        if (hullsApart(a, b)) expect(regionsOverlap(a, b, new Budget(0))).toBe(false);
        else expect(() => regionsOverlap(a, b, new Budget(0))).toThrow(WorkLimitReached);
        if (hullsApart(a, b)) expect(firstOutside(a, [b], new Budget(0))).toBe(a[0]);
        else expect(() => firstOutside(a, [b], new Budget(0))).toThrow(WorkLimitReached);
      }),
    );
  });
});
