// A rule's expression as JavaScript source over the header values the fast path reads from the frame
// (see headers.ts for the locals: fam, s4, ttl, tcp, sport, ...). Conditions are call-free where
// they can be and combined with `&`, `|`, `^` on 0/1 values rather than `&&`/`||`: there are no
// branches for V8 to mispredict and no side effects to skip, since reading a local of an absent
// field is harmless (it holds 0, and every leaf tests its field's presence itself). A condition
// that calls a function (a set lookup, a bytes comparison) is the exception: in an `and` or an
// `or` it comes after the call-free ones, behind `&&` or `||`, so it runs only when they leave the
// outcome open (every condition is pure, so the order changes nothing but the time).
//
// Each leaf keeps the compiled evaluator's semantics exactly (lang/eval/primitive.ts): an absent
// field makes every comparison false except `!=`; IPv4 and IPv6 never compare equal. Where a field
// has only 256 values (ip.proto) the leaf is a table filled by the compiled evaluator itself, so it
// cannot disagree. A looked-up field (countries, ASNs, data centers and regions) is compared by the
// compiled evaluator too, on the frame's lookup record (frame-record.ts: filled once per frame, on
// the first ask, by the packet path's own Enrichment). What the fast path does not read marks the
// rule unsupported, with the reason (NotCompiled): the generated code then tests that rule with the
// firewall's own predicate on the frame's decoded record (frame-record.ts).
//
// The rule code is reached only for IP packets, so the `ip` group of fields is always present there.
import type { Ast, ComparisonExpr, ComparisonOp, Expr, IndexExpr } from '../lang/index.js';
import { compile } from '../lang/index.js';
import { buildIpSet } from '../lang/eval/primitive.js';
import { intMembership, mergeRanges } from '../lang/eval/int-set.js';
import { parseWildcard } from '../lang/literals/wildcard.js';
import { compileRegex } from '../lang/regex/compile.js';
import { bitSlice, readBitsSource } from '../lang/functions/bit-slice.js';
import type { IpSet } from '../net/ip-set.js';
import { fieldsOfKind, type FieldPart } from '../field-registry.js';
import { recordBinding } from '../fields/binding.js';
import { LOOKUP_FIELDS } from '../fields/lookups.js';
import { Has, PacketRecord } from '../capture/record.js';

/** Constants the generated source refers to by name (K0, K1, ...). */
export class Constants {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `K${this.values.length - 1}`;
  }
}

/** A rule's condition: statements to run first (bit_slice reads), the expression, the locals it reads. */
export interface Condition {
  readonly prelude: string;
  readonly expr: string;
  readonly locals: ReadonlySet<string>;
}

/**
 * The prologue's presence test of each part of a packet a field is read from (headers.ts; the rule
 * code runs only for IP packets, so the IP header is always there). Looked-up fields are not here.
 */
const PRESENCE: Readonly<Partial<Record<FieldPart, string>>> = { ip: '1', ipv4: '(fam === 4)', 'ipv4-options': 'hasOpt', tcp: 'tcp', udp: 'udp', icmp: 'icmp' };

/** presence expression and value local of each Int field the fast path reads */
export const INT_FIELDS: Readonly<Record<string, readonly [has: string, value: string]>> = Object.fromEntries(
  fieldsOfKind('int').flatMap((f) => (f.local === undefined ? [] : [[f.name, [PRESENCE[f.part]!, f.local] as const]])),
);

const TCP_FLAGS: Readonly<Record<string, number>> = Object.fromEntries(fieldsOfKind('flag').map((f) => [f.name, f.bit]));

/** presence, start and end of the raw-bytes fields */
export const RAW_FIELDS: Readonly<Record<string, readonly [has: string, start: string, end: string]>> = Object.fromEntries(
  fieldsOfKind('raw').map((f) => [f.name, [PRESENCE[f.part]!, f.part === 'ip' ? 'l3' : 'l4', 'l3e'] as const]),
);

/** the IPv6 words and scratch array that go with each address's IPv4 local */
const V6_LOCALS = { s4: [['sa', 'sb', 'sc', 'sd'], 'SRC6'], d4: [['da', 'db', 'dc', 'dd'], 'DST6'] } as const;

