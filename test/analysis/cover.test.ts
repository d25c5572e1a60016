// smallestCover (src/analysis/cover.ts, lint's blocked_by) against brute force over points of two
// dimensions: given candidates that together cover a target, the set returned covers it, every
// member is needed (dropping any one leaves a point uncovered), and where at most EXACT_LIMIT
// candidates meet the target no smaller set of them covers it. Past the work limit it returns the
// set it has, which still covers the target, marked not minimal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Budget } from '../../src/analysis/budget.js';
import { EXACT_LIMIT, smallestCover } from '../../src/analysis/cover.js';
import { fromRanges, type Intervals } from '../../src/analysis/intervals.js';
import { DIMS, type Box, type Region } from '../../src/analysis/space.js';

const REST: Intervals = [0n, 0n];
const ivl = fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 8 })).map(([lo, n]) => fromRanges([[BigInt(lo), BigInt(lo + n)]]));
const boxOf = (x: Intervals, y: Intervals): Box => [x, y, ...Array.from({ length: DIMS - 2 }, () => REST)];
const box = fc.tuple(ivl, ivl).map(([x, y]) => boxOf(x, y));

function points(r: Region): Set<string> {
  const out = new Set<string>();
  for (const b of r)
    for (let i = 0; i < b[0]!.length; i += 2)
      for (let x = b[0]![i]!; x <= b[0]![i + 1]!; x++)
        for (let j = 0; j < b[1]!.length; j += 2) for (let y = b[1]![j]!; y <= b[1]![j + 1]!; y++) out.add(`${x},${y}`);
  return out;
}

const covers = (target: Set<string>, regions: Region[]): boolean => {
  const P = points(regions.flat());
  return [...target].every((p) => P.has(p));
};

function* subsets(n: number, k: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === k) yield prefix;
  else for (let i = start; i < n; i++) yield* subsets(n, k, i + 1, [...prefix, i]);
}

/** Candidates covering a target box: random boxes, and the target cut in two (a cover of two). */
const problem = fc.tuple(box, fc.oneof(fc.array(box, { maxLength: 16 }), fc.array(box, { minLength: 40, maxLength: 50 })), fc.nat(40)).map(([t, others, at]) => {
  const [lo, hi] = [t[0]![0]!, t[0]![1]!];
  const cut = lo + (BigInt(at) % (hi - lo + 1n));
  const halves = [boxOf([lo, cut], t[1]!), ...(cut < hi ? [boxOf([cut + 1n, hi], t[1]!)] : [])];
  return { target: [t] as Region, candidates: [...others, ...halves].map((b) => [b] as Region) };
});

describe('smallestCover', () => {
  it('covers the target with no member to spare, and with the fewest candidates when few meet the target', () => {
    let large = 0;
    fc.assert(
      fc.property(problem, ({ target, candidates }) => {
        const T = points(target);
        const all = candidates.map((_, i) => i);
        const { indexes, minimal } = smallestCover(target, candidates, all);
        expect(minimal).toBe(true);
        expect(new Set(indexes).size).toBe(indexes.length);
        expect(covers(T, indexes.map((i) => candidates[i]!))).toBe(true);
        for (const i of indexes) expect(covers(T, indexes.filter((j) => j !== i).map((j) => candidates[j]!))).toBe(false);
        const meeting = all.filter((i) => [...points(candidates[i]!)].some((p) => T.has(p)));
        if (meeting.length > EXACT_LIMIT) {
          large++;
          return;
        }
        for (let k = 1; k < indexes.length; k++)
          for (const s of subsets(meeting.length, k)) expect(covers(T, s.map((j) => candidates[meeting[j]!]!))).toBe(false);
      }),
      { numRuns: 150 },
    );
    expect(large).toBeGreaterThan(0);
  });

  it('with exactly EXACT_LIMIT candidates meeting the target, still the fewest (not the first inclusion-minimal set)', () => {
    const x = (...v: Array<[number, number]>): Region => [boxOf(fromRanges(v.map(([a, b]) => [BigInt(a), BigInt(b)] as const)), REST)];
    // {1 4} {2 5} {3 6} is inclusion-minimal; {1..3} {4..6} is the minimum; seven more points of it to spare
    const candidates = [x([1, 1], [4, 4]), x([2, 2], [5, 5]), x([3, 3], [6, 6]), x([1, 3]), x([4, 6]), ...[1, 2, 3, 4, 5, 6, 2].map((v) => x([v, v]))];
    expect(candidates.length).toBe(EXACT_LIMIT);
    expect(smallestCover(x([1, 6]), candidates, candidates.map((_, i) => i))).toEqual({ indexes: [3, 4], minimal: true });
  });

  it('past the work limit returns the set it has (still a cover), not minimal', () => {
    fc.assert(
      fc.property(problem, fc.integer({ min: 1, max: 40 }), ({ target, candidates }, limit) => {
        const all = candidates.map((_, i) => i);
        const { indexes, minimal } = smallestCover(target, candidates, all, new Budget(limit));
        expect(covers(points(target), indexes.map((i) => candidates[i]!))).toBe(true);
        if (!minimal) return;
        expect(smallestCover(target, candidates, all).indexes.length).toBe(indexes.length);
      }),
    );
    const { target, candidates } = fc.sample(problem.filter((p) => p.candidates.length > 3), { seed: 1, numRuns: 1 })[0]!;
    expect(smallestCover(target, candidates, candidates.map((_, i) => i), new Budget(1))).toEqual({ indexes: candidates.map((_, i) => i), minimal: false });
  });
});
