// One comparison of the Rules language as a region of the header space, with the engine's
// semantics: the packets whose field holds a value that satisfies the operator; a packet without
// the field satisfies only `!=` (so `!=` is exactly the complement of `==`). What the model does not
// cover — regular expressions, wildcards, `contains` and ordering on text, raw-bytes fields,
// functions — becomes an indeterminate atom: nothing is certain to match, and what may match is
// every packet that has the field (every packet, for `!=`).
import type { ComparisonExpr, IpItem, IpValue } from '../lang/index.js';
import { protocolText } from '../capture/protocols.js';
import type { IpSet } from '../net/ip-set.js';
import type { Budget } from './budget.js';
import { type Intervals, NONE, fromRanges, intersect, isEmpty, point, range } from './intervals.js';
import { countryProblem, type NameTables } from './names.js';
import { FIELD_REGISTRY, transportOf as registryTransport, type FieldEntry } from '../field-registry.js';
import { dimensions } from './field-dimensions.js';
import { ASN_MAX, Dim, L4, type Region, V6_BASE, constrain, subtractRegions, unionRegions, withComplement } from './space.js';

/** A warning about one comparison. */
export interface Note {
  readonly kind: 'impossible_comparison' | 'empty_list' | 'unknown_list' | 'negated_protocol_field';
  readonly message: string;
  /** negated_protocol_field: the transport the field belongs to (checked against the rule's region later) */
  readonly transport?: bigint;
}

/** Must/may regions of an expression: equal (the same object) when exact. */
export interface Meaning {
  readonly must: Region;
  readonly may: Region;
}

export interface ModelContext {
  readonly universe: Region;
  readonly names: NameTables;
  /** a list's addresses as ranges on the address axis (the same object each time: see model.ts) */
  readonly lists: (name: string) => Intervals | undefined;
  readonly notes: Note[];
  /** pays for the boxes the connectives build (expression.ts) */
  readonly budget?: Budget;
}

interface IntField {
  readonly kind: 'int';
  readonly dim: number;
  readonly domain: Intervals;
  readonly transport?: bigint;
}
interface IpField {
  readonly kind: 'ip';
  readonly dim: number;
}
interface FlagField {
  readonly kind: 'flag';
  readonly bit: number;
}
interface NameField {
  readonly kind: 'name';
  readonly dims: readonly number[];
  readonly lookup: (names: NameTables, text: string) => number | string;
}
interface OpaqueField {
  readonly kind: 'opaque';
  readonly transport?: bigint;
}
/** a Bool field other than a flag (sip): true is 1 on its dimension */
interface BoolField {
  readonly kind: 'bool';
  readonly dim: number;
}
type FieldModel = IntField | IpField | FlagField | NameField | OpaqueField | BoolField;

const BYTE = range(0n, 255n);

const PROTO_NUMBERS = new Map(Array.from({ length: 256 }, (_, n) => [protocolText(n), n] as const));

const countryLookup = (names: NameTables, text: string): number | string =>
  countryProblem(text) ?? names.country(text) ?? `no packet carries country "${text}"`;

/** the value of a text in each name dimension, or why no packet carries it */
const NAME_LOOKUPS: Readonly<Record<number, NameField['lookup']>> = {
  [Dim.proto]: (_, text) => PROTO_NUMBERS.get(text) ?? `ip.proto is a lowercase protocol keyword such as "tcp"; "${text}" never matches`,
  [Dim.srcCountry]: countryLookup,
  [Dim.dstCountry]: countryLookup,
  [Dim.coloName]: (n, t) => n.coloName(t) ?? `no data center is named "${t}"`,
  [Dim.coloRegion]: (n, t) => n.coloRegion(t) ?? `no data-center region is named "${t}"`,
};

/** How the header space models a field of the registry; undefined: not modelled (the space has no dimension for it). */
function fieldModel(f: FieldEntry): FieldModel | undefined {
  const transport = registryTransport(f);
  const l4 = transport === undefined ? {} : { transport: L4[transport] };
  if (f.kind === 'flag') return { kind: 'flag', bit: f.bit };
  if (f.kind === 'raw') return { kind: 'opaque', ...l4 };
  const dims = dimensions(f);
  if (dims === undefined) return undefined;
  switch (f.kind) {
    case 'address':
      return { kind: 'ip', dim: dims[0]! };
    case 'int':
      return { kind: 'int', dim: dims[0]!, domain: range(0n, BigInt(f.max)), ...l4 };
    case 'bool':
      return { kind: 'bool', dim: dims[0]! };
    case 'name': {
      const lookup = NAME_LOOKUPS[dims[0]!];
      return lookup === undefined ? undefined : { kind: 'name', dims, lookup };
    }
  }
}

