// Packets the rules cannot tell apart, for condition coverage (coverage.ts): two packets that give
// every comparison of every rule the same value give every condition the same value and reach the
// same rules, so once one of them has been counted the other adds nothing. A packet's class is a
// short key, computed from the fields the rules read without evaluating any rule:
// - a number or address field compared only with constants (==, !=, <, <=, >, >=, `in {…}`) is cut
//   at every constant's edge; the key holds which piece the packet's value falls in (a binary
//   search), so a SYN flood's ten thousand sources outside every prefix of the rules are one piece;
// - every other comparison (flags, lists, protocols, countries, byte strings, functions) is one
//   compiled predicate, and the key holds its value.
// A replay then evaluates the conditions operand by operand (the reference interpreter, as
// ConditionProbe does) only for the first packet of each class: a capture case with --coverage costs
// the key of each packet instead of every condition of every rule it reached. The parts that read a
// looked-up field (a country, an AS number, the data center) depend on the packet's addresses only,
// so a replay remembers them per IPv4 address pair and looks a packet up only for a pair it has not
// seen (keyWith).
import type { PacketRecord } from '../capture/record.js';
import { recordBinding } from '../fields/binding.js';
import { LOOKUP_FIELDS } from '../fields/lookups.js';
import { compile, fieldsUsed, printExpr, type Ast, type ComparisonExpr, type Expr, type IpItem, type IpValue, type Literal } from '../lang/index.js';
import type { IpSet } from '../net/ip-set.js';

/** The edges of a number field: a value's piece is how many of them are at or below it. */
class NumberCuts {
  private readonly edges = new Set<number>();
  private sorted: Float64Array = new Float64Array(0);

  add(lo: bigint, hi: bigint): void {
    this.edges.add(clamp(lo));
    this.edges.add(clamp(hi + 1n));
  }

  done(): void {
    this.sorted = Float64Array.from([...this.edges].sort((a, b) => a - b));
  }

  piece(v: number): number {
    return upperBound(this.sorted, v);
  }

  /** how many pieces there are */
  get pieces(): number {
    return this.sorted.length + 1;
  }
}

/** The edges of an address field, per family (values of one family never compare with the other's). */
class AddressCuts {
  private readonly v4 = new NumberCuts();
  private readonly edges6 = new Set<bigint>();
  /** the IPv6 edges in order, four 32-bit words each (compared without allocating) */
  private sorted6 = new Uint32Array(0);

  add(lo: IpValue, hi: IpValue): void {
    if (lo.family === 4 && hi.family === 4) this.v4.add(BigInt(lo.v4 >>> 0), BigInt(hi.v4 >>> 0));
    else if (lo.family === 6 && hi.family === 6) {
      this.edges6.add(big6(lo.v6));
      this.edges6.add(big6(hi.v6) + 1n);
    }
  }

  addItem(item: IpItem): void {
    if (item.kind === 'range') return this.add(item.lo, item.hi);
    const bits = item.ip.family === 4 ? 32 : 128;
    const shift = BigInt(bits - item.len);
    const value = item.ip.family === 4 ? BigInt(item.ip.v4 >>> 0) : big6(item.ip.v6);
    const lo = (value >> shift) << shift;
    const hi = lo + (1n << shift) - 1n;
    if (item.ip.family === 4) this.v4.add(lo, hi);
    else {
      this.edges6.add(lo);
      this.edges6.add(hi + 1n);
    }
  }

  done(): void {
    this.v4.done();
    const sorted = [...this.edges6].filter((e) => e < 1n << 128n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.sorted6 = new Uint32Array(4 * sorted.length);
    sorted.forEach((e, i) => {
      for (let w = 0; w < 4; w++) this.sorted6[4 * i + w] = Number((e >> BigInt(96 - 32 * w)) & 0xffffffffn);
    });
  }

  /** the piece of an address: IPv4's first, then IPv6's */
  piece(family: number, v4: number, v6: Uint32Array): number {
    if (family === 4) return this.v4.piece(v4 >>> 0);
    const edges = this.sorted6;
    let lo = 0;
    let hi = edges.length >> 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (atOrBelow(edges, mid, v6)) lo = mid + 1;
      else hi = mid;
    }
    return this.v4.pieces + lo;
  }

  get pieces(): number {
    return this.v4.pieces + (this.sorted6.length >> 2) + 1;
  }
}

const LIMIT = 2 ** 53;

