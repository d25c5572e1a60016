// Membership in large address sets (managed lists, account lists, rule sets such as
// `ip.src in {10.0.0.0/8 192.0.2.1}`) with 100k+ entries. A set is built once from ranges and
// prefixes, then asked millions of times, so build() does the work: it sorts the ranges and merges
// overlapping and adjacent ones, leaving disjoint ascending ranges. A lookup is then one binary
// search for the last range starting at or below the address, and allocates nothing.
//
// IPv4 ranges live in two Uint32Arrays (starts, ends). IPv6 ranges live as 4-word tuples in one
// Uint32Array each for starts and ends, compared word by word.

import { mask4, mask6Word } from './cidr.js';

// Large IPv4 sets also keep, for each /16, the first range ending in or after it: the range
// holding an address lies between its /16's entry and the next one's, so the binary search runs
// over a handful of ranges instead of the whole set (random lookups in 100k ranges: ~4x faster).
const BUCKETED = 1024;
const NO_BUCKETS = new Uint32Array(0);

function bucketIndex(hi: Uint32Array): Uint32Array {
  const first = new Uint32Array(65537);
  let k = 0;
  for (let top = 0; top <= 65536; top++) {
    const start = top * 65536;
    while (k < hi.length && hi[k] < start) k++;
    first[top] = k;
  }
  return first;
}

/** An immutable set of IPv4 and IPv6 addresses; build it with IpSetBuilder. */
export class IpSet {
  /** The set with no addresses. */
  static readonly EMPTY = new IpSet(new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new Uint32Array(0));

  private readonly bucket4: Uint32Array;

  /** @internal use IpSetBuilder */
  constructor(
    private readonly lo4: Uint32Array,
    private readonly hi4: Uint32Array,
    private readonly lo6: Uint32Array,
    private readonly hi6: Uint32Array,
  ) {
    this.bucket4 = lo4.length >= BUCKETED ? bucketIndex(hi4) : NO_BUCKETS;
  }

  /** Number of disjoint IPv4 ranges after merging. */
  get ranges4(): number {
    return this.lo4.length;
  }

  /** Number of disjoint IPv6 ranges after merging. */
  get ranges6(): number {
    return this.lo6.length >> 2;
  }

  /** Visits the disjoint IPv4 ranges in ascending order (for static analysis, not per packet). */
  forEachRange4(visit: (lo: number, hi: number) => void): void {
    for (let i = 0; i < this.lo4.length; i++) visit(this.lo4[i]!, this.hi4[i]!);
  }

  /** Visits the disjoint IPv6 ranges in ascending order as 4-word views (for static analysis). */
  forEachRange6(visit: (lo: Uint32Array, hi: Uint32Array) => void): void {
    for (let i = 0; i < this.lo6.length; i += 4) visit(this.lo6.subarray(i, i + 4), this.hi6.subarray(i, i + 4));
  }

  /** Whether the IPv4 address (a 32-bit number, signed or unsigned) is in the set. */
  has4(v: number): boolean {
    const x = v >>> 0;
    const lo = this.lo4;
    let a = 0;
    let b = lo.length;
    if (b >= BUCKETED) {
      const top = x >>> 16;
      a = this.bucket4[top];
      b = Math.min(this.bucket4[top + 1] + 1, b);
    }
    while (a < b) {
      const m = (a + b) >>> 1;
      if (lo[m] <= x) a = m + 1;
      else b = m;
    }
    return a > 0 && x <= this.hi4[a - 1];
  }

  /** Whether the IPv6 address (four words, most significant first) is in the set. */
  has6(w: Uint32Array): boolean {
    const lo = this.lo6;
    let a = 0;
    let b = lo.length >> 2;
    const w0 = w[0];
    while (a < b) {
      const m = (a + b) >>> 1;
      const l0 = lo[m << 2];
      if (l0 < w0 || (l0 === w0 && compareAt(lo, m << 2, w, 0) <= 0)) a = m + 1;
      else b = m;
    }
    return a > 0 && compareAt(w, 0, this.hi6, (a - 1) << 2) <= 0;
  }
}

