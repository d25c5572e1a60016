// A candidate index for large rulesets, as pf keeps its rules flat in their number: each rule is
// filed under its most selective condition that every matching packet must meet (a conjunct of the
// rule, at top level) — a port set (tcp/udp source or destination port equal to or in a set of at
// most MAX_PORTS ports) or an IPv4 address set (ip.src/ip.dst equal to or in a set of prefixes and
// ranges, filed under the /16s they cover, at most MAX_SLASH16 of them, or, for sets of at most
// MAX_SLASH24 /24s, under the /24s they cover, hashed to 16 bits: a shared hash only adds candidates).
// A /24 filing is taken before any other, as customers' address blocks share their /16s and the
// traffic's common ports; otherwise the filing with the fewest keys. Per packet, the index gives
// each group of rules (generate.ts) a bit mask of its candidates: the rules filed under the packet's
// ports and /16s, plus the rules with no such condition. A rule that is not a candidate cannot match
// (its required condition is false), and candidates are tested in rule order, so the results are
// those of testing every rule.
//
// Tables are kept as compressed rows: for key v, entries[start[v] .. start[v+1]) are pairs (group,
// bits), so the per-packet lookup reads typed arrays only. The row starts (256 KB a table) are read
// only for keys a bit set of 8 KB says are filed: most packets' ports and /16s are not, and the
// bit set stays in the L1 cache where the starts, read at random, would miss it.
import type { Ast, ComparisonExpr, Expr } from '../lang/index.js';
import { mergeRanges } from '../lang/eval/int-set.js';

const MAX_PORTS = 1024;
const MAX_SLASH16 = 4096;
const MAX_SLASH24 = 4096;

/** the 16-bit key of a /24 (an IPv4 address >>> 8), as the per-packet source computes it (KEYS) */
function slash24Key(v24: number): number {
  return Math.imul(v24, 0x9e3779b1) >>> 16;
}

/**
 * The per-packet source that fills `masks` (one per group: its candidate rules' bits) and
 * `groupsLeft` (a bit per group that has candidates, 32 groups a word), and the values it refers to.
 */
export interface RuleIndex {
  readonly source: string;
  readonly helpers: Record<string, unknown>;
  /** the groups holding rules filed under no key: candidates for every packet */
  readonly alwaysGroups: readonly number[];
}

/** the packet's presence test and key expression for each indexed field */
const KEYS: Readonly<Record<string, readonly [when: string, key: string]>> = {
  'tcp.dstport': ['tcp === 1', 'dport'],
  'tcp.srcport': ['tcp === 1', 'sport'],
  'udp.dstport': ['udp === 1', 'dport'],
  'udp.srcport': ['udp === 1', 'sport'],
  'ip.src': ['fam === 4', 's4 >>> 16'],
  'ip.dst': ['fam === 4', 'd4 >>> 16'],
  'ip.src/24': ['fam === 4', 'Math.imul(s4 >>> 8, 0x9e3779b1) >>> 16'],
  'ip.dst/24': ['fam === 4', 'Math.imul(d4 >>> 8, 0x9e3779b1) >>> 16'],
};

interface Filing {
  readonly field: string;
  readonly keys: number[];
}