function clamp(v: bigint): number {
  return v > BigInt(LIMIT) ? LIMIT : v < -BigInt(LIMIT) ? -LIMIT : Number(v);
}

/** Whether IPv6 edge `i` of `edges` (four words each) is at or below the address `v`. */
function atOrBelow(edges: Uint32Array, i: number, v: Uint32Array): boolean {
  for (let w = 0; w < 4; w++) {
    const e = edges[4 * i + w]!;
    const x = v[w]! >>> 0;
    if (e !== x) return e < x;
  }
  return true;
}

function big6(words: Uint32Array): bigint {
  return (BigInt(words[0]!) << 96n) | (BigInt(words[1]!) << 64n) | (BigInt(words[2]!) << 32n) | BigInt(words[3]!);
}

/** How many of `sorted` are at or below `v`. */
function upperBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function walk(e: Expr, visit: (c: ComparisonExpr) => void): void {
  if (e.kind === 'comparison') visit(e);
  else if (e.kind === 'combining') e.items.forEach((x) => walk(x, visit));
  else walk(e.kind === 'group' ? e.expr : e.arg, visit);
}

/** The field a comparison cuts at constants, with the ranges it cuts at; null when it is not such a comparison. */
function cutsOf(c: ComparisonExpr, ast: Ast): { field: string; type: 'Int' | 'Ip'; add: (cuts: NumberCuts | AddressCuts) => void } | null {
  const lhs = c.lhs;
  if (lhs.base.kind !== 'field' || lhs.indexes.length > 0 || lhs.mapEach > 0 || c.type !== 'Bool') return null;
  const def = ast.scheme.field(lhs.base.name);
  if (def === undefined || def.anyOf !== undefined) return null;
  const type = lhs.base.type;
  const field = lhs.base.name;
  const op = c.op;
  if (type === 'Int') {
    if (op.kind === 'ordering' && op.rhs.type === 'Int') {
      const v = (op.rhs as Extract<Literal, { type: 'Int' }>).value;
      return { field, type, add: (cuts) => (cuts as NumberCuts).add(v, v) };
    }
    if (op.kind === 'inSet' && op.set.type === 'Int') {
      const ranges = op.set.ranges;
      return { field, type, add: (cuts) => ranges.forEach(([lo, hi]) => (cuts as NumberCuts).add(lo, hi)) };
    }
    return null;
  }
  if (type === 'Ip') {
    if (op.kind === 'ordering' && op.rhs.type === 'Ip') {
      const ip = (op.rhs as Extract<Literal, { type: 'Ip' }>).ip;
      return { field, type, add: (cuts) => (cuts as AddressCuts).add(ip, ip) };
    }
    if (op.kind === 'inSet' && op.set.type === 'Ip') {
      const items = op.set.items;
      return { field, type, add: (cuts) => items.forEach((item) => (cuts as AddressCuts).addItem(item)) };
    }
  }
  return null;
}

/** A part of a class: a small number, 0 to its `values` - 1. */
interface Part {
  readonly values: number;
  of(rec: PacketRecord): number;
}

/** Parts' values as one key: a number in mixed radix where their values fit a double's integers, else text. */
class Keys {
  /** how many keys there are (past a double's integers: text) */
  readonly count: number;
  /** the key of a record: one generated function, so that each part is called from a call site of its own */
  readonly of: (rec: PacketRecord) => number | string;

  constructor(parts: readonly Part[]) {
    this.count = parts.reduce((n, p) => n * p.values, 1);
    const names = parts.map((_, i) => `P${i}`);
    const body =
      this.count <= Number.MAX_SAFE_INTEGER
        ? `let k = 0;\n${parts.map((p, i) => `k = k * ${p.values} + P${i}(rec);`).join('\n')}\nreturn k;`
        : `return ${parts.map((_, i) => `P${i}(rec)`).join(" + ',' + ")} + '';`;
    this.of = new Function(...names, `return function key(rec) {\n${body}\n};`)(...parts.map((p) => p.of)) as (rec: PacketRecord) => number | string;
  }
}

/** the address pairs whose looked-up parts a replay remembers: a direct-mapped table of this many, a pair in the slot its hash picks */
const PAIR_SLOTS = 1 << 16;

