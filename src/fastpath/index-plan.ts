// A candidate index for large rulesets whose classifier (classifier.ts) would pass its memory
// bound, or where its keys leave few candidates: each rule is filed under the keys rule-keys.ts
// chooses for it — the values of one field its matches must have (a port set, an IPv4 address
// set's /24s, hashed to 16 bits: a shared hash only adds candidates, or its /16s, a small header
// integer such as ip.len or tcp.flags), or such values of a field for each side of an `or`. Per
// packet, the index gives each group of rules (generate.ts) a bit mask of its candidates: the rules
// filed under the packet's keys, plus the rules filed under none. A rule that is not a candidate
// cannot match (what it requires is false), and candidates are tested in rule order, so the results
// are those of testing every rule.
//
// Tables are kept as compressed rows: for key v, entries[start[v] .. start[v+1]) are pairs (group,
// bits), so the per-packet lookup reads typed arrays only. The row starts (256 KB a table) are read
// only for keys a bit set of 8 KB says are filed: most packets' ports and /16s are not, and the
// bit set stays in the L1 cache where the starts, read at random, would miss it.
import { KEYS, type FilingChoice } from './rule-keys.js';

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
  /** statements that narrow a visited group's `mask` (of group `gi`) further, `continue` when none is left (payload-filter.ts) */
  readonly narrow?: string;
}

/**
 * The most rules filed under keys the key index can leave a packet as candidates: in each field's
 * table, the most rules filed under one key. (Rules filed under no key are candidates for every
 * packet here as in the classifier.)
 */
export function mostFiledUnderKeys(filed: ReadonlyArray<FilingChoice | null>): number {
  const perKey = new Map<string, Map<number, number>>();
  for (const choice of filed) {
    for (const f of choice ?? []) {
      let table = perKey.get(f.field);
      if (table === undefined) perKey.set(f.field, (table = new Map()));
      for (const key of f.keys) table.set(key, (table.get(key) ?? 0) + 1);
    }
  }
  let most = 0;
  for (const table of perKey.values()) most += Math.max(0, ...table.values());
  return most;
}

/**
 * Files the rules (required[i]: what the i-th rule given to generateDecider requires, conjuncts.ts;
 * it is in group groupOf[i] at bit bitOf[i]) and returns the per-packet source that fills `masks`.
 */
export function planIndex(filed: ReadonlyArray<FilingChoice | null>, groupOf: Int32Array, bitOf: Int32Array, groups: number): RuleIndex {
  const always = new Int32Array(groups);
  const tables = new Map<string, Map<number, Map<number, number>>>();
  filed.forEach((choice, i) => {
    const bit = 1 << bitOf[i];
    if (choice === null) {
      always[groupOf[i]] |= bit;
      return;
    }
    for (const f of choice) {
      let table = tables.get(f.field);
      if (table === undefined) tables.set(f.field, (table = new Map()));
      for (const key of f.keys) {
        let row = table.get(key);
        if (row === undefined) table.set(key, (row = new Map()));
        row.set(groupOf[i], (row.get(groupOf[i]) ?? 0) | bit);
      }
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
