// A candidate index for large rulesets whose classifier (classifier.ts) would pass its memory
// bound: each rule is filed under one of the values it requires (conjuncts.ts) of one field, its
// most selective — a port set (at most MAX_PORTS ports) or an IPv4 address set (ip.src/ip.dst, with
// no IPv6 address in it), filed under the /16s they cover, at most MAX_SLASH16 of them, or, for sets of at most
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
import { FIELD_VALUES, type Admitted, type SortedField } from './conjuncts.js';

const MAX_PORTS = 1024;
const MAX_SLASH16 = 4096;
const MAX_SLASH24 = 4096;

/** the 16-bit key of a /24 (an IPv4 address >>> 8), as the per-packet source computes it (KEYS) */
function slash24Key(v24: number): number {
  return Math.imul(v24, 0x9e3779b1) >>> 16;
}

/**
 * How a packet's candidate rules are found (generate.ts): the per-packet source to run first, the
 * values it refers to, and then the expressions of the groups that may hold candidates (a bit per
 * group, 32 groups a word) and of a group's candidate mask (a bit per rule of the group).
 */
export interface RuleIndex {
  readonly source: string;
  readonly helpers: Record<string, unknown>;
  /** the groups holding rules filed under no key: candidates for every packet */
  readonly alwaysGroups: readonly number[];
  /** the source of word `w` of the groups that may hold candidates */
  readonly groupsIn: (w: string) => string;
  /** the source of group `gi`'s candidate mask (0: none after all) */
  readonly maskOf: (gi: string) => string;
}

/** the packet's presence test and key expression for each indexed field: a port, a /16 or a /24's hash */
const KEYS: Readonly<Record<string, readonly [when: string, key: string]>> = {
  'tcp.dstport': FIELD_VALUES['tcp.dstport'],
  'tcp.srcport': FIELD_VALUES['tcp.srcport'],
  'udp.dstport': FIELD_VALUES['udp.dstport'],
  'udp.srcport': FIELD_VALUES['udp.srcport'],
  ...Object.fromEntries((['ip.src', 'ip.dst'] as const).flatMap((f) => {
    const [when, value] = FIELD_VALUES[f];
    return [[f, [when, `${value} >>> 16`]], [`${f}/24`, [when, `Math.imul(${value} >>> 8, 0x9e3779b1) >>> 16`]]];
  })),
};

interface Filing {
  readonly field: string;
  readonly keys: number[];
}

/** The ports a port field's values hold, or null past MAX_PORTS. */
function portKeys(values: Admitted): number[] | null {
  const keys: number[] = [];
  for (const [lo, hi] of values.spans) {
    if (keys.length + hi - lo + 1 > MAX_PORTS) return null;
    for (let v = lo; v <= hi; v++) keys.push(v);
  }
  return keys;
}

/** The keys of the /2^(32 - shift) blocks the spans cover (hashed by `key`), or null past `max` blocks. */
function blockKeys(spans: Admitted['spans'], shift: number, max: number, key: (block: number) => number): number[] | null {
  const blocks = new Set<number>();
  for (const [lo, hi] of spans) {
    const a = lo >>> shift;
    const b = hi >>> shift;
    if (b - a + 1 + blocks.size > max) return null;
    for (let v = a; v <= b; v++) blocks.add(v);
  }
  return [...new Set([...blocks].map(key))];
}

/** The filings of a rule's required values: a field whose every match has a value there (not `other`). */
function filings(required: ReadonlyMap<SortedField, Admitted>): Filing[] {
  const out: Filing[] = [];
  for (const [field, values] of required) {
    if (values.other) continue;
    if (!field.startsWith('ip.')) {
      const keys = portKeys(values);
      if (keys !== null) out.push({ field, keys });
      continue;
    }
    const slash24 = blockKeys(values.spans, 8, MAX_SLASH24, slash24Key);
    if (slash24 !== null) out.push({ field: `${field}/24`, keys: slash24 });
    const slash16 = blockKeys(values.spans, 16, MAX_SLASH16, (block) => block);
    if (slash16 !== null) out.push({ field, keys: slash16 });
  }
  return out;
}

/** A /24 filing with the fewest keys, else the filing with the fewest keys (each field's key space holds 65,536 keys), or null. */
function bestFiling(required: ReadonlyMap<SortedField, Admitted>): Filing | null {
  const found = filings(required);
  const slash24 = found.filter((f) => f.field.endsWith('/24'));
  let best: Filing | null = null;
  for (const f of slash24.length > 0 ? slash24 : found) if (best === null || f.keys.length < best.keys.length) best = f;
  return best;
}

/**
 * The most rules filed under keys the key index can leave a packet as candidates: in each field's
 * table, the most rules filed under one key. (Rules filed under no key are candidates for every
 * packet here as in the classifier.)
 */
export function mostFiledUnderKeys(required: ReadonlyArray<ReadonlyMap<SortedField, Admitted>>): number {
  const perKey = new Map<string, Map<number, number>>();
  for (const values of required) {
    const f = bestFiling(values);
    if (f === null) continue;
    let table = perKey.get(f.field);
    if (table === undefined) perKey.set(f.field, (table = new Map()));
    for (const key of f.keys) table.set(key, (table.get(key) ?? 0) + 1);
  }
  let most = 0;
  for (const table of perKey.values()) most += Math.max(...table.values());
  return most;
}

/**
 * Files the rules (required[i]: what the i-th rule given to generateDecider requires, conjuncts.ts;
 * it is in group groupOf[i] at bit bitOf[i]) and returns the per-packet source that fills `masks`.
 */
export function planIndex(required: ReadonlyArray<ReadonlyMap<SortedField, Admitted>>, groupOf: Int32Array, bitOf: Int32Array, groups: number): RuleIndex {
  const always = new Int32Array(groups);
  const tables = new Map<string, Map<number, Map<number, number>>>();
  required.forEach((values, i) => {
    const bit = 1 << bitOf[i];
    const f = bestFiling(values);
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
  return {
    source: lines.join('\n'),
    helpers,
    alwaysGroups: [...always.keys()].filter((g) => always[g] !== 0),
    groupsIn: (w) => `groupsLeft[${w}]`,
    maskOf: (gi) => `masks[${gi}]`,
  };
}
