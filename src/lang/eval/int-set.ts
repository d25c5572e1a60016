// Int membership for `in {…}`: the set's inclusive ranges sorted and merged once, then a linear
// scan for small sets and a binary search for larger ones. Values are doubles; literals beyond
// ±2^53 lose precision, which no packet field comes near.

export interface IntRanges {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
}

/** Sorts and merges inclusive ranges (adjacent ranges merge too: {1..2 3..4} is 1..4). */
export function mergeRanges(ranges: ReadonlyArray<readonly [bigint, bigint]>): IntRanges {
  const sorted = ranges.map(([a, b]) => [Number(a), Number(b)] as const).sort((x, y) => x[0] - y[0]);
  const lo: number[] = [];
  const hi: number[] = [];
  for (const [a, b] of sorted) {
    const n = lo.length;
    if (n > 0 && a <= hi[n - 1] + 1) hi[n - 1] = Math.max(hi[n - 1], b);
    else {
      lo.push(a);
      hi.push(b);
    }
  }
  return { lo: Float64Array.from(lo), hi: Float64Array.from(hi) };
}

const LINEAR_MAX = 8;

type Search = 'linear scan' | 'binary search';

/** How a set of `n` merged ranges is searched (named in `explain`'s plan). */
export function intSearch(n: number): Search {
  return n <= LINEAR_MAX ? 'linear scan' : 'binary search';
}

const SEARCHES: Record<Search, (lo: Float64Array, hi: Float64Array) => (v: number) => boolean> = {
  'linear scan': (lo, hi) => {
    const n = lo.length;
    return (v) => {
      for (let i = 0; i < n; i++) {
        if (v < lo[i]) return false;
        if (v <= hi[i]) return true;
      }
      return false;
    };
  },
  'binary search': (lo, hi) => {
    const last = lo.length - 1;
    return (v) => {
      let a = 0;
      let b = last;
      while (a <= b) {
        const m = (a + b) >>> 1;
        if (v < lo[m]) b = m - 1;
        else if (v > hi[m]) a = m + 1;
        else return true;
      }
      return false;
    };
  },
};

/** A membership test over merged ranges, the search chosen by their number. */
export function intMembership(r: IntRanges): (v: number) => boolean {
  return SEARCHES[intSearch(r.lo.length)](r.lo, r.hi);
}
