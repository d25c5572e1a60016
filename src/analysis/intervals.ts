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

/** Whether `b` is one range holding every value of `a` (the common case: an unconstrained dimension). */
function spans(b: Intervals, a: Intervals): boolean {
  return b.length === 2 && a.length > 0 && b[0]! <= a[0]! && a[a.length - 1]! <= b[1]!;
}

function apart(a: Intervals, b: Intervals): boolean {
  return a.length === 0 || b.length === 0 || a[a.length - 1]! < b[0]! || b[b.length - 1]! < a[0]!;
}

export function intersect(a: Intervals, b: Intervals): Intervals {
  if (a === b || spans(b, a)) return a;
  if (spans(a, b)) return b;
  if (apart(a, b)) return NONE;
  return remembered('intersected', a, b, intersectSorted);
}

function intersectSorted(a: Intervals, b: Intervals): Intervals {
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
  if (apart(a, b)) return false;
  if (a === b || spans(a, b) || spans(b, a)) return true;
  // large sets meet the same ones again and again: their intersection is remembered
  if (a.length + b.length >= LARGE) return !isEmpty(intersect(a, b));
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

// Large sets (a 10,000-entry list) meet the same few sets again and again — the list against the
// whole address axis in every rule below it — so results over large inputs are remembered by identity.
// The memo is bounded: a result lives as long as both its inputs, and the pieces of a search are
// results of long-lived sets, then inputs themselves, so an unbounded memo keeps every piece any
// search ever cut (gigabytes on 100 rules of `and`ed `not (… and …)` terms). Past REMEMBERED values
// held, it starts again empty.
const LARGE = 64;
const REMEMBERED = 1 << 23;
type Memo = WeakMap<Intervals, WeakMap<Intervals, Intervals>>;
let subtracted: Memo = new WeakMap();
let intersected: Memo = new WeakMap();
let held = 0;

/** Forgets every remembered result (the memo's bound; tests). */
export function forgetRemembered(): void {
  subtracted = new WeakMap();
  intersected = new WeakMap();
  held = 0;
}

function remembered(memo: 'subtracted' | 'intersected', a: Intervals, b: Intervals, compute: (a: Intervals, b: Intervals) => Intervals): Intervals {
  if (a.length + b.length < LARGE) return compute(a, b);
  const results = memo === 'subtracted' ? subtracted : intersected;
  let inner = results.get(a);
  if (inner === undefined) results.set(a, (inner = new WeakMap()));
  let r = inner.get(b);
  if (r === undefined) {
    r = compute(a, b);
    held += r.length;
    if (held > REMEMBERED) forgetRemembered();
    else inner.set(b, r);
  }
  return r;
}

/** Values the memo holds now (for tests of its bound). */
export function rememberedValues(): number {
  return held;
}

export function subtract(a: Intervals, b: Intervals): Intervals {
  if (a === b || spans(b, a)) return NONE;
  if (apart(a, b)) return a;
  return remembered('subtracted', a, b, subtractSorted);
}

function subtractSorted(a: Intervals, b: Intervals): Intervals {
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
