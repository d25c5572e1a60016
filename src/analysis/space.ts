// The header space: every packet that can reach the network firewall, as a point in a product of
// finite integer domains, one dimension per packet property the Rules language can see. A class of
// packets is a Box (one Intervals per dimension); an expression's packets are a Region (a finite
// union of boxes). Boolean algebra on regions is intersection and box subtraction, so `not`,
// `!=` and "decided by no earlier rule" are all exact.
//
// How the packet model enters: the universe is not one box but eight — {IPv4, IPv6} × {TCP, UDP,
// ICMP, no transport header} — and every region is built inside it, so a class can never mix an
// IPv4 source with an IPv6 destination or carry TCP and UDP ports at once. A field a packet lacks
// takes the value -1 in its own dimension (ip.hdr_len on IPv6, countries the database did not
// know), or, for transport fields, is absent because the class's `l4` dimension says another
// transport. Addresses of both families share one axis: IPv4 a.b.c.d is its 32-bit value, IPv6
// address x is 2^32 + x, so `ip.src != 10.0.0.1` (true for every IPv6 packet, as in the engine) is
// just the complement of one point.
import { layerFields } from '../layers/index.js';
import { Budget } from './budget.js';
import { type Intervals, NONE, covers, equal, intersect, isEmpty, overlaps, point, range, subtract, union } from './intervals.js';

export const Dim = {
  src: 0,
  dst: 1,
  /** which transport header the packet carries: L4.* */
  l4: 2,
  proto: 3,
  sport: 4,
  dport: 5,
  flags: 6,
  icmpType: 7,
  icmpCode: 8,
  ttl: 9,
  len: 10,
  hdrLen: 11,
  optType: 12,
  srcCountry: 13,
  dstCountry: 14,
  srcAsn: 15,
  dstAsn: 16,
  coloName: 17,
  coloRegion: 18,
  sip: 19,
} as const;

/**
 * The dimensions of the header fields a layer adds beyond those above (src/layers/: a field a test
 * defines), after them: each field's dimension by its name, and the field's largest value.
 */
export const LAYER_DIMS: ReadonlyMap<string, { readonly d: number; readonly max: number }> = new Map(
  layerFields()
    .flatMap((f) => (f.at !== undefined && f.entry.kind === 'int' && f.entry.dim !== undefined && !Object.hasOwn(Dim, f.entry.dim) ? [[f.entry.dim, f.entry.max] as const] : []))
    .map(([dim, max], i) => [dim, { d: 20 + i, max }]),
);

export const DIMS = 20 + LAYER_DIMS.size;

/** The dimension of a field's `dim` name (the registry's), if the space has it. */
export function dimIndex(name: string): number | undefined {
  return Object.hasOwn(Dim, name) ? Dim[name as keyof typeof Dim] : LAYER_DIMS.get(name)?.d;
}

export const L4 = { tcp: 0n, udp: 1n, icmp: 2n, none: 3n } as const;

export const ABSENT = -1n;
export const V6_BASE = 1n << 32n;
export const V4_SPACE = range(0n, V6_BASE - 1n);
export const V6_SPACE = range(V6_BASE, V6_BASE + (1n << 128n) - 1n);
export const ASN_MAX = (1n << 32n) - 1n;

export type Box = readonly Intervals[];
export type Region = readonly Box[];

export const EMPTY_REGION: Region = [];

/**
 * Sizes of the finite name domains: values 0..size-1 are names; for countries, `size` also stands
 * for "any other code" (data-center names and regions come from a fixed table: no other value).
 */
export interface NameDomains {
  readonly countries: number;
  readonly coloNames: number;
  readonly coloRegions: number;
}

const PORTS = range(0n, 65535n);
const BYTE = range(0n, 255n);
const ASNS = range(ABSENT, ASN_MAX);
/** IPv6 ip.len is the payload length + 40, so it can exceed 65535 */
const V6_LENGTHS = range(0n, 65535n + 40n);