function compareAt(x: Uint32Array, xi: number, y: Uint32Array, yi: number): number {
  for (let i = 0; i < 4; i++) {
    const p = x[xi + i];
    const q = y[yi + i];
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

// Whether the range starting at lo[li] touches or overlaps one ending at hi[hi_] (lo <= hi + 1).
function touches6(lo: Uint32Array, li: number, hi: Uint32Array, hj: number): boolean {
  if (compareAt(lo, li, hi, hj) <= 0) return true;
  let carry = 1;
  for (let i = 3; i >= 0; i--) {
    const next = hi[hj + i] + carry;
    const word = next >>> 0;
    carry = next > 0xffffffff ? 1 : 0;
    if (lo[li + i] !== word) return false;
  }
  return carry === 0;
}

function grow(a: Uint32Array, need: number): Uint32Array {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Collects ranges and prefixes, then builds an IpSet (sorted, merged). Reusable after build(). */
export class IpSetBuilder {
  private lo4: Uint32Array = new Uint32Array(64);
  private hi4: Uint32Array = new Uint32Array(64);
  private n4 = 0;
  private lo6: Uint32Array = new Uint32Array(64);
  private hi6: Uint32Array = new Uint32Array(64);
  private n6 = 0;

  /** Adds the IPv4 addresses lo..hi inclusive (unsigned or signed 32-bit numbers, lo <= hi). */
  addRange4(lo: number, hi: number): this {
    const l = lo >>> 0;
    const h = hi >>> 0;
    if (l > h) throw new RangeError(`IPv4 range start ${l} is above its end ${h}`);
    this.lo4 = grow(this.lo4, this.n4 + 1);
    this.hi4 = grow(this.hi4, this.n4 + 1);
    this.lo4[this.n4] = l;
    this.hi4[this.n4] = h;
    this.n4++;
    return this;
  }

  /** Adds the IPv6 addresses lo..hi inclusive (four words each, lo <= hi). */
  addRange6(lo: Uint32Array, hi: Uint32Array): this {
    if (compareAt(lo, 0, hi, 0) > 0) throw new RangeError('IPv6 range start is above its end');
    const at = this.n6 << 2;
    this.lo6 = grow(this.lo6, at + 4);
    this.hi6 = grow(this.hi6, at + 4);
    for (let i = 0; i < 4; i++) {
      this.lo6[at + i] = lo[i];
      this.hi6[at + i] = hi[i];
    }
    this.n6++;
    return this;
  }

  /** Adds addr/len (host bits of addr are ignored). */
  addPrefix4(addr: number, len: number): this {
    if (!(Number.isInteger(len) && len >= 0 && len <= 32)) throw new RangeError(`IPv4 prefix length ${len} is not 0..32`);
    const m = mask4(len);
    const lo = (addr & m) >>> 0;
    return this.addRange4(lo, (lo | ~m) >>> 0);
  }

  /** Adds addr/len (host bits of addr are ignored). */
  addPrefix6(addr: Uint32Array, len: number): this {
    if (!(Number.isInteger(len) && len >= 0 && len <= 128)) throw new RangeError(`IPv6 prefix length ${len} is not 0..128`);
    const lo = new Uint32Array(4);
    const hi = new Uint32Array(4);
    for (let i = 0; i < 4; i++) {
      const m = mask6Word(len, i);
      lo[i] = (addr[i] & m) >>> 0;
      hi[i] = (lo[i] | ~m) >>> 0;
    }
    return this.addRange6(lo, hi);
  }

  /** Sorts and merges everything added so far into an IpSet: O(n log n). */
  build(): IpSet {
    return new IpSet(...this.merged4(), ...this.merged6());
  }

  private merged4(): [Uint32Array, Uint32Array] {
    const n = this.n4;
    const src = this.lo4;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => src[a] - src[b]);
    const lo = new Uint32Array(n);
    const hi = new Uint32Array(n);
    let k = -1;
    for (let j = 0; j < n; j++) {
      const i = order[j];
      const l = src[i];
      const h = this.hi4[i];
      if (k >= 0 && l <= hi[k] + 1) {
        if (h > hi[k]) hi[k] = h;
      } else {
        k++;
        lo[k] = l;
        hi[k] = h;
      }
    }
    return [lo.slice(0, k + 1), hi.slice(0, k + 1)];
  }

  private merged6(): [Uint32Array, Uint32Array] {
    const n = this.n6;
    const src = this.lo6;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => compareAt(src, a << 2, src, b << 2));
    const lo = new Uint32Array(n << 2);
    const hi = new Uint32Array(n << 2);
    let k = -1;
    for (let j = 0; j < n; j++) {
      const i = order[j] << 2;
      if (k >= 0 && touches6(src, i, hi, k << 2)) {
        if (compareAt(this.hi6, i, hi, k << 2) > 0) hi.set(this.hi6.subarray(i, i + 4), k << 2);
      } else {
        k++;
        lo.set(src.subarray(i, i + 4), k << 2);
        hi.set(this.hi6.subarray(i, i + 4), k << 2);
      }
    }
    return [lo.slice(0, (k + 1) << 2), hi.slice(0, (k + 1) << 2)];
  }
}