function portKeys(e: ComparisonExpr): number[] | null {
  const op = e.op;
  let ranges: ReadonlyArray<readonly [bigint, bigint]>;
  if (op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Int') ranges = [[op.rhs.value, op.rhs.value]];
  else if (op.kind === 'inSet' && op.set.type === 'Int') ranges = op.set.ranges;
  else return null;
  const r = mergeRanges(ranges);
  const keys: number[] = [];
  for (let i = 0; i < r.lo.length; i++) {
    for (let v = Math.max(0, r.lo[i]); v <= Math.min(65535, r.hi[i]); v++) {
      keys.push(v);
      if (keys.length > MAX_PORTS) return null;
    }
  }
  return keys;
}

/** The spans of IPv4 addresses an address comparison's matches lie in, or null (IPv6, not `==` or `in`). */
function addressSpans(e: ComparisonExpr): Array<[number, number]> | null {
  const op = e.op;
  const spans: Array<[number, number]> = [];
  if (op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Ip') {
    if (op.rhs.ip.family !== 4) return null;
    spans.push([op.rhs.ip.v4, op.rhs.ip.v4]);
  } else if (op.kind === 'inSet' && op.set.type === 'Ip') {
    for (const item of op.set.items) {
      if (item.kind === 'cidr') {
        if (item.ip.family !== 4) return null;
        const lo = item.len === 0 ? 0 : (item.ip.v4 & (~0 << (32 - item.len))) >>> 0;
        const hi = (lo + 2 ** (32 - item.len) - 1) >>> 0;
        spans.push([lo, hi]);
      } else {
        if (item.lo.family !== 4 || item.hi.family !== 4) return null;
        spans.push([item.lo.v4 >>> 0, item.hi.v4 >>> 0]);
      }
    }
  } else return null;
  return spans;
}

/** The keys of the /2^(32 - shift) blocks the spans cover (hashed by `key`), or null past `max` blocks. */
function blockKeys(spans: ReadonlyArray<[number, number]>, shift: number, max: number, key: (block: number) => number): number[] | null {
  const blocks = new Set<number>();
  for (const [lo, hi] of spans) {
    const a = lo >>> shift;
    const b = hi >>> shift;
    if (b - a + 1 + blocks.size > max) return null;
    for (let v = a; v <= b; v++) blocks.add(v);
  }
  return [...new Set([...blocks].map(key))];
}

/** The conjuncts every match of `e` must meet that the index can file under, as filings. */
function filings(e: Expr, out: Filing[]): void {
  if (e.kind === 'group') filings(e.expr, out);
  else if (e.kind === 'combining' && e.op === 'and') for (const item of e.items) filings(item, out);
  else if (e.kind === 'comparison' && e.lhs.base.kind === 'field' && e.lhs.indexes.length === 0) {
    const field = e.lhs.base.name;
    if (!(field in KEYS)) return;
    if (!field.startsWith('ip.')) {
      const keys = portKeys(e);
      if (keys !== null) out.push({ field, keys });
      return;
    }
    const spans = addressSpans(e);
    if (spans === null) return;
    const slash24 = blockKeys(spans, 8, MAX_SLASH24, slash24Key);
    if (slash24 !== null) out.push({ field: `${field}/24`, keys: slash24 });
    const slash16 = blockKeys(spans, 16, MAX_SLASH16, (block) => block);
    if (slash16 !== null) out.push({ field, keys: slash16 });
  }
}

/** A /24 filing with the fewest keys, else the filing with the fewest keys (each field's key space holds 65,536 keys), or null. */
function bestFiling(ast: Ast): Filing | null {
  const found: Filing[] = [];
  filings(ast.expr, found);
  const slash24 = found.filter((f) => f.field.endsWith('/24'));
  let best: Filing | null = null;
  for (const f of slash24.length > 0 ? slash24 : found) if (best === null || f.keys.length < best.keys.length) best = f;
  return best;
}

/**
 * Files the rules (asts[i] is the i-th rule given to generateDecider, in group groupOf[i] at bit
 * bitOf[i]) and returns the per-packet source that fills `masks`.
 */
export function planIndex(asts: readonly Ast[], groupOf: Int32Array, bitOf: Int32Array, groups: number): RuleIndex {
  const always = new Int32Array(groups);
  const tables = new Map<string, Map<number, Map<number, number>>>();
  asts.forEach((ast, i) => {
    const bit = 1 << bitOf[i];
    const f = bestFiling(ast);
    if (f === null) {
      always[groupOf[i]] |= bit;
      return;
    }
    let table = tables.get(f.field);
    if (table === undefined) tables.set(f.field, (table = new Map()));
    for (const key of f.keys) {
      let row = table.get(key);
      if (row === undefined) table.set(key, (row = new Map()));
      row.set(groupOf[i], (row.get(groupOf[i]) ?? 0) | bit);
    }
  });
  const words = (groups + 31) >>> 5;
  const alwaysGroups = new Int32Array(words);
  always.forEach((bits, g) => {
    if (bits !== 0) alwaysGroups[g >>> 5] |= 1 << (g & 31);
  });
  const helpers: Record<string, unknown> = { masks: Int32Array.from(always), ALWAYS: always, ALWAYS_GROUPS: alwaysGroups, groupsLeft: new Int32Array(words) };
  // the groups the last packet touched get their masks back (the others hold ALWAYS still); then
  // this packet's groups are the always-candidate ones plus those its keys file rules in
  const lines = [
    `for (let w = 0; w < ${words}; w++) {`,
    '  for (let left = groupsLeft[w]; left !== 0; left &= left - 1) { const g = (w << 5) | (31 - Math.clz32(left & -left)); masks[g] = ALWAYS[g]; }',
    '  groupsLeft[w] = ALWAYS_GROUPS[w];',
    '}',
  ];
  let t = 0;
  for (const [field, table] of tables) {
    // row starts: each filed key's entries in key order; a key without entries starts (and ends)
    // where the next filed key starts
    const start = new Int32Array(65537);
    const entries: number[] = [];
    let next = 0;
    for (const key of [...table.keys()].sort((a, b) => a - b)) {
      start.fill(entries.length, next, key + 1);
      next = key + 1;
      for (const [group, bits] of table.get(key)!) entries.push(group, bits);
    }
    start.fill(entries.length, next);
    const filed = new Int32Array(2048);
    for (const key of table.keys()) filed[key >>> 5] |= 1 << (key & 31);
    helpers[`IB${t}`] = filed;
    helpers[`IS${t}`] = start;
    helpers[`IE${t}`] = Int32Array.from(entries);
    const [when, key] = KEYS[field];
    lines.push(
      `if (${when}) { const key = ${key}; if ((IB${t}[key >>> 5] & (1 << (key & 31))) !== 0) ` +
        `for (let a = IS${t}[key], b = IS${t}[key + 1]; a < b; a += 2) { const g = IE${t}[a]; masks[g] |= IE${t}[a + 1]; groupsLeft[g >>> 5] |= 1 << (g & 31); } }`,
    );
    t++;
  }
  return { source: lines.join('\n'), helpers, alwaysGroups: [...always.keys()].filter((g) => always[g] !== 0) };
}