/** The eight boxes of packets that can reach the firewall. */
export function universe(names: NameDomains): Region {
  const boxes: Box[] = [];
  const countries = range(ABSENT, BigInt(names.countries));
  const coloNames = range(ABSENT, BigInt(names.coloNames - 1));
  const coloRegions = range(ABSENT, BigInt(names.coloRegions - 1));
  for (const v6 of [false, true]) {
    const transports: Array<[bigint, Intervals]> = [
      [L4.tcp, point(6n)],
      [L4.udp, point(17n)],
      [L4.icmp, [1n, 1n, 58n, 58n]],
      [L4.none, BYTE],
    ];
    for (const [l4, proto] of transports) {
      const b: Intervals[] = new Array(DIMS);
      b[Dim.src] = v6 ? V6_SPACE : V4_SPACE;
      b[Dim.dst] = v6 ? V6_SPACE : V4_SPACE;
      b[Dim.l4] = point(l4);
      b[Dim.proto] = proto;
      b[Dim.sport] = PORTS;
      b[Dim.dport] = PORTS;
      b[Dim.flags] = BYTE;
      b[Dim.icmpType] = BYTE;
      b[Dim.icmpCode] = BYTE;
      b[Dim.ttl] = BYTE;
      b[Dim.len] = v6 ? V6_LENGTHS : PORTS;
      b[Dim.hdrLen] = v6 ? point(ABSENT) : range(0n, 15n);
      b[Dim.optType] = v6 ? point(ABSENT) : range(ABSENT, 255n);
      b[Dim.srcCountry] = countries;
      b[Dim.dstCountry] = countries;
      b[Dim.srcAsn] = ASNS;
      b[Dim.dstAsn] = ASNS;
      b[Dim.coloName] = coloNames;
      b[Dim.coloRegion] = coloRegions;
      b[Dim.sip] = range(0n, 1n);
      for (const { d, max } of LAYER_DIMS.values()) b[d] = range(0n, BigInt(max));
      boxes.push(b);
    }
  }
  return withComplement(boxes, []);
}

/** A box constraining only the given dimensions (the rest unconstrained: intersect it with a region). */
export type Constraint = ReadonlyMap<number, Intervals>;

export function constrain(region: Region, c: Constraint): Region {
  const out: Box[] = [];
  for (const box of region) {
    let b: Intervals[] | null = null;
    for (const [d, set] of c) {
      const v = intersect(box[d]!, set);
      if (isEmpty(v)) {
        b = null;
        break;
      }
      b ??= box.slice();
      b[d] = v;
    }
    if (b !== null || c.size === 0) out.push(b ?? box);
  }
  return out;
}

// Sets of many ranges (a list's addresses) cost a merge to compare, the rest almost nothing, so
// boxes are compared on the small sets first: most pairs are apart there (another transport).
const SMALL = 8;
const isLarge = (a: Intervals, b: Intervals): boolean => a.length + b.length > SMALL;

function boxesOverlap(a: Box, b: Box): boolean {
  for (let d = 0; d < DIMS; d++) if (a[d] !== b[d] && !isLarge(a[d]!, b[d]!) && !overlaps(a[d]!, b[d]!)) return false;
  for (let d = 0; d < DIMS; d++) if (a[d] !== b[d] && isLarge(a[d]!, b[d]!) && !overlaps(a[d]!, b[d]!)) return false;
  return true;
}

// most pairs of boxes are apart: build the intersection here and copy it only when it is not empty
const scratch: Intervals[] = new Array(DIMS);

function intersectBoxes(a: Box, b: Box): Box | null {
  if (!boxesOverlap(a, b)) return null;
  for (let d = 0; d < DIMS; d++) {
    const v = a[d] === b[d] ? a[d]! : intersect(a[d]!, b[d]!);
    if (isEmpty(v)) return null;
    scratch[d] = v;
  }
  return scratch.slice();
}

/** a − b as disjoint boxes. */
function subtractBox(a: Box, b: Box, out: Box[]): void {
  if (!boxesOverlap(a, b)) {
    out.push(a);
    return;
  }
  const cur = a.slice();
  for (let d = 0; d < DIMS; d++) {
    if (cur[d] === b[d]) continue;
    const outside = subtract(cur[d]!, b[d]!);
    if (isEmpty(outside)) continue;
    const piece = cur.slice();
    piece[d] = outside;
    out.push(piece);
    cur[d] = intersect(cur[d]!, b[d]!);
  }
}

// An index of a region's boxes by their ranges on one field (of the addresses and ports, the one
// that tells them apart best), so that the boxes meeting a box are found without comparing every
// pair: a rule of many `or`-ed parts on different prefixes less the earlier rules' parts
// (decisions.ts decidedRegion), intersected with them or searched against them. Built once per
// region (regions are immutable) and only for regions of INDEXED boxes or more.
const INDEXED = 16;
const INDEX_DIMS = [Dim.src, Dim.dst, Dim.dport, Dim.sport];