/** the locals of each address field: family test, IPv4 value, IPv6 words, IPv6 scratch array */
const IP_FIELDS: Readonly<Record<string, readonly [v4: string, words: readonly string[], array: string]>> = Object.fromEntries(
  fieldsOfKind('address').map((f) => [f.name, [f.local, ...V6_LOCALS[f.local]] as const]),
);

const ORDER: Readonly<Record<string, string>> = { eq: '===', ne: '!==', ge: '>=', le: '<=', gt: '>', lt: '<' };

/** A number as JavaScript source (negative numbers in parentheses). */
function num(n: number): string {
  return n < 0 ? `(${n})` : String(n);
}

/** IPv4 sets of at most this many ranges are tested in line */
const INLINE_RANGES = 4;

/** a call in generated source: a name (K3.has4, equalsView, Math.floor) and its opening parenthesis */
const CALL = /[A-Za-z_$][\w$.]*\(/;

/** Why the fast path cannot evaluate a rule ("field ip.src.country not compiled"), for the replay's engine counts. */
export interface NotCompiled {
  readonly notCompiled: string;
}

/** `field`: the field of the comparison, added by ConditionWriter.comparison when the thrower does not know it */
class Unsupported extends Error {
  constructor(readonly what: string, readonly field?: string) {
    super(field === undefined ? what : `field ${field}: ${what}`);
  }
}

class ConditionWriter {
  readonly locals = new Set<string>();
  private prelude = '';
  private slices = 0;

  constructor(
    private readonly ast: Ast,
    private readonly lists: ((name: string) => IpSet | undefined) | undefined,
    private readonly k: Constants,
    private readonly id: number,
  ) {}

  write(): Condition {
    const expr = this.expr(this.ast.expr);
    return { prelude: this.prelude, expr, locals: this.locals };
  }

  private use(...names: string[]): void {
    for (const n of names) if (n !== '1' && !n.startsWith('(')) this.locals.add(n);
  }

  private expr(e: Expr): string {
    if (e.type !== 'Bool') throw new Unsupported('a non-boolean expression is not compiled');
    switch (e.kind) {
      case 'group':
        return this.expr(e.expr);
      case 'not':
        return `(${this.expr(e.arg)} ^ 1)`;
      case 'combining': {
        const items = e.items.map((i) => this.expr(i));
        if (e.op === 'xor') return `(${items.join(' ^ ')})`;
        const [bit, lazy] = e.op === 'and' ? [' & ', ' && '] : [' | ', ' || '];
        const cheap = items.filter((i) => !CALL.test(i));
        const calls = items.filter((i) => CALL.test(i));
        return `(${[...(cheap.length > 0 ? [`(${cheap.join(bit)})`] : []), ...calls].join(lazy)})`;
      }
      case 'comparison':
        return this.comparison(e);
      case 'quantifier':
        throw new Unsupported(`${e.which}() is not compiled`);
    }
  }

  private comparison(e: ComparisonExpr): string {
    const base = e.lhs.base;
    const field = base.kind === 'call' ? `${base.name}()` : base.name;
    try {
      return this.leaf(e);
    } catch (err) {
      if (err instanceof Unsupported && err.field === undefined) throw new Unsupported(err.what, field);
      throw err;
    }
  }

  private leaf(e: ComparisonExpr): string {
    const lhs = e.lhs;
    if (lhs.indexes.length > 0) throw new Unsupported('indexed access not compiled');
    if (lhs.base.kind === 'call') return this.bitSlice(lhs, e.op);
    const name = lhs.base.name;
    if (name === 'ip.proto') return this.protoTable(e);
    if (LOOKUP_FIELDS.has(name)) return this.lookedUp(e);
    const int = INT_FIELDS[name];
    if (int !== undefined) {
      this.use(int[0], int[1]);
      if (int[0] === PRESENCE.ipv4) this.use('fam');
      return intLeaf(e.op, int[0], int[1], this.k);
    }
    const flag = TCP_FLAGS[name];
    if (flag !== undefined && e.op.kind === 'isTrue') {
      this.use('tcp', 'flags');
      return `(tcp & ((flags & ${flag}) !== 0))`;
    }
    if (name === 'sip' && e.op.kind === 'isTrue') {
      this.use('sip');
      return 'sip';
    }
    const addr = IP_FIELDS[name];
    if (addr !== undefined) return this.ip(e.op, addr);
    const raw = RAW_FIELDS[name];
    if (raw !== undefined) {
      this.use('d', raw[0], raw[1], raw[2]);
      return bytesLeaf(e.op, raw, this.k);
    }
    throw new Unsupported('not compiled');
  }

  /** ip.proto has 256 values: a table filled by the compiled evaluator (exact by construction). */
  private protoTable(e: ComparisonExpr): string {
    const pred = compile({ ...this.ast, expr: e }, recordBinding, { lists: this.lists });
    const rec = new PacketRecord();
    rec.present = Has.IP;
    rec.ipVersion = 4;
    const table = new Uint8Array(256);
    for (let v = 0; v < 256; v++) {
      rec.proto = v;
      table[v] = pred(rec) ? 1 : 0;
    }
    this.use('proto');
    return `${this.k.add(table)}[proto]`;
  }

  /** A looked-up field: the compiled evaluator's comparison on the frame's lookup record. */
  private lookedUp(e: ComparisonExpr): string {
    const pred = compile({ ...this.ast, expr: e }, recordBinding, { lists: this.lists });
    this.use('d', 'l3', 'fam', 'lookup');
    return `${this.k.add(pred)}(out.frame.lookup(d, l3, fam))`;
  }

  private ip(op: ComparisonOp, [v4, words, array]: readonly [string, readonly string[], string]): string {
    this.use('fam');
    if (op.kind === 'ordering' && op.rhs.type === 'Ip') {
      const rhs = op.rhs.ip;
      if (rhs.family === 4) {
        this.use(v4);
        // ipCompare: (v >>> 0) - rhs, tested against 0; ne is also true for the other family
        return op.op === 'ne' ? `((fam !== 4) | (${v4} !== ${rhs.v4}))` : `((fam === 4) & ((${v4} - ${rhs.v4}) ${ORDER[op.op]} 0))`;
      }
      this.use(...words);
      if (op.op === 'eq' || op.op === 'ne') {
        const eq = words.map((w, i) => `(${w} === ${rhs.v6[i]})`).join(' & ');
        return op.op === 'eq' ? `((fam === 6) & ${eq})` : `((fam !== 6) | ((${eq}) ^ 1))`;
      }
      return `((fam === 6) && (compare6(${words.join(', ')}, ${this.k.add(rhs.v6)}) ${ORDER[op.op]} 0))`;
    }
    let set: IpSet | undefined;
    if (op.kind === 'inSet' && op.set.type === 'Ip') set = buildIpSet(op.set.items);
    else if (op.kind === 'inList') set = this.lists?.(op.name);
    if (set === undefined) throw new Unsupported(op.kind === 'inList' ? `list $${op.name} not compiled` : `${op.kind} not compiled`);
    // a family the set holds nothing of is not looked up (nor, for IPv6, are its words read); a few
    // IPv4 ranges are compared in line rather than searched
    if (set.ranges6 === 0) {
      if (set.ranges4 === 0) return '0';
      this.use(v4);
      if (set.ranges4 > INLINE_RANGES) return `((fam === 4) && ${this.k.add(set)}.has4(${v4}))`;
      const tests: string[] = [];
      set.forEachRange4((lo, hi) => tests.push(lo === hi ? `(${v4} === ${lo})` : `((${v4} >= ${lo}) & (${v4} <= ${hi}))`));
      return `((fam === 4) & (${tests.join(' | ')}))`;
    }
    const s = this.k.add(set);
    if (set.ranges4 === 0) {
      this.use(array);
      return `((fam === 6) && ${s}.has6(${array}))`;
    }
    this.use(v4, array);
    return `(fam === 4 ? ${s}.has4(${v4}) : ${s}.has6(${array}))`;
  }

  /** bit_slice(field, from, to): read once into a local before the condition; -1 when absent */
  private bitSlice(lhs: IndexExpr, op: ComparisonOp): string {
    if (lhs.base.kind !== 'call' || lhs.base.name !== bitSlice.name) throw new Unsupported('not compiled');
    const [field, fromArg, toArg] = lhs.base.args;
    if (field.kind !== 'index' || field.expr.base.kind !== 'field' || field.expr.indexes.length > 0) throw new Unsupported('a computed argument is not compiled');
    if (fromArg.kind !== 'literal' || fromArg.value.type !== 'Int' || toArg.kind !== 'literal' || toArg.value.type !== 'Int') throw new Unsupported('a computed argument is not compiled');
    const raw = RAW_FIELDS[field.expr.base.name];
    if (raw === undefined) throw new Unsupported(`field ${field.expr.base.name} not compiled`);
    this.use('d', raw[0], raw[1], raw[2]);
    const local = `bs${this.id}_${this.slices++}`;
    const [has, start, end] = raw;
    this.prelude += `const ${local} = ${has} ? ${readBitsSource(start, end, Number(fromArg.value.value), Number(toArg.value.value))} : -1; `;
    return intLeaf(op, `(${local} >= 0)`, local, this.k);
  }
}

/** An Int comparison (primitive.ts compileInt) on value `v` present when `has`. */
function intLeaf(op: ComparisonOp, has: string, v: string, k: Constants): string {
  switch (op.kind) {
    case 'ordering': {
      if (op.rhs.type !== 'Int') throw new Unsupported(`a ${op.rhs.type} value is not compiled`);
      const n = num(Number(op.rhs.value));
      return op.op === 'ne' ? `((${has} ^ 1) | (${v} !== ${n}))` : `(${has} & (${v} ${ORDER[op.op]} ${n}))`;
    }
    case 'bitwiseAnd': {
      const lo = Number(BigInt.asUintN(32, op.rhs)) | 0;
      const hi = Number(BigInt.asIntN(32, BigInt.asIntN(64, op.rhs) >> 32n)) | 0;
      if (hi === 0) return `(${has} & ((${v} & ${num(lo)}) !== 0))`;
      return `(${has} && (((${v} & ${num(lo)}) !== 0) || ((Math.floor(${v} / 4294967296) & ${num(hi)}) !== 0)))`;
    }
    case 'inSet': {
      if (op.set.type !== 'Int') throw new Unsupported(`a set of ${op.set.type} is not compiled`);
      const r = mergeRanges(op.set.ranges);
      if (r.lo.length === 0) return '0';
      if (r.lo.length > 4) return `(${has} && ${k.add(intMembership(r))}(${v}))`;
      const parts = Array.from(r.lo, (lo, i) => (lo === r.hi[i] ? `(${v} === ${num(lo)})` : `((${v} >= ${num(lo)}) & (${v} <= ${num(r.hi[i])}))`));
      return `(${has} & (${parts.join(' | ')}))`;
    }
    default:
      throw new Unsupported(`${op.kind} not compiled`);
  }
}

/** A comparison on a raw-bytes field (primitive.ts compileBytes), through the view helpers. */
function bytesLeaf(op: ComparisonOp, [has, start, end]: readonly [string, string, string], k: Constants): string {
  const view = `d, ${start}, ${end}`;
  switch (op.kind) {
    case 'ordering': {
      if (op.rhs.type !== 'Bytes') throw new Unsupported(`a ${op.rhs.type} value is not compiled`);
      const rhs = k.add(op.rhs.bytes);
      if (op.op === 'eq') return `(${has} && equalsView(${view}, ${rhs}))`;
      if (op.op === 'ne') return `(!${has} || !equalsView(${view}, ${rhs}))`;
      return `(${has} && (compareView(${view}, ${rhs}) ${ORDER[op.op]} 0))`;
    }
    case 'contains':
      return `(${has} && containsView(${view}, ${k.add(op.rhs)}))`;
    case 'matches': {
      const re = compileRegex(op.pattern);
      if (typeof re === 'string') throw new Unsupported('this regular expression is not compiled');
      return `(${has} && ${k.add(re)}.test(${view}))`;
    }
    case 'wildcard': {
      const w = parseWildcard(op.pattern);
      if (typeof w === 'string') throw new Unsupported('this wildcard is not compiled');
      return `(${has} && wildcardMatchView(${view}, ${k.add(w)}, ${!op.strict}))`;
    }
    case 'inSet':
      if (op.set.type !== 'Bytes') throw new Unsupported(`a set of ${op.set.type} is not compiled`);
      return `(${has} && inBytesSet(${view}, ${k.add(op.set.items)}))`;
    default:
      throw new Unsupported(`${op.kind} not compiled`);
  }
}

/** The rule's condition as source, or why the fast path cannot evaluate it; `lists` resolves `$name`. */
export function writeCondition(ast: Ast, lists: ((name: string) => IpSet | undefined) | undefined, k: Constants, id: number): Condition | NotCompiled {
  const mark = k.values.length;
  try {
    return new ConditionWriter(ast, lists, k, id).write();
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    k.values.length = mark;
    return { notCompiled: err.message };
  }
}