const FIELDS: Readonly<Record<string, FieldModel>> = Object.fromEntries(
  FIELD_REGISTRY.flatMap((f) => {
    const model = fieldModel(f);
    return model === undefined ? [] : [[f.name, model]];
  }),
);

const latin1 = new TextDecoder('latin1');

function exact(r: Region): Meaning {
  return { must: r, may: r };
}

function transportOf(model: FieldModel | undefined): bigint | undefined {
  return model !== undefined && 'transport' in model ? model.transport : model?.kind === 'flag' ? L4.tcp : undefined;
}

/** The values of `bits` (an 8-bit value) with (v & mask) != 0. */
function maskedValues(mask: bigint, domain: Intervals): Intervals {
  const hi = domain[domain.length - 1]!;
  const pairs: Array<[bigint, bigint]> = [];
  for (let v = 0n; v <= hi; v++) if ((v & mask) !== 0n) pairs.push([v, v]);
  return intersect(fromRanges(pairs), domain);
}

export function encodeIp(ip: IpValue): bigint {
  if (ip.family === 4) return BigInt(ip.v4 >>> 0);
  return V6_BASE + ip.v6.reduce((acc, w) => (acc << 32n) | BigInt(w >>> 0), 0n);
}

function familySpace(ip: IpValue): [bigint, bigint] {
  return ip.family === 4 ? [0n, V6_BASE - 1n] : [V6_BASE, V6_BASE + (1n << 128n) - 1n];
}

function ipItemRange(item: IpItem): [bigint, bigint] {
  if (item.kind === 'range') return [encodeIp(item.lo), encodeIp(item.hi)];
  const bits = BigInt(item.ip.family === 4 ? 32 : 128);
  const host = (1n << (bits - BigInt(item.len))) - 1n;
  const base = item.ip.family === 4 ? 0n : V6_BASE;
  const lo = ((encodeIp(item.ip) - base) & ~host) + base;
  return [lo, lo + host];
}

/** The addresses of an IP set as ranges on the address axis (both families). */
export function ipSetRanges(set: IpSet): Intervals {
  const pairs: Array<[bigint, bigint]> = [];
  set.forEachRange4((lo, hi) => pairs.push([BigInt(lo >>> 0), BigInt(hi >>> 0)]));
  const word = (w: Uint32Array): bigint => V6_BASE + w.reduce((acc, x) => (acc << 32n) | BigInt(x >>> 0), 0n);
  set.forEachRange6((lo, hi) => pairs.push([word(lo), word(hi)]));
  return fromRanges(pairs);
}

function orderingSet(op: string, v: bigint, lo: bigint, hi: bigint): Intervals {
  switch (op) {
    case 'eq':
    case 'ne':
      return v >= lo && v <= hi ? point(v) : NONE;
    case 'lt':
      return range(lo, v - 1n < hi ? v - 1n : hi);
    case 'le':
      return range(lo, v < hi ? v : hi);
    case 'gt':
      return range(v + 1n > lo ? v + 1n : lo, hi);
    default:
      return range(v > lo ? v : lo, hi);
  }
}

/** The meaning of one comparison; notes go to ctx.notes. */
const TRANSPORT_HEADERS = ['a TCP', 'a UDP', 'an ICMP'];

/** "without a TCP header": the packets a negated comparison on a field of that transport also matches. */
export function withoutHeader(transport: bigint): string {
  return `without ${TRANSPORT_HEADERS[Number(transport)]!} header`;
}

