// The most frequent addresses in a stream too long to count every address exactly (a SYN flood from
// spoofed sources has millions), with bounded memory: the space-saving algorithm (Metwally, Agrawal
// and El Abbadi, 2005). It keeps `capacity` counters; an address not among them takes over the
// smallest counter, inheriting its count as its possible overestimate (`error`). Every address seen
// more than total / capacity times is guaranteed to be kept, and while no more than `capacity`
// distinct addresses have been seen every count is exact.
//
// Keys are four 32-bit words (an IPv6 address; IPv4 as ::ffff:a.b.c.d). Slots live in typed arrays,
// found through an open-addressing index (linear probing, backward-shift deletion), so counting
// allocates nothing.

export interface HeavyHitter {
  key: Uint32Array;
  count: number;
  /** how much `count` may overstate the true count (0: exact) */
  error: number;
}

export class HeavyHitters {
  total = 0;
  /** a counter was taken over: counts may be overestimates (see each entry's error) */
  evicted = false;
  private readonly keys: Uint32Array;
  private readonly counts: Float64Array;
  private readonly errors: Float64Array;
  /** each slot's home position in the index */
  private readonly homes: Int32Array;
  /** index position -> slot, -1 empty */
  private readonly index: Int32Array;
  private readonly mask: number;
  private used = 0;
  private floor = 0;
  private cursor = 0;

  constructor(readonly capacity = 1024) {
    this.keys = new Uint32Array(capacity * 4);
    this.counts = new Float64Array(capacity);
    this.errors = new Float64Array(capacity);
    this.homes = new Int32Array(capacity);
    // an index 8 times the counters (32 KB for 1,024): short probe runs, so a flood of distinct
    // addresses, each taking a counter over, costs 33 ns an address instead of 69 at twice the counters
    let size = 1;
    while (size < capacity * 8) size *= 2;
    this.index = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Counts one occurrence of the address of words a, b, c, d (each a signed or unsigned 32-bit integer). */
  add(a: number, b: number, c: number, d: number): void {
    this.total++;
    const home = hash(a, b, c, d) & this.mask;
    let i = home;
    for (let s = this.index[i]; s >= 0; s = this.index[i]) {
      const k = s * 4;
      const keys = this.keys;
      if (keys[k] === a >>> 0 && keys[k + 1] === b >>> 0 && keys[k + 2] === c >>> 0 && keys[k + 3] === d >>> 0) {
        this.counts[s]++;
        return;
      }
      i = (i + 1) & this.mask;
    }
    let slot: number;
    let base = 0;
    if (this.used < this.capacity) {
      slot = this.used++;
    } else {
      slot = this.smallest();
      base = this.counts[slot];
      this.evicted = true;
      this.unindex(slot);
      // the deletion may have shifted entries: find the first free position again
      i = home;
      while (this.index[i] >= 0) i = (i + 1) & this.mask;
    }
    const k = slot * 4;
    this.keys[k] = a;
    this.keys[k + 1] = b;
    this.keys[k + 2] = c;
    this.keys[k + 3] = d;
    this.counts[slot] = base + 1;
    this.errors[slot] = base;
    this.homes[slot] = home;
    this.index[i] = slot;
  }

  // A slot with the smallest count. Counts only grow and a taken-over slot gets floor + 1, so
  // `floor` (the minimum when last computed) stays a lower bound and a slot at the floor is a
  // minimum; the cursor walks round the slots, so a full rescan is needed about once per
  // `capacity` take-overs and a flood of distinct addresses costs O(1) per packet.
  private smallest(): number {
    const counts = this.counts;
    const n = this.used;
    for (;;) {
      for (let step = 0; step < n; step++) {
        const s = this.cursor;
        this.cursor = s + 1 === n ? 0 : s + 1;
        if (counts[s] === this.floor) return s;
      }
      let min = counts[0];
      for (let s = 1; s < n; s++) if (counts[s] < min) min = counts[s];
      this.floor = min;
    }
  }

  // removes a slot from the index, shifting later entries of its probe run back into the hole
  private unindex(slot: number): void {
    const mask = this.mask;
    let hole = this.homes[slot];
    while (this.index[hole] !== slot) hole = (hole + 1) & mask;
    let j = hole;
    for (;;) {
      j = (j + 1) & mask;
      const s = this.index[j];
      if (s < 0) break;
      // s may move into the hole unless its home lies cyclically in (hole, j]
      const h = this.homes[s];
      const stays = hole <= j ? h > hole && h <= j : h > hole || h <= j;
      if (!stays) {
        this.index[hole] = s;
        hole = j;
      }
    }
    this.index[hole] = -1;
  }

  /** The `n` largest counters, largest first (ties: smaller error first). */
  top(n: number): HeavyHitter[] {
    const out: HeavyHitter[] = [];
    for (let s = 0; s < this.used; s++) {
      out.push({ key: this.keys.slice(s * 4, s * 4 + 4), count: this.counts[s], error: this.errors[s] });
    }
    return out.sort((x, y) => y.count - x.count || x.error - y.error).slice(0, n);
  }
}

function hash(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ b ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ c ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ d ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
