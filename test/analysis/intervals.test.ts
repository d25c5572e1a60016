// The interval algebra (src/analysis/intervals.ts) against a brute-force model: a set of integers
// over a small universe. Every result is compared, as an array, with the model's own normal form
// (sorted, non-empty, non-adjacent ranges), so a stray or empty range fails even where membership
// would not see it. Then the two promises the header-space search relies on for its speed: a set
// that an operation leaves unchanged comes back as the same array (boxes keep sharing their sets,
// which space.ts compares by identity first, and the memo below is keyed by identity), and the
// results over large sets (a 10,000-entry list) are remembered, not recomputed, when the same two
// sets meet again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Intervals,
  NONE,
  contains,
  covers,
  equal,
  first,
  forgetRemembered,
  fromRanges,
  intersect,
  isEmpty,
  overlaps,
  point,
  range,
  rememberedValues,
  subtract,
  union,
} from '../../src/analysis/intervals.js';

const U = 60;

/** The model's set of an Intervals. */
const members = (a: Intervals): Set<number> => {
  const out = new Set<number>();
  for (let i = 0; i < a.length; i += 2) for (let v = Number(a[i]); v <= Number(a[i + 1]); v++) out.add(v);
  return out;
};

/** The normal form of a set of integers, built value by value. */
const normalForm = (s: Set<number>): bigint[] => {
  const out: bigint[] = [];
  for (const v of [...s].sort((x, y) => x - y)) {
    if (out.length > 0 && out[out.length - 1] === BigInt(v - 1)) out[out.length - 1] = BigInt(v);
    else out.push(BigInt(v), BigInt(v));
  }
  return out;
};

/** Arbitrary ranges: any order, overlapping, touching, repeated, and empty ones (lo above hi); over a
 * universe of 0 to 10 too, where two sets' bounds often meet (one set ending where the other starts). */
const rawRangesUpTo = (u: number) =>
  fc.array(
    fc.tuple(fc.integer({ min: 0, max: u }), fc.integer({ min: 0, max: u })).map(([lo, hi]) => [BigInt(lo), BigInt(hi)] as const),
    { maxLength: 8 },
  );
const rawRanges = fc.oneof(rawRangesUpTo(10), rawRangesUpTo(U));
const intervals = rawRanges.map(fromRanges);
const nonEmpty = intervals.filter((a) => a.length > 0);
// 32 ranges or more: the operations remember their results over such sets
const large = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 12 })), { minLength: 40, maxLength: 60 })
  .map((xs) => fromRanges(xs.map(([lo, n]) => [BigInt(lo), BigInt(lo + n)] as const)))
  .filter((a) => a.length >= 64);
// 14 to 18 ranges, apart: two of them hold 56 to 72 bounds together, on either side of where the
// operations start to remember their results (64)
const middling = fc
  .integer({ min: 14, max: 18 })
  .chain((n) => fc.array(fc.tuple(fc.nat(3), fc.nat(5)), { minLength: n, maxLength: n }))
  .map((xs) => fromRanges(xs.map(([at, n], i) => [BigInt(10 * i + at), BigInt(10 * i + at + n)] as const)));
const anySet = fc.oneof(intervals, middling, large);
// any two sets, or two middling ones (a fifth of those at exactly 64 bounds together)
const pairs = fc.oneof(fc.tuple(anySet, anySet), fc.tuple(middling, middling));

