// Compiled comparisons on primitive values read straight from the binding: one closure per
// (type, operator), each with its constants captured, so evaluating allocates nothing. An
// absent value gives false, except for `!=` (true).
import type { ComparisonOp, IpItem, IpValue, OrderingOp } from '../ast.js';
import type { BoolAccess, BytesAccess, IntAccess, IpAccess } from '../binding.js';
import type { WildcardPattern } from '../literals/wildcard.js';
import { parseWildcard } from '../literals/wildcard.js';
import { compileRegex } from '../regex/compile.js';
import { IpSetBuilder, type IpSet } from '../../net/ip-set.js';
import { compareView, containsView, equalsView, wildcardMatchView } from './bytes.js';
import { intMembership, intSearch, mergeRanges, type IntRanges } from './int-set.js';

export type Pred<P> = (p: P) => boolean;

const ORDER_TEST: Record<OrderingOp, (c: number) => boolean> = {
  eq: (c) => c === 0, ne: (c) => c !== 0, ge: (c) => c >= 0, le: (c) => c <= 0, gt: (c) => c > 0, lt: (c) => c < 0,
};

export function compileBool<P>(acc: BoolAccess<P>): Pred<P> {
  return (p) => acc.has(p) && acc.get(p);
}

const INT_ORDERING: Record<OrderingOp, <P>(a: IntAccess<P>, n: number) => Pred<P>> = {
  eq: (a, n) => (p) => a.has(p) && a.get(p) === n,
  ne: (a, n) => (p) => !a.has(p) || a.get(p) !== n,
  ge: (a, n) => (p) => a.has(p) && a.get(p) >= n,
  le: (a, n) => (p) => a.has(p) && a.get(p) <= n,
  gt: (a, n) => (p) => a.has(p) && a.get(p) > n,
  lt: (a, n) => (p) => a.has(p) && a.get(p) < n,
};

/** (v & n) != 0 on 64-bit two's complement, via 32-bit halves (no BigInt per packet). */
function bitwiseAnd<P>(a: IntAccess<P>, n: bigint): Pred<P> {
  const lo = Number(BigInt.asUintN(32, n)) | 0;
  const hi = Number(BigInt.asIntN(32, BigInt.asIntN(64, n) >> 32n)) | 0;
  if (hi === 0) return (p) => a.has(p) && (a.get(p) & lo) !== 0;
  return (p) => {
    if (!a.has(p)) return false;
    const v = a.get(p);
    return (v & lo) !== 0 || (Math.floor(v / 4294967296) & hi) !== 0;
  };
}

// Small sets get their own closures (no call to a membership function per packet).
function intSetPredicate<P>(a: IntAccess<P>, r: IntRanges): Pred<P> {
  const { lo, hi } = r;
  if (lo.length === 1) {
    const [l, h] = [lo[0], hi[0]];
    return l === h ? (p) => a.has(p) && a.get(p) === l : (p) => { if (!a.has(p)) return false; const v = a.get(p); return v >= l && v <= h; };
  }
  if (lo.length === 2 && lo[0] === hi[0] && lo[1] === hi[1]) {
    const [x, y] = [lo[0], lo[1]];
    return (p) => { if (!a.has(p)) return false; const v = a.get(p); return v === x || v === y; };
  }
  const member = intMembership(r);
  return (p) => a.has(p) && member(a.get(p));
}

export function compileInt<P>(a: IntAccess<P>, op: ComparisonOp, notes: string[]): Pred<P> | null {
  switch (op.kind) {
    case 'ordering':
      notes.push(`int ${op.op} ${op.rhs.type === 'Int' ? op.rhs.value : ''}`);
      return INT_ORDERING[op.op](a, Number((op.rhs as { value: bigint }).value));
    case 'bitwiseAnd':
      notes.push(`int & ${op.rhs}`);
      return bitwiseAnd(a, op.rhs);
    case 'inSet': {
      if (op.set.type !== 'Int') return null;
      const ranges = mergeRanges(op.set.ranges);
      const n = ranges.lo.length;
      notes.push(`int set: ${op.set.ranges.length} items -> ${n} merged ranges [${Array.from(ranges.lo, (lo, i) => (lo === ranges.hi[i] ? `${lo}` : `${lo}..${ranges.hi[i]}`)).slice(0, 16).join(' ')}${n > 16 ? ' …' : ''}], ${n <= 1 ? 'direct test' : intSearch(n)}`);
      return intSetPredicate(a, ranges);
    }
    default:
      return null;
  }
}

