// The set algebra under the analysis, checked against plain sets of numbers on small domains:
// interval operations, and box/region subtraction and the depth-first search for an uncovered box.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Intervals, contains, covers, equal, first, fromRanges, intersect, isEmpty, overlaps, point, range, subtract, union } from '../../src/analysis/intervals.js';
import { DIMS, type Box, type Region, firstOutside, intersectRegions, subtractRegions, withComplement } from '../../src/analysis/space.js';

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
const box = fc.tuple(intervals, intervals).filter(([x, y]) => x.length > 0 && y.length > 0).map(([x, y]): Box => [x, y, ...Array.from({ length: DIMS - 2 }, () => REST)]);
const region = fc.array(box, { maxLength: 4 });

function points(r: Region): Set<string> {
  const out = new Set<string>();
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

// every region of these tests lies in this box, so a complement within it is one within the universe
const WHOLE: Region = [[[0n, 60n], [0n, 60n], ...Array.from({ length: DIMS - 2 }, () => REST)]];

describe('firstOutside with known complements', () => {
  it('branching on a complement finds an uncovered box exactly when one exists; the regions it used cover the rest', () => {
    fc.assert(
      fc.property(region, fc.array(fc.tuple(region, fc.boolean()), { maxLength: 5 }), (r, parts) => {
        const minus = parts.map(([m, known]) => (known ? withComplement(m.slice(), subtractRegions(WHOLE, m)) : m));
        const R = points(r);
        const M = points(minus.flat());
        const used = new Set<number>();
        const found = firstOutside(r, minus, undefined, used);
        expect(found !== null).toBe([...R].some((p) => !M.has(p)));
        if (found !== null) for (const p of points([found])) expect(R.has(p) && !M.has(p)).toBe(true);
        else expect([...R].every((p) => points([...used].flatMap((k) => minus[k]!)).has(p))).toBe(true);
      }),
    );
  });
});