describe('intervals against a brute-force set model', () => {
  it('fromRanges is the normal form of the ranges given; an empty range (lo above hi) holds nothing', () => {
    fc.assert(
      fc.property(rawRanges, (ranges) => {
        const model = new Set<number>();
        for (const [lo, hi] of ranges) for (let v = Number(lo); v <= Number(hi); v++) model.add(v);
        expect(fromRanges(ranges)).toEqual(normalForm(model));
      }),
    );
    expect(fromRanges([[5n, 3n]])).toEqual(NONE);
    expect(fromRanges([[9n, 9n], [7n, 2n], [3n, 4n]])).toEqual([3n, 4n, 9n, 9n]);
  });

  it('intersect, subtract and union give exactly the normal form of the model set', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const A = members(a);
        const B = members(b);
        expect(intersect(a, b)).toEqual(normalForm(new Set([...A].filter((v) => B.has(v)))));
        expect(subtract(a, b)).toEqual(normalForm(new Set([...A].filter((v) => !B.has(v)))));
        expect(union(a, b)).toEqual(normalForm(new Set([...A, ...B])));
      }),
    );
  });

  it('equal holds exactly for the same set, built apart or as a prefix of a larger one', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, extra) => {
        expect(equal(a, [...a])).toBe(true);
        expect(equal(a, fromRanges(rangesOf(a)))).toBe(true);
        const bigger = union(a, extra);
        const same = [...members(extra)].every((v) => members(a).has(v));
        expect(equal(a, bigger)).toBe(same);
        expect(equal(bigger, a)).toBe(same);
      }),
    );
    expect(equal([1n, 2n], [1n, 2n, 5n, 6n])).toBe(false);
  });
});

describe('the queries against the model', () => {
  it('range and point hold exactly the values between their bounds; a range whose lo is above its hi is empty', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3, max: U }), fc.integer({ min: -3, max: U }), (lo, hi) => {
        const model = new Set<number>();
        for (let v = lo; v <= hi; v++) model.add(v);
        expect(range(BigInt(lo), BigInt(hi))).toEqual(normalForm(model));
        expect(isEmpty(range(BigInt(lo), BigInt(hi)))).toBe(model.size === 0);
        expect(point(BigInt(lo))).toEqual(normalForm(new Set([lo])));
      }),
    );
  });

  it('isEmpty, first, contains, covers and overlaps answer as the model set does', () => {
    fc.assert(
      fc.property(pairs, fc.nat(2), ([a, b], margin) => {
        const A = members(a);
        const B = members(b);
        expect(isEmpty(a)).toBe(A.size === 0);
        if (A.size > 0) expect(first(a)).toBe(BigInt(Math.min(...A)));
        // every bound of either set and the values either side of it
        const near = new Set([...a, ...b].flatMap((x) => [Number(x) - 1, Number(x), Number(x) + 1]));
        for (const v of [-1, ...near]) expect(contains(a, BigInt(v))).toBe(A.has(v));
        expect(covers(a, b)).toBe([...B].every((v) => A.has(v)));
        expect(covers(b, a)).toBe([...A].every((v) => B.has(v)));
        const meet = [...A].some((v) => B.has(v));
        expect(overlaps(a, b)).toBe(meet);
        expect(overlaps(b, a)).toBe(meet);
        // a set meets itself, and a range holding it, exactly when it is not empty
        expect(overlaps(a, a)).toBe(A.size > 0);
        expect(covers(a, a)).toBe(true);
        if (A.size > 0) {
          const whole = range(a[0]! - BigInt(margin), a[a.length - 1]! + BigInt(margin));
          expect(overlaps(a, whole)).toBe(true);
          expect(overlaps(whole, a)).toBe(true);
          expect(covers(whole, a)).toBe(true);
        }
      }),
    );
  });

  // Two random sets rarely interleave without meeting, so the property above reached overlaps' walk to
  // the end of one set only in some runs (a mutant that ran past the end passed one run in two). A set
  // and its gaps (built from the model) interleave by construction and never meet.
  it('a set of two ranges or more never meets its gaps, and meets them once a gap is shared', () => {
    fc.assert(
      fc.property(fc.oneof(intervals, middling), fc.nat(1), (a, k) => {
        fc.pre(a.length >= 4);
        const A = members(a);
        const lo = Number(a[0]);
        const hi = Number(a[a.length - 1]);
        const gapValues = new Set<number>();
        for (let v = lo; v <= hi; v++) if (!A.has(v)) gapValues.add(v);
        const gaps = normalForm(gapValues);
        expect(overlaps(a, gaps)).toBe(false);
        expect(overlaps(gaps, a)).toBe(false);
        expect(intersect(a, gaps)).toEqual([]);
        // one value of the set added to the gaps (the first or the last): now they meet
        const shared = normalForm(new Set([...gapValues, k === 0 ? lo : hi]));
        expect(overlaps(a, shared)).toBe(true);
        expect(overlaps(shared, a)).toBe(true);
      }),
    );
  });
});

