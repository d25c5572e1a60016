// What a rule requires of the fields packets are sorted by (the classifier, classifier.ts, and the
// key index, index-plan.ts): the values of a port or an address that a match can have, read from
// the rule's top-level conjuncts. A conjunct `tcp.dstport in { 80 443 }` says every match is a TCP
// packet with destination port 80 or 443; a packet outside that set cannot match, whatever the rest
// of the rule says. Only `==`, `<`, `<=`, `>`, `>=` and `in` are read (`!=` and everything else is
// also true of absent fields, or not a set of values): a rule without such a conjunct on a field
// requires nothing of it.
import type { Ast, ComparisonExpr, Expr, IpItem } from '../lang/index.js';
import { mergeRanges } from '../lang/eval/int-set.js';
import type { IpSet } from '../net/ip-set.js';
import { fieldsOfKind } from '../field-registry.js';
import { INT_FIELDS } from './conditions.js';

/** The fields packets are sorted by: IPv4 addresses (a 32-bit value space) and ports (16 bits). */
export const SORTED_FIELDS = ['ip.src', 'ip.dst', 'tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport'] as const;
export type SortedField = (typeof SORTED_FIELDS)[number];

/**
 * The generated per-packet source's presence test and value of each field (locals of headers.ts):
 * the one place both the classifier and the key index read a packet's sorted fields from; the
 * ports are the compiled conditions' own (conditions.ts INT_FIELDS), the IPv4 addresses' locals the
 * field registry's.
 */
export const FIELD_VALUES = Object.fromEntries(
  SORTED_FIELDS.map((name) => {
    const address = fieldsOfKind('address').find((f) => f.name === name);
    return [name, address === undefined ? INT_FIELDS[name]! : ['fam === 4', address.local]];
  }),
) as Readonly<Record<SortedField, readonly [when: string, value: string]>>;

/** The largest value of each field's value space. */
export function maxValue(field: SortedField): number {
  return field.startsWith('ip.') ? 0xffffffff : 0xffff;
}

/**
 * The values of a field that a match can have: `spans`, disjoint inclusive [lo, hi] ranges in
 * ascending order (IPv4 addresses, unsigned, or ports), and `other`: a packet whose field is not such
 * a value (an IPv6 address; for ports, a packet without that transport header) can match.
 */
export interface Admitted {
  readonly spans: ReadonlyArray<readonly [number, number]>;
  readonly other: boolean;
}

const ORDERING: Readonly<Record<string, (n: number, max: number) => readonly [number, number]>> = {
  eq: (n) => [n, n],
  lt: (n) => [0, n - 1],
  le: (n) => [0, n],
  gt: (n, max) => [n + 1, max],
  ge: (n, max) => [n, max],
};

/** [lo, hi] cut to [0, max]: the values of the field in it, or none. */
function clamp(lo: number, hi: number, max: number): Array<readonly [number, number]> {
  const a = Math.max(lo, 0);
  const b = Math.min(hi, max);
  return a <= b ? [[a, b]] : [];
}

function portValues(e: ComparisonExpr): Admitted | null {
  const op = e.op;
  if (op.kind === 'ordering' && op.rhs.type === 'Int' && op.op in ORDERING) {
    const [lo, hi] = ORDERING[op.op](Number(op.rhs.value), 0xffff);
    return { spans: clamp(lo, hi, 0xffff), other: false };
  }
  if (op.kind !== 'inSet' || op.set.type !== 'Int') return null;
  const r = mergeRanges(op.set.ranges);
  return { spans: Array.from(r.lo, (lo, i) => clamp(lo, r.hi[i], 0xffff)).flat(), other: false };
}

/** The spans sorted, overlapping and adjacent ones merged. */
function disjoint(spans: Array<[number, number]>): Array<readonly [number, number]> {
  spans.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of spans) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** An address set's IPv4 spans; `other` where it holds an IPv6 item. */
function setValues(items: readonly IpItem[]): Admitted {
  const spans: Array<[number, number]> = [];
  let other = false;
  for (const item of items) {
    if (item.kind === 'cidr' && item.ip.family === 4) {
      const size = 2 ** (32 - item.len);
      const lo = Math.floor((item.ip.v4 >>> 0) / size) * size;
      spans.push([lo, lo + size - 1]);
    } else if (item.kind === 'range' && item.lo.family === 4 && item.hi.family === 4) spans.push([item.lo.v4 >>> 0, item.hi.v4 >>> 0]);
    else other = true;
  }
  return { spans: disjoint(spans), other };
}

