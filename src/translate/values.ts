// Literal values of a comparison as the translators need them: integer ranges as numbers, and IP
// set items as network/length with the host bits cleared (BPF refuses a network with host bits set).
import type { ComparisonExpr, IpItem } from '../lang/index.js';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';
import { Untranslatable } from './walk.js';

export type IntRange = readonly [number, number];

/** The values an integer comparison accepts, as inclusive ranges; null for an operator that is not one of ==, <, <=, >, >=, in. */
export function intRanges(c: ComparisonExpr): IntRange[] | null {
  const op = c.op;
  if (op.kind === 'inSet' && op.set.type === 'Int') return op.set.ranges.map(([lo, hi]) => [Number(lo), Number(hi)]);
  if (op.kind !== 'ordering' || op.rhs.type !== 'Int') return null;
  const v = Number(op.rhs.value);
  const ranges: Record<string, IntRange> = { eq: [v, v], lt: [-Infinity, v - 1], le: [-Infinity, v], gt: [v + 1, Infinity], ge: [v, Infinity] };
  return [ranges[op.op]!];
}

export interface Network {
  family: 4 | 6;
  /** "10.0.0.0/8", "2001:db8::/32", or a host address without a length */
  text: string;
}

function masked6(words: Uint32Array, len: number): Uint32Array {
  const out = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    const bits = Math.max(0, Math.min(32, len - 32 * i));
    out[i] = bits === 0 ? 0 : bits === 32 ? words[i]! : (words[i]! & (~0 << (32 - bits))) >>> 0;
  }
  return out;
}

/** An IP set item as a network; address ranges (a..b) are refused with `rangeReason`. */
export function network(item: IpItem, rangeReason: string): Network {
  if (item.kind === 'range') throw new Untranslatable(rangeReason);
  if (item.ip.family === 4) {
    const v = item.len === 0 ? 0 : (item.ip.v4 & (~0 << (32 - item.len))) >>> 0;
    return { family: 4, text: item.len === 32 ? formatIPv4(v) : `${formatIPv4(v)}/${item.len}` };
  }
  return { family: 6, text: item.len === 128 ? formatIPv6(item.ip.v6) : `${formatIPv6(masked6(item.ip.v6, item.len))}/${item.len}` };
}

/** The IP items an address comparison accepts (== or in); null for other operators. */
export function ipItems(c: ComparisonExpr): readonly IpItem[] | null {
  const op = c.op;
  if (op.kind === 'inSet' && op.set.type === 'Ip') return op.set.items;
  if (op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Ip') return [{ kind: 'cidr', ip: op.rhs.ip, len: op.rhs.ip.family === 4 ? 32 : 128 }];
  return null;
}

/** Protocol names of an ip.proto comparison (== or in); null for other operators. */
export function protocolNames(c: ComparisonExpr): string[] | null {
  const op = c.op;
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  if (op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Bytes') return [text(op.rhs.bytes)];
  if (op.kind === 'inSet' && op.set.type === 'Bytes') return op.set.items.map(text);
  return null;
}