const rangesOf = (a: Intervals): Array<readonly [bigint, bigint]> => {
  const out: Array<readonly [bigint, bigint]> = [];
  for (let i = 0; i < a.length; i += 2) out.push([a[i]!, a[i + 1]!]);
  return out;
};

describe('a set an operation leaves unchanged is the same array (no copy)', () => {
  // one range holding all of a set, its bounds at the set's own bounds or beyond (0 to 2 past)
  const holding = (a: Intervals, below: number, above: number): Intervals => range(a[0]! - BigInt(below), a[a.length - 1]! + BigInt(above));

  it('met with one range holding it, or with itself, a set is returned as it is', () => {
    fc.assert(
      fc.property(fc.oneof(nonEmpty, large), fc.nat(2), fc.nat(2), (a, below, above) => {
        const whole = holding(a, below, above);
        expect(intersect(a, whole)).toBe(a);
        // the operand the other holds (the first when each holds the other: the same set)
        expect(intersect(whole, a)).toBe(equal(whole, a) ? whole : a);
        expect(intersect(a, a)).toBe(a);
      }),
    );
  });

  it('subtracting a set that meets none of it (below it, above it, or empty) returns it as it is', () => {
    fc.assert(
      fc.property(fc.oneof(nonEmpty, large), intervals, fc.boolean(), (a, b, below) => {
        // b moved wholly below a's first value or above its last
        const shift = below ? a[0]! - BigInt(U) - 2n : a[a.length - 1]! + 1n;
        const apart = fromRanges(rangesOf(b).map(([lo, hi]) => [lo + shift, hi + shift] as const));
        expect(subtract(a, apart)).toBe(a);
        expect(subtract(a, NONE)).toBe(a);
      }),
    );
  });

  it('two large sets met again give the very result of their first meeting (remembered)', () => {
    fc.assert(
      fc.property(large, large, (a, b) => {
        const cut = intersect(a, b);
        const rest = subtract(a, b);
        expect(intersect(a, b)).toBe(cut);
        expect(subtract(a, b)).toBe(rest);
        expect(subtract(b, a)).toBe(subtract(b, a));
      }),
    );
  });
});

describe('the memo holds the results over large sets only, and counts them (rememberedValues)', () => {
  // two large sets that meet (neither holds the other in one range, nor lies apart from it)
  const meeting = fc.tuple(large, large).map(([a, b]) => [a, union(b, point(a[0]!))] as const);

  it('an intersection or a difference of large sets adds its values to the count; forgetting starts again at 0', () => {
    fc.assert(
      fc.property(meeting, ([a, b]) => {
        forgetRemembered();
        expect(rememberedValues()).toBe(0);
        const cut = intersect(a, b);
        expect(rememberedValues()).toBe(cut.length);
        const rest = subtract(a, b);
        expect(rememberedValues()).toBe(cut.length + rest.length);
        // met again: nothing new held
        intersect(a, b);
        subtract(a, b);
        expect(rememberedValues()).toBe(cut.length + rest.length);
        forgetRemembered();
        expect(rememberedValues()).toBe(0);
      }),
    );
  });

  it('overlaps of two large sets remembers their intersection (a later intersect finds it)', () => {
    fc.assert(
      fc.property(meeting, ([a, b]) => {
        forgetRemembered();
        expect(overlaps(a, b)).toBe(true);
        const held = rememberedValues();
        expect(held).toBeGreaterThan(0);
        expect(held).toBe(intersect(a, b).length);
        expect(rememberedValues()).toBe(held);
      }),
    );
  });

  it('results over small sets are not held', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, b) => {
        forgetRemembered();
        intersect(a, b);
        subtract(a, b);
        overlaps(a, b);
        covers(a, b);
        expect(rememberedValues()).toBe(0);
      }),
    );
  });
});