function addressValues(e: ComparisonExpr, lists: ((name: string) => IpSet | undefined) | undefined): Admitted | null {
  const op = e.op;
  if (op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Ip') {
    const ip = op.rhs.ip;
    return ip.family === 4 ? { spans: [[ip.v4 >>> 0, ip.v4 >>> 0]], other: false } : { spans: [], other: true };
  }
  if (op.kind === 'inSet' && op.set.type === 'Ip') return setValues(op.set.items);
  const set = op.kind === 'inList' ? lists?.(op.name) : undefined;
  if (set === undefined) return null;
  const spans: Array<readonly [number, number]> = [];
  set.forEachRange4((lo, hi) => spans.push([lo >>> 0, hi >>> 0]));
  return { spans, other: set.ranges6 > 0 };
}

/** The values both admit. */
function intersect(a: Admitted, b: Admitted): Admitted {
  const spans: Array<readonly [number, number]> = [];
  for (let i = 0, j = 0; i < a.spans.length && j < b.spans.length; ) {
    const [alo, ahi] = a.spans[i];
    const [blo, bhi] = b.spans[j];
    const lo = Math.max(alo, blo);
    const hi = Math.min(ahi, bhi);
    if (lo <= hi) spans.push([lo, hi]);
    if (ahi < bhi) i++;
    else j++;
  }
  return { spans, other: a.other && b.other };
}

/**
 * Header fields beyond the sorted ones whose values the key index (rule-keys.ts) may file rules
 * under: small integers a packet reads from its headers (their values above 0xffff, only ip.len's,
 * are `other`).
 */
export const KEYED_INT_FIELDS = ['ip.len', 'ip.ttl', 'tcp.flags', 'icmp.type', 'icmp.code'] as const;

/** An integer field's values a comparison admits, cut to [0, 0xffff]; `other`: it admits values above. */
function intValues(e: ComparisonExpr): Admitted | null {
  const op = e.op;
  const big = Number.MAX_SAFE_INTEGER;
  let spans: Array<readonly [number, number]>;
  if (op.kind === 'ordering' && op.rhs.type === 'Int' && op.op in ORDERING) spans = [ORDERING[op.op](Number(op.rhs.value), big)];
  else if (op.kind === 'inSet' && op.set.type === 'Int') {
    const r = mergeRanges(op.set.ranges);
    spans = Array.from(r.lo, (lo, i) => [lo, r.hi[i]] as const);
  } else return null;
  return { spans: spans.flatMap(([lo, hi]) => clamp(lo, hi, 0xffff)), other: spans.some(([lo, hi]) => hi > 0xffff && lo <= hi) };
}

/**
 * The values of `field` that a comparison admits, for the sorted fields and KEYED_INT_FIELDS (a
 * comparison on another field, or of another kind, gives null: it requires nothing here).
 */
export function comparisonValues(e: ComparisonExpr, lists: ((name: string) => IpSet | undefined) | undefined): [field: string, values: Admitted] | null {
  if (e.lhs.base.kind !== 'field' || e.lhs.indexes.length > 0) return null;
  const field = e.lhs.base.name;
  let values: Admitted | null = null;
  if ((SORTED_FIELDS as readonly string[]).includes(field)) values = field.startsWith('ip.') ? addressValues(e, lists) : portValues(e);
  else if ((KEYED_INT_FIELDS as readonly string[]).includes(field)) values = intValues(e);
  return values === null ? null : [field, values];
}

/** Adds what comparison `e` (a conjunct) requires to `out`: each field's values, intersected. */
export function addConjunct(e: ComparisonExpr, lists: ((name: string) => IpSet | undefined) | undefined, out: Map<string, Admitted>): void {
  const found = comparisonValues(e, lists);
  if (found === null) return;
  const [field, values] = found;
  const before = out.get(field);
  out.set(field, before === undefined ? values : intersect(before, values));
}

function collect(e: Expr, lists: ((name: string) => IpSet | undefined) | undefined, out: Map<string, Admitted>): void {
  if (e.kind === 'group') collect(e.expr, lists, out);
  else if (e.kind === 'combining' && e.op === 'and') for (const item of e.items) collect(item, lists, out);
  else if (e.kind === 'comparison' && (SORTED_FIELDS as readonly string[]).includes(e.lhs.base.name)) addConjunct(e, lists, out);
}

/** What every match of the rule requires of each sorted field it constrains; `lists` resolves `$name` as the rule's condition does. */
export function requiredValues(ast: Ast, lists: ((name: string) => IpSet | undefined) | undefined): ReadonlyMap<SortedField, Admitted> {
  const out = new Map<string, Admitted>();
  collect(ast.expr, lists, out);
  return out as Map<SortedField, Admitted>;
}