function ipCompare<P>(a: IpAccess<P>, p: P, rhs: IpValue): number {
  if (rhs.family === 4) return (a.v4(p) >>> 0) - rhs.v4;
  const w = a.v6(p);
  for (let i = 0; i < 4; i++) if (w[i] !== rhs.v6[i]) return (w[i] >>> 0) - rhs.v6[i];
  return 0;
}

/** An IpSet of the set's items (CIDRs as prefixes, ranges as ranges). */
export function buildIpSet(items: readonly IpItem[]): IpSet {
  const b = new IpSetBuilder();
  for (const item of items) {
    if (item.kind === 'cidr') {
      if (item.ip.family === 4) b.addPrefix4(item.ip.v4, item.len);
      else b.addPrefix6(item.ip.v6, item.len);
    } else if (item.lo.family === 4 && item.hi.family === 4) b.addRange4(item.lo.v4, item.hi.v4);
    else if (item.lo.family === 6 && item.hi.family === 6) b.addRange6(item.lo.v6, item.hi.v6);
  }
  return b.build();
}

export function compileIp<P>(a: IpAccess<P>, op: ComparisonOp, lists: ReadonlyMap<string, IpSet>, notes: string[]): Pred<P> | null {
  if (op.kind === 'ordering' && op.rhs.type === 'Ip') {
    const rhs = op.rhs.ip;
    const fam = rhs.family;
    const test = ORDER_TEST[op.op];
    const crossFamily = op.op === 'ne';
    notes.push(`ip ${op.op}, IPv${fam} only (other family: ${crossFamily})`);
    return (p) => {
      if (!a.has(p)) return crossFamily;
      if (a.family(p) !== fam) return crossFamily;
      return test(ipCompare(a, p, rhs));
    };
  }
  let set: IpSet | undefined;
  if (op.kind === 'inSet' && op.set.type === 'Ip') {
    set = buildIpSet(op.set.items);
    notes.push(`ip set: ${op.set.items.length} items -> ${set.ranges4} IPv4 + ${set.ranges6} IPv6 merged ranges, binary search`);
  } else if (op.kind === 'inList') {
    set = lists.get(op.name);
    notes.push(`ip list $${op.name}: ${set ? `${set.ranges4} IPv4 + ${set.ranges6} IPv6 ranges` : 'unresolved'}`);
  }
  if (!set) return null;
  const s = set;
  return (p) => a.has(p) && (a.family(p) === 4 ? s.has4(a.v4(p) >>> 0) : s.has6(a.v6(p)));
}

export function compileBytes<P>(a: BytesAccess<P>, op: ComparisonOp, notes: string[]): Pred<P> | null {
  switch (op.kind) {
    case 'ordering': {
      if (op.rhs.type !== 'Bytes') return null;
      const rhs = op.rhs.bytes;
      notes.push(`bytes ${op.op} (${rhs.length} bytes)`);
      if (op.op === 'eq') return (p) => a.has(p) && equalsView(a.bytes(p), a.start(p), a.end(p), rhs);
      if (op.op === 'ne') return (p) => !a.has(p) || !equalsView(a.bytes(p), a.start(p), a.end(p), rhs);
      const test = ORDER_TEST[op.op];
      return (p) => a.has(p) && test(compareView(a.bytes(p), a.start(p), a.end(p), rhs));
    }
    case 'contains': {
      const needle = op.rhs;
      notes.push(`bytes contains (${needle.length} bytes)`);
      return (p) => a.has(p) && containsView(a.bytes(p), a.start(p), a.end(p), needle);
    }
    case 'matches': {
      const re = compileRegex(op.pattern);
      if (typeof re === 'string') return null;
      notes.push('regex: linear-time automaton over bytes');
      return (p) => a.has(p) && re.test(a.bytes(p), a.start(p), a.end(p));
    }
    case 'wildcard': {
      const w = parseWildcard(op.pattern) as WildcardPattern;
      const caseless = !op.strict;
      notes.push(`wildcard: ${w.segments.length} literal segments${caseless ? ', ASCII case-insensitive' : ''}`);
      return (p) => a.has(p) && wildcardMatchView(a.bytes(p), a.start(p), a.end(p), w, caseless);
    }
    case 'inSet': {
      if (op.set.type !== 'Bytes') return null;
      const items = op.set.items;
      notes.push(`bytes set: ${items.length} items, compared by length then bytes`);
      return (p) => {
        if (!a.has(p)) return false;
        const bytes = a.bytes(p);
        const start = a.start(p);
        const end = a.end(p);
        for (let i = 0; i < items.length; i++) if (equalsView(bytes, start, end, items[i])) return true;
        return false;
      };
    }
    default:
      return null;
  }
}