/** The classes of packets the rules of a firewall cannot tell apart (see the top of this file). */
export class DecisionClasses {
  /** false when a comparison has a vector value (a class would not say it): every packet is its own class */
  private keyed = true;
  private unkeyed = 0;
  /** the parts read from the packet itself, and those that read a looked-up field */
  private readonly plain: Keys;
  private readonly looked: Keys;
  /** the looked-up parts of IPv4 address pairs: each slot's source, destination and parts (undefined: empty) */
  private readonly pairSrc = new Uint32Array(PAIR_SLOTS);
  private readonly pairDst = new Uint32Array(PAIR_SLOTS);
  private readonly pairParts: Array<number | string | undefined> = new Array(PAIR_SLOTS);

  /** `rules`: the parsed rules whose comparisons decide a class; `lists` resolves `$name` as the firewall does */
  constructor(rules: readonly Ast[], lists?: (name: string) => IpSet | undefined) {
    const numbers = new Map<string, NumberCuts>();
    const addresses = new Map<string, AddressCuts>();
    const predicates = new Map<string, { predicate: (rec: PacketRecord) => boolean; looked: boolean }>();
    for (const ast of rules) {
      walk(ast.expr, (c) => {
        const cut = cutsOf(c, ast);
        if (cut !== null) {
          const table: Map<string, NumberCuts | AddressCuts> = cut.type === 'Int' ? numbers : addresses;
          let cuts = table.get(cut.field);
          if (cuts === undefined) table.set(cut.field, (cuts = cut.type === 'Int' ? new NumberCuts() : new AddressCuts()));
          cut.add(cuts);
          return;
        }
        if (c.type !== 'Bool') {
          this.keyed = false;
          return;
        }
        const text = printExpr(c);
        if (predicates.has(text)) return;
        const whole: Ast = { expr: c, source: ast.source, scheme: ast.scheme };
        predicates.set(text, { predicate: compile(whole, recordBinding, { lists }), looked: fieldsUsed(whole).some((f) => LOOKUP_FIELDS.has(f)) });
      });
    }
    const plain: Part[] = [];
    const looked: Part[] = [];
    for (const [name, cuts] of numbers) {
      cuts.done();
      const acc = recordBinding[name]!;
      if (acc.type !== 'Int') throw new Error(`field ${name} is not bound as a number`);
      // 0: absent
      (LOOKUP_FIELDS.has(name) ? looked : plain).push({ values: cuts.pieces + 1, of: (rec) => (acc.has(rec) ? 1 + cuts.piece(acc.get(rec)) : 0) });
    }
    for (const [name, cuts] of addresses) {
      cuts.done();
      const acc = recordBinding[name]!;
      if (acc.type !== 'Ip') throw new Error(`field ${name} is not bound as an address`);
      plain.push({ values: cuts.pieces + 1, of: (rec) => (acc.has(rec) ? 1 + cuts.piece(acc.family(rec), acc.v4(rec), acc.v6(rec)) : 0) });
    }
    for (const { predicate, looked: reads } of predicates.values()) (reads ? looked : plain).push({ values: 2, of: (rec) => (predicate(rec) ? 1 : 0) });
    this.plain = new Keys(plain);
    this.looked = new Keys(looked);
  }

  /** The class of a decoded and enriched packet record. */
  key(rec: PacketRecord): number | string {
    return this.keyWith(rec, null);
  }

  /**
   * The class of a decoded record whose looked-up fields `enrich` fills (null: they are filled):
   * called only when the record's parts that read them are not known for its IPv4 addresses.
   */
  keyWith(rec: PacketRecord, enrich: (() => void) | null): number | string {
    if (!this.keyed) return `#${this.unkeyed++}`;
    const plain = this.plain.of(rec);
    if (this.looked.count === 1) return plain;
    let looked: number | string | undefined;
    if (enrich === null) looked = this.looked.of(rec);
    else if (rec.ipVersion !== 4) {
      enrich();
      looked = this.looked.of(rec);
    } else {
      const src = rec.src4 >>> 0;
      const dst = rec.dst4 >>> 0;
      const slot = (Math.imul(src, 0x9e3779b1) ^ Math.imul(dst, 0x85ebca6b)) >>> 16;
      looked = this.pairParts[slot];
      if (looked === undefined || this.pairSrc[slot] !== src || this.pairDst[slot] !== dst) {
        enrich();
        looked = this.looked.of(rec);
        this.pairSrc[slot] = src;
        this.pairDst[slot] = dst;
        this.pairParts[slot] = looked;
      }
    }
    return typeof plain === 'number' && typeof looked === 'number' && plain * this.looked.count + looked <= Number.MAX_SAFE_INTEGER ? plain * this.looked.count + looked : `${plain}/${looked}`;
  }
}