interface Indexed {
  readonly lo: bigint;
  readonly hi: bigint;
  /** the box's place in the region (candidates are given in the region's order) */
  readonly at: number;
}

interface BoxIndex {
  readonly d: number;
  /** the boxes at most `width` wide on d, by their lowest value there */
  readonly narrow: readonly Indexed[];
  readonly width: bigint;
  /** the wider boxes, candidates for every box */
  readonly wide: readonly number[];
}

const indexes = new WeakMap<Region, BoxIndex>();

function spanOn(box: Box, d: number): [bigint, bigint] {
  const set = box[d]!;
  return [set[0]!, set[set.length - 1]!];
}

function indexOf(r: Region): BoxIndex {
  let index = indexes.get(r);
  if (index !== undefined) return index;
  // on each field: the width 7/8 of the boxes are within, against the whole range the region spans there
  let best: { d: number; width: bigint; score: number } | null = null;
  for (const d of INDEX_DIMS) {
    const spans = r.map((b) => spanOn(b, d));
    const widths = spans.map(([lo, hi]) => hi - lo).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const width = widths[Math.ceil((widths.length * 7) / 8) - 1]!;
    const lo = spans.reduce((m, [x]) => (x < m ? x : m), spans[0]![0]);
    const hi = spans.reduce((m, [, x]) => (x > m ? x : m), spans[0]![1]);
    const score = Number(width + 1n) / Number(hi - lo + 1n);
    if (best === null || score < best.score) best = { d, width, score };
  }
  const { d, width } = best!;
  const narrow: Indexed[] = [];
  const wide: number[] = [];
  r.forEach((b, at) => {
    const [lo, hi] = spanOn(b, d);
    if (hi - lo <= width) narrow.push({ lo, hi, at });
    else wide.push(at);
  });
  narrow.sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : x.at - y.at));
  index = { d, narrow, width, wide };
  indexes.set(r, index);
  return index;
}

/**
 * The boxes of `r` that may meet `box` (every box that does, and some that do not), in the
 * region's order: all of them for a small region, else those the index finds.
 */
export function meeting(r: Region, box: Box): readonly Box[] {
  if (r.length < INDEXED) return r;
  const { d, narrow, width, wide } = indexOf(r);
  const [qlo, qhi] = spanOn(box, d);
  // the first box whose lowest value can be within `width` below the query's
  let a = 0;
  let b = narrow.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (narrow[m]!.lo < qlo - width) a = m + 1;
    else b = m;
  }
  const at: number[] = wide.slice();
  for (let k = a; k < narrow.length && narrow[k]!.lo <= qhi; k++) if (narrow[k]!.hi >= qlo) at.push(narrow[k]!.at);
  if (at.length === r.length) return r;
  at.sort((x, y) => x - y);
  return at.map((k) => r[k]!);
}

/** Every packet in both; `budget` pays for each pair of boxes compared. */
export function intersectRegions(a: Region, b: Region, budget?: Budget): Region {
  if (a === b) return a;
  const out: Box[] = [];
  if (b.length < INDEXED) {
    budget?.spend(a.length * b.length);
    for (const x of a) {
      for (const y of b) {
        const z = intersectBoxes(x, y);
        if (z !== null) out.push(z);
      }
    }
    return out;
  }
  // the boxes of b each box of a may meet, found by b's index
  for (const x of a) {
    const near = meeting(b, x);
    budget?.spend(1 + near.length);
    for (const y of near) {
      const z = intersectBoxes(x, y);
      if (z !== null) out.push(z);
    }
  }
  return out;
}

/** Every packet of `a` not in `b`; `budget` pays for each box cut and each piece built. */
export function subtractRegions(a: Region, b: Region, budget?: Budget): Region {
  if (b.length >= INDEXED) {
    // each box of a cut by the boxes of b that may meet it, in b's order: the same boxes as cutting by each of b in turn
    const out: Box[] = [];
    for (const x of a) {
      let pieces: Box[] = [x];
      const near = meeting(b, x);
      budget?.spend(1);
      for (const y of near) {
        if (pieces.length === 0) break;
        const next: Box[] = [];
        for (const piece of pieces) subtractBox(piece, y, next);
        budget?.spend(pieces.length + next.length);
        pieces = next;
      }
      out.push(...pieces);
    }
    return out;
  }
  let cur: Box[] = a.slice();
  for (const y of b) {
    if (cur.length === 0) break;
    const next: Box[] = [];
    for (const x of cur) subtractBox(x, y, next);
    budget?.spend(cur.length + next.length);
    cur = next;
  }
  return cur;
}

