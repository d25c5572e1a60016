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
// the key of each packet instead of every condition of every rule it reached.
import type { PacketRecord } from '../capture/record.js';
import { recordBinding } from '../fields/binding.js';
import { compile, printExpr, type Ast, type ComparisonExpr, type Expr, type IpItem, type IpValue, type Literal } from '../lang/index.js';
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
}

/** The edges of an address field, per family (values of one family never compare with the other's). */
class AddressCuts {
  private readonly v4 = new NumberCuts();
  private readonly edges6 = new Set<bigint>();
  private sorted6: bigint[] = [];

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
    this.sorted6 = [...this.edges6].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  piece(family: number, v4: number, v6: Uint32Array): string {
    if (family === 4) return `4:${this.v4.piece(v4 >>> 0)}`;
    const v = big6(v6);
    let lo = 0;
    let hi = this.sorted6.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted6[mid]! <= v) lo = mid + 1;
      else hi = mid;
    }
    return `6:${lo}`;
  }
}

const LIMIT = 2 ** 53;

function clamp(v: bigint): number {
  return v > BigInt(LIMIT) ? LIMIT : v < -BigInt(LIMIT) ? -LIMIT : Number(v);
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

type Part = (rec: PacketRecord) => string | number | boolean;

/** The classes of packets the rules of a firewall cannot tell apart (see the top of this file). */
export class DecisionClasses {
  private readonly parts: Part[] = [];
  /** false when a comparison has a vector value (a class would not say it): every packet is its own class */
  private keyed = true;
  private unkeyed = 0;

  /** `rules`: the parsed rules whose comparisons decide a class; `lists` resolves `$name` as the firewall does */
  constructor(rules: readonly Ast[], lists?: (name: string) => IpSet | undefined) {
    const numbers = new Map<string, NumberCuts>();
    const addresses = new Map<string, AddressCuts>();
    const predicates = new Map<string, Part>();
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
        predicates.set(text, compile(whole, recordBinding, { lists }));
      });
    }
    for (const [name, cuts] of numbers) {
      cuts.done();
      const acc = recordBinding[name]!;
      if (acc.type !== 'Int') throw new Error(`field ${name} is not bound as a number`);
      this.parts.push((rec) => (acc.has(rec) ? cuts.piece(acc.get(rec)) : -1));
    }
    for (const [name, cuts] of addresses) {
      cuts.done();
      const acc = recordBinding[name]!;
      if (acc.type !== 'Ip') throw new Error(`field ${name} is not bound as an address`);
      this.parts.push((rec) => (acc.has(rec) ? cuts.piece(acc.family(rec), acc.v4(rec), acc.v6(rec)) : -1));
    }
    this.parts.push(...predicates.values());
  }

  /** The class of a decoded (and enriched) packet record. */
  key(rec: PacketRecord): string {
    if (!this.keyed) return `#${this.unkeyed++}`;
    let out = '';
    for (let i = 0; i < this.parts.length; i++) out += `${this.parts[i]!(rec)},`;
    return out;
  }
}