export function comparisonMeaning(c: ComparisonExpr, ctx: ModelContext): Meaning {
  const U = ctx.universe;
  const op = c.op;
  const isNe = op.kind === 'ordering' && op.op === 'ne';
  const fieldName = c.lhs.base.kind === 'field' && c.lhs.indexes.length === 0 ? c.lhs.base.name : undefined;
  const model = fieldName === undefined ? undefined : FIELDS[fieldName];
  const transport = transportOf(model);
  if (isNe && transport !== undefined) {
    ctx.notes.push({
      kind: 'negated_protocol_field',
      transport,
      message: `\`${fieldName} != …\` also matches every packet ${withoutHeader(transport)}`,
    });
  }
  /** the packets that have the field (an unmodelled comparison is false on the others) */
  const presence = (): Region => {
    const c2 = new Map<number, Intervals>();
    if (transport !== undefined) c2.set(Dim.l4, point(transport));
    if (model?.kind === 'int') c2.set(model.dim, model.domain);
    if (model?.kind === 'name' && model.dims.length === 1) c2.set(model.dims[0]!, range(0n, ASN_MAX));
    return constrain(U, c2);
  };
  const indeterminate = (): Meaning => ({ must: [], may: isNe || model === undefined ? U : presence() });
  const impossible = (message: string): void => {
    ctx.notes.push({ kind: 'impossible_comparison', message: `${fieldName}: ${message}` });
  };
  /** the packets having the field with a value in `set` (per dimension), or for `!=` the rest */
  const atom = (dims: readonly number[], set: Intervals): Meaning => {
    let r: Region = [];
    for (const d of dims) {
      const c2 = new Map<number, Intervals>([[d, set]]);
      if (transport !== undefined) c2.set(Dim.l4, point(transport));
      r = unionRegions(r, constrain(U, c2));
    }
    const rest = withComplement(subtractRegions(U, r), r);
    return exact(isNe ? rest : r);
  };

  if (model === undefined || model.kind === 'opaque') return indeterminate();
  switch (model.kind) {
    case 'bool':
      return op.kind === 'isTrue' ? atom([model.dim], point(1n)) : indeterminate();
    case 'flag':
      return op.kind === 'isTrue' ? atom([Dim.flags], maskedValues(BigInt(model.bit), BYTE)) : indeterminate();
    case 'int': {
      const [lo, hi] = [model.domain[0]!, model.domain[1]!];
      if (op.kind === 'ordering' && op.rhs.type === 'Int') {
        const v = op.rhs.value;
        if ((op.op === 'eq' || op.op === 'ne') && (v < lo || v > hi)) impossible(`${v} is outside ${lo}–${hi}; \`${op.op === 'eq' ? '==' : '!='}\` is ${op.op === 'eq' ? 'never' : 'always'} true`);
        const set = orderingSet(op.op, v, lo, hi);
        if (isEmpty(set) && op.op !== 'eq' && op.op !== 'ne') impossible(`no value in ${lo}–${hi} is ${op.op} ${v}`);
        return atom([model.dim], set);
      }
      if (op.kind === 'inSet' && op.set.type === 'Int') {
        const outside = op.set.ranges.filter(([a, b]) => b < lo || a > hi);
        if (outside.length > 0) impossible(`${outside.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(', ')} outside ${lo}–${hi} never match`);
        return atom([model.dim], intersect(fromRanges(op.set.ranges), model.domain));
      }
      if (op.kind === 'bitwiseAnd' && hi <= 65535n) return atom([model.dim], maskedValues(op.rhs, model.domain));
      return indeterminate();
    }
    case 'ip': {
      if (op.kind === 'ordering' && op.rhs.type === 'Ip') {
        const [lo, hi] = familySpace(op.rhs.ip);
        return atom([model.dim], orderingSet(op.op, encodeIp(op.rhs.ip), lo, hi));
      }
      if (op.kind === 'inSet' && op.set.type === 'Ip') return atom([model.dim], fromRanges(op.set.items.map(ipItemRange)));
      if (op.kind === 'inList') {
        const ranges = ctx.lists(op.name);
        if (ranges === undefined) {
          ctx.notes.push({ kind: 'unknown_list', message: `list $${op.name} does not exist` });
          return indeterminate();
        }
        if (isEmpty(ranges)) ctx.notes.push({ kind: 'empty_list', message: `list $${op.name} is empty: \`in $${op.name}\` never matches` });
        return atom([model.dim], ranges);
      }
      return indeterminate();
    }
    case 'name': {
      const texts =
        op.kind === 'ordering' && (op.op === 'eq' || op.op === 'ne') && op.rhs.type === 'Bytes'
          ? [op.rhs.bytes]
          : op.kind === 'inSet' && op.set.type === 'Bytes'
            ? op.set.items
            : undefined;
      if (texts === undefined) return indeterminate();
      const values: Array<[bigint, bigint]> = [];
      for (const bytes of texts) {
        const found = model.lookup(ctx.names, latin1.decode(bytes));
        if (typeof found === 'string') impossible(found);
        else values.push([BigInt(found), BigInt(found)]);
      }
      return atom(model.dims, fromRanges(values));
    }
  }
}

