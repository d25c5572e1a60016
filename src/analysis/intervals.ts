// The values one packet field may take in a class of packets: a finite union of disjoint, sorted,
// non-adjacent inclusive ranges over the integers. Every field of the header-space model is one
// such set — ports and TTL, but also addresses of both families (129-bit values, hence bigint),
// protocol numbers and the indexes of country or data-center names. Stored flat
// ([lo0, hi0, lo1, hi1, ...]) so a 10,000-entry list is one array, and every operation is a
// linear merge of two sorted arrays.

export type Intervals = readonly bigint[];

export const NONE: Intervals = [];

export function range(lo: bigint, hi: bigint): Intervals {
  return lo <= hi ? [lo, hi] : NONE;
}

export function point(v: bigint): Intervals {
  return [v, v];
}

/** Normalises arbitrary (possibly overlapping, unsorted) ranges. */
export function fromRanges(ranges: ReadonlyArray<readonly [bigint, bigint]>): Intervals {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  const out: bigint[] = [];
  for (const [lo, hi] of sorted) {
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1n) {
      if (hi > out[n - 1]!) out[n - 1] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

export function isEmpty(a: Intervals): boolean {
  return a.length === 0;
}

export function intersect(a: Intervals, b: Intervals): Intervals {
  const out: bigint[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = a[i]! > b[j]! ? a[i]! : b[j]!;
    const hi = a[i + 1]! < b[j + 1]! ? a[i + 1]! : b[j + 1]!;
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

export function overlaps(a: Intervals, b: Intervals): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

export function subtract(a: Intervals, b: Intervals): Intervals {
  const out: bigint[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i += 2) {
    let lo = a[i]!;
    const hi = a[i + 1]!;
    while (j < b.length && b[j + 1]! < lo) j += 2;
    let k = j;
    while (k < b.length && b[k]! <= hi && lo <= hi) {
      if (b[k]! > lo) out.push(lo, b[k]! - 1n);
      lo = b[k + 1]! + 1n;
      k += 2;
    }
    if (lo <= hi) out.push(lo, hi);
  }
  return out;
}

export function union(a: Intervals, b: Intervals): Intervals {
  const pairs: Array<[bigint, bigint]> = [];
  for (let i = 0; i < a.length; i += 2) pairs.push([a[i]!, a[i + 1]!]);
  for (let i = 0; i < b.length; i += 2) pairs.push([b[i]!, b[i + 1]!]);
  return fromRanges(pairs);
}

/** Whether every value of `b` is in `a`. */
export function covers(a: Intervals, b: Intervals): boolean {
  return subtract(b, a).length === 0;
}

export function contains(a: Intervals, v: bigint): boolean {
  for (let i = 0; i < a.length; i += 2) if (a[i]! <= v && v <= a[i + 1]!) return true;
  return false;
}

/** The smallest value (the set must not be empty). */
export function first(a: Intervals): bigint {
  return a[0]!;
}

export function equal(a: Intervals, b: Intervals): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
