// `in {…}` over integers against the naive model `ranges.some(([lo, hi]) => lo <= v && v <= hi)`:
// the merged ranges, the membership test of every size (one range, a linear scan up to 8, a binary
// search beyond), and a whole expression of 9 to 40 ranges compiled and interpreted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intMembership, intSearch, mergeRanges } from '../../src/lang/eval/int-set.js';
import { compile, compileWithPlan, FIREWALL_SCHEME, interpret, parse } from '../../src/lang/index.js';
import { objectBinding } from './packets.js';

type Range = [number, number];

// ranges in a small space so that they overlap, nest and touch often; some single values
const range = fc.tuple(fc.integer({ min: 0, max: 400 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12 }))).map(([lo, w]): Range => [lo, lo + w]);
// disjoint, non-adjacent ranges: every one stays a range of its own after merging
const separate = (n: { min: number; max: number }) =>
  fc.array(fc.tuple(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 0, max: 5 })), { minLength: n.min, maxLength: n.max, size: 'max' }).map((steps) => {
    const out: Range[] = [];
    let at = -1;
    for (const [gap, w] of steps) {
      const lo = at + gap;
      out.push([lo, lo + w]);
      at = lo + w;
    }
    return out;
  });

const naive = (ranges: readonly Range[], v: number) => ranges.some(([lo, hi]) => lo <= v && v <= hi);
const asBig = (ranges: readonly Range[]) => ranges.map(([a, b]) => [BigInt(a), BigInt(b)] as const);
/** Every value next to an edge of a range, and the space around. */
const probes = (ranges: readonly Range[]) => [-1, 0, ...ranges.flatMap(([lo, hi]) => [lo - 1, lo, lo + 1, hi - 1, hi, hi + 1]), 100_000];

describe('mergeRanges', () => {
  it('gives sorted, disjoint, non-adjacent ranges covering exactly the union', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 40, size: 'max' }), (ranges) => {
        const { lo, hi } = mergeRanges(asBig(ranges));
        const merged = Array.from(lo, (l, i): Range => [l, hi[i]]);
        for (let i = 0; i < merged.length; i++) {
          expect(merged[i][0]).toBeLessThanOrEqual(merged[i][1]);
          if (i > 0) expect(merged[i][0], `range ${i} starts after the one before ends + 1`).toBeGreaterThan(merged[i - 1][1] + 1);
        }
        for (const v of probes(ranges)) expect(naive(merged, v), `${v}`).toBe(naive(ranges, v));
      }),
      { numRuns: 500 },
    );
  });

  it('merges adjacent and nested ranges whatever their order', () => {
    const m = mergeRanges(asBig([[8, 9], [3, 4], [1, 2], [20, 30], [22, 25], [5, 5], [31, 31], [40, 40]]));
    expect([Array.from(m.lo), Array.from(m.hi)]).toEqual([
      [1, 8, 20, 40],
      [5, 9, 31, 40],
    ]);
  });

  it('keeps the widest end when ranges start together', () => {
    const m = mergeRanges(asBig([[10, 50], [10, 20], [10, 30]]));
    expect([Array.from(m.lo), Array.from(m.hi)]).toEqual([[10], [50]]);
  });
});

describe('intMembership', () => {
  it('agrees with the naive model for sets of 0 to 40 separate ranges, at every edge', () => {
    fc.assert(
      fc.property(separate({ min: 0, max: 40 }), fc.array(fc.integer({ min: -2, max: 2000 }), { maxLength: 20 }), (ranges, extra) => {
        const member = intMembership(mergeRanges(asBig(ranges)));
        for (const v of [...probes(ranges), ...extra]) expect(member(v), `${v} in ${JSON.stringify(ranges)}`).toBe(naive(ranges, v));
      }),
      { numRuns: 500 },
    );
  });

  it('finds every value of a set large enough for the binary search (9 to 40 ranges)', () => {
    fc.assert(
      fc.property(separate({ min: 9, max: 40 }), (ranges) => {
        const member = intMembership(mergeRanges(asBig(ranges)));
        for (const [lo, hi] of ranges) for (let v = lo - 1; v <= hi + 1; v++) expect(member(v), `${v}`).toBe(naive(ranges, v));
      }),
      { numRuns: 300 },
    );
  });
});

describe('tcp.dstport in {…} of 9 to 40 ranges', () => {
  const binding = objectBinding(FIREWALL_SCHEME);
  const port = (ranges: readonly Range[]) => fc.oneof(fc.constantFrom(...probes(ranges).filter((v) => v >= 0 && v <= 65535)), fc.integer({ min: 0, max: 65535 }));

  it('compiled and interpreted, holds exactly for the ports in one of the ranges', () => {
    fc.assert(
      fc.property(
        separate({ min: 9, max: 40 }).chain((ranges) => fc.tuple(fc.constant(ranges), fc.shuffledSubarray(ranges, { minLength: ranges.length }), fc.array(port(ranges), { minLength: 20, maxLength: 40 }))),
        ([ranges, written, ports]) => {
          const text = `tcp.dstport in {${written.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}..${hi}`)).join(' ')}}`;
          const ast = parse(text, FIREWALL_SCHEME);
          const predicate = compile(ast, binding);
          for (const v of ports) {
            const p = { 'tcp.dstport': v };
            expect(predicate(p), `${v}: ${text}`).toBe(naive(ranges, v));
            expect(interpret(ast, binding, p), `${v}: ${text}`).toBe(naive(ranges, v));
          }
          expect(predicate({})).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the search a set gets, as the plan names it', () => {
  const binding = objectBinding(FIREWALL_SCHEME);
  const plan = (n: number) => compileWithPlan(parse(`tcp.dstport in {${Array.from({ length: n }, (_, i) => `${10 * i}..${10 * i + 2}`).join(' ')}}`, FIREWALL_SCHEME), binding).plan.map((e) => e.compiled).join('\n');

  it('a scan in order up to 8 ranges, a binary search from 9', () => {
    expect([2, 8, 9, 40].map(intSearch)).toEqual(['linear scan', 'linear scan', 'binary search', 'binary search']);
    expect(plan(8)).toMatch(/-> 8 merged ranges .*, linear scan$/);
    expect(plan(9)).toMatch(/-> 9 merged ranges .*, binary search$/);
  });
});