export function unionRegions(a: Region, b: Region): Region {
  return a.length === 0 ? b : b.length === 0 ? a : [...a, ...b];
}

/** Whether some packet is in both; `budget` pays for each pair of boxes compared. */
export function regionsOverlap(a: Region, b: Region, budget?: Budget): boolean {
  if (hullsApart(a, b)) return false;
  for (const x of a) {
    const near = meeting(b, x);
    budget?.spend(near === b ? b.length : 1 + near.length);
    for (const y of near) if (boxesOverlap(x, y)) return true;
  }
  return false;
}

export function isEmptyRegion(r: Region): boolean {
  return r.length === 0;
}

// Complements within the universe, where the analysis has them for free: a `not`'s operand, the
// complements of an `and`'s parts put together (expression.ts). A rule like `not (a and b)` is many
// boxes but its complement one; the search branches on the few boxes instead of cutting by the many.
const complements = new WeakMap<Region, Region>();

/** Records that `co` is the complement of `r` within the universe (so `r` is `co`'s); returns `r`. */
export function withComplement(r: Region, co: Region): Region {
  complements.set(r, co);
  complements.set(co, r);
  return r;
}

export function complementOf(r: Region): Region | undefined {
  return complements.get(r);
}

// The hull of a region: per dimension its lowest and highest value. Two regions whose hulls are apart
// in some dimension share no packet, which is known without comparing their boxes pairwise (rules on
// different customers' prefixes: most pairs of a large ruleset). Remembered per region.
const hulls = new WeakMap<Region, { lo: bigint[]; hi: bigint[] }>();

function hullOf(r: Region): { lo: bigint[]; hi: bigint[] } {
  let h = hulls.get(r);
  if (h === undefined) {
    const lo = new Array<bigint>(DIMS);
    const hi = new Array<bigint>(DIMS);
    for (const box of r) {
      for (let d = 0; d < DIMS; d++) {
        const set = box[d]!;
        if (set.length === 0) continue;
        if (lo[d] === undefined || set[0]! < lo[d]!) lo[d] = set[0]!;
        if (hi[d] === undefined || set[set.length - 1]! > hi[d]!) hi[d] = set[set.length - 1]!;
      }
    }
    h = { lo, hi };
    hulls.set(r, h);
  }
  return h;
}

/** Whether the hulls of two regions are apart in some dimension (then they share no packet; false says nothing). */
export function hullsApart(a: Region, b: Region): boolean {
  if (a.length === 0 || b.length === 0) return true;
  const x = hullOf(a);
  const y = hullOf(b);
  for (let d = 0; d < DIMS; d++) if (x.hi[d]! < y.lo[d]! || y.hi[d]! < x.lo[d]!) return true;
  return false;
}

/** A region of `minus` still to avoid in a piece of the search: its boxes that meet the piece. */
interface Pending {
  readonly k: number;
  readonly boxes: readonly Box[];
  readonly complement: Region | undefined;
  /** boxes is the whole region (its index finds the boxes meeting a piece), not the part of it a parent piece met */
  readonly whole?: boolean;
}

/**
 * A box of packets in `r` but in none of `minus`, or null when `minus` covers `r`. Subtracting
 * many overlapping regions up front fragments a box into exponentially many pieces (each earlier
 * rule cuts along other fields), so this searches depth first, one region at a time: a region
 * whose complement is known and smaller splits the piece into its parts outside that region (the
 * region is then done with); otherwise the piece is cut by the region's first box that meets it. It stops at
 * the first piece no region meets. A piece only meets what its parent met, so each level scans a
 * shorter list; a box holding the whole piece ends the branch. `budget` pays for every box looked
 * at. When `minus` covers `r`, `used` receives the indexes of the regions of `minus` the proof
 * relied on: together they cover `r` (a cover found for free).
 */
