// The set algebra under the analysis, checked against plain sets of numbers on small domains:
// interval operations, and box/region subtraction and the depth-first search for an uncovered box.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Intervals, covers, fromRanges, intersect, overlaps, subtract, union } from '../../src/analysis/intervals.js';
import { DIMS, type Box, type Region, firstOutside, intersectRegions, subtractRegions, withComplement } from '../../src/analysis/space.js';

const values = (a: Intervals): number[] => {
  const out: number[] = [];
  for (let i = 0; i < a.length; i += 2) for (let v = Number(a[i]); v <= Number(a[i + 1]); v++) out.push(v);
  return out;
};

const intervals = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 12 })), { maxLength: 6 }).map((xs) => fromRanges(xs.map(([lo, n]) => [BigInt(lo), BigInt(lo + n)] as const)));

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