export function firstOutside(r: Region, minus: readonly Region[], budget = new Budget(Infinity), used?: Set<number>): Box | null {
  const all: Pending[] = [];
  const seen = new Set<Region>();
  minus.forEach((region, k) => {
    // the same region twice (one rule seen from two firewalls) is searched once; one apart from `r` never meets it
    if (seen.has(region) || hullsApart(r, region)) return;
    seen.add(region);
    // a complement of fewer boxes than the region is worth branching on (`not (a and b)`); else cutting is cheaper
    const complement = complementOf(region);
    all.push({ k, boxes: region, complement: complement !== undefined && complement.length < region.length ? complement : undefined, whole: true });
  });
  const search = (box: Box, pending: readonly Pending[]): Box | null => {
    const live: Pending[] = [];
    // the region to branch on: the one whose complement meets the piece in the fewest boxes
    let split: { at: number; parts: number } | null = null;
    for (const p of pending) {
      if (p.complement !== undefined) {
        // the piece's parts outside the region: none, it is covered; the whole piece, they are apart
        budget.spend(p.complement.length);
        let parts = 0;
        for (const c of p.complement) if (boxesOverlap(box, c)) parts++;
        if (parts === 0) {
          used?.add(p.k);
          return null;
        }
        if (p.complement.some((c) => boxContains(c, box))) continue;
        if (split === null || parts < split.parts) split = { at: live.length, parts };
        live.push(p);
        continue;
      }
      const near = p.whole === true ? meeting(p.boxes, box) : p.boxes;
      budget.spend(near.length);
      const boxes: Box[] = [];
      for (const b of near) {
        if (!boxesOverlap(box, b)) continue;
        // one box holding the whole piece ends this branch before it is cut
        if (boxContains(b, box)) {
          used?.add(p.k);
          return null;
        }
        boxes.push(b);
      }
      if (boxes.length > 0) live.push({ k: p.k, boxes, complement: undefined });
    }
    if (live.length === 0) return box;
    if (split !== null) {
      const rest = live.filter((_, i) => i !== split.at);
      for (const c of live[split.at]!.complement!) {
        const part = intersectBoxes(box, c);
        const found = part === null ? null : search(part, rest);
        if (found !== null) return found;
      }
      used?.add(live[split.at]!.k);
      return null;
    }
    const [first, ...others] = live;
    const cut = first!.boxes[0]!;
    const rest = first!.boxes.length === 1 ? others : [{ ...first!, boxes: first!.boxes.slice(1) }, ...others];
    const pieces: Box[] = [];
    subtractBox(box, cut, pieces);
    for (const piece of pieces) {
      const found = search(piece, rest);
      if (found !== null) return found;
    }
    used?.add(first!.k);
    return null;
  };
  for (const box of r) {
    const found = search(box, all);
    if (found !== null) return found;
  }
  return null;
}

/** Whether `outer` holds all of `inner`, judged cheaply (large sets that differ count as "no": the cut decides). */
function boxContains(outer: Box, inner: Box): boolean {
  for (let d = 0; d < DIMS; d++) {
    const o = outer[d]!;
    const i = inner[d]!;
    if (o === i || (o.length === 2 && o[0]! <= i[0]! && i[i.length - 1]! <= o[1]!)) continue;
    if (o.length + i.length > 1024 || !covers(o, i)) return false;
  }
  return true;
}

/**
 * The same packets in fewer boxes: two boxes that differ in one dimension only are one box (their
 * sets there joined), until no two do. `a or b` on one field is two boxes a space says as one.
 */
export function coalesced(r: Region): Region {
  const boxes = r.map((b) => b.slice());
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < boxes.length && !merged; i++) {
      for (let j = i + 1; j < boxes.length && !merged; j++) {
        let differs = -1;
        for (let d = 0; d < DIMS; d++) {
          if (boxes[i]![d] === boxes[j]![d] || equal(boxes[i]![d]!, boxes[j]![d]!)) continue;
          if (differs >= 0) {
            differs = -2;
            break;
          }
          differs = d;
        }
        if (differs === -2) continue;
        if (differs >= 0) boxes[i]![differs] = union(boxes[i]![differs]!, boxes[j]![differs]!);
        boxes.splice(j, 1);
        merged = true;
      }
    }
  }
  return boxes;
}

/** Whether every packet of `inner` is in `outer`. */
export function regionCovers(outer: Region, inner: Region): boolean {
  return firstOutside(inner, [outer]) === null;
}

/** One set of values for a dimension across a region (the union of its boxes'). */
export function projection(r: Region, d: number): Intervals {
  return r.reduce((acc, b) => union(acc, b[d]!), NONE);
}
