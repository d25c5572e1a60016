// A packet classifier for large rulesets, by bit-vector intersection per field (Lakshman and
// Stiliadis, "High-speed policy-based packet forwarding using efficient multi-dimensional range
// matching", 1998). For each field rules constrain (conjuncts.ts: addresses and ports), the field's
// value space is cut into elementary intervals at every end of a rule's values; each interval
// holds the bit vector of the rules a packet with a value there can still match (rules that do not
// constrain the field: all of them). Per packet, each field's interval is found (a table for ports,
// a binary search for addresses, within the intervals of the address's /16), the vectors are ANDed, and only the rules left are tested, in rule
// order: a rule left out has a required conjunct the packet does not meet, so the results are those
// of testing every rule.
//
// A vector holds one 32-bit word per group of rules (generate.ts: at most 32 rules a group, one bit
// each), so the AND leaves each group's candidate mask. Before those words, a vector has two
// summaries with a bit per group (uniqueRows), which say first which groups to AND and visit at
// all: a packet's address, or its port, usually leaves candidates in a few groups. Identical
// vectors are stored once. Memory grows with intervals x groups; past MAX_WORDS the
// classifier is not built and the key index is used instead.
import { FIELD_VALUES, maxValue, SORTED_FIELDS, type Admitted, type SortedField } from './conjuncts.js';
import type { RuleIndex } from './index-plan.js';

/** at most this many vector words over all fields (4 bytes each) */
export const MAX_WORDS = 1 << 22;

/**
 * One field's intervals: starts[i] is the first value of interval i; row i of `rows` (`groups`
 * words) its rules, row starts.length those of a packet without such a value; `unconstrained` the
 * rules in every row.
 */
interface FieldTable {
  readonly starts: Uint32Array;
  readonly rows: Int32Array;
  readonly unconstrained: Int32Array;
}

/** The intervals of a field and their vectors, or null past `budget` words. */
function fieldTable(values: ReadonlyArray<Admitted | undefined>, max: number, groupOf: Int32Array, bitOf: Int32Array, groups: number, budget: number): FieldTable | null {
  const cuts = new Set<number>([0]);
  for (const v of values) for (const [lo, hi] of v?.spans ?? []) cuts.add(lo).add(hi + 1);
  const starts = Uint32Array.from([...cuts].filter((c) => c <= max).sort((a, b) => a - b));
  if ((starts.length + 1) * groups > budget) return null;
  // rules that do not constrain the field are in every row
  const unconstrained = new Int32Array(groups);
  values.forEach((v, rule) => {
    if (v === undefined) unconstrained[groupOf[rule]] |= 1 << bitOf[rule];
  });
  const rows = new Int32Array((starts.length + 1) * groups);
  for (let i = 0; i <= starts.length; i++) rows.set(unconstrained, i * groups);
  const other = starts.length * groups;
  values.forEach((v, rule) => {
    if (v === undefined) return;
    const g = groupOf[rule];
    const bit = 1 << bitOf[rule];
    if (v.other) rows[other + g] |= bit;
    for (const [lo, hi] of v.spans) for (let i = interval(starts, lo); i < starts.length && starts[i] <= hi; i++) rows[i * groups + g] |= bit;
  });
  return { starts, rows, unconstrained };
}

/** the words before a row's `groups` words: two summaries of 32 groups a word */
const summaryWords = (words: number) => 2 * words;

/**
 * The rows stored once each (`flat`), and the offset there of each row of `rows`. Each stored row
 * starts with two summaries, a bit per group: first the groups whose word in the row is not 0,
 * then those where it holds a rule that constrains the field (a rule not in `unconstrained`).
 */
function uniqueRows({ rows, unconstrained }: FieldTable, groups: number, words: number): { flat: Int32Array; offsets: Int32Array } {
  const stride = summaryWords(words) + groups;
  const count = rows.length / groups;
  const byHash = new Map<number, number[]>();
  const offsets = new Int32Array(count);
  const kept: number[] = [];
  const same = (a: number, b: number) => {
    for (let g = 0; g < groups; g++) if (rows[a + g] !== rows[b + g]) return false;
    return true;
  };
  for (let i = 0; i < count; i++) {
    const at = i * groups;
    let h = 0x811c9dc5;
    for (let g = 0; g < groups; g++) h = Math.imul(h ^ rows[at + g], 0x01000193);
    let alike = byHash.get(h);
    if (alike === undefined) byHash.set(h, (alike = []));
    const found = alike.find((k) => same(kept[k] * groups, at));
    if (found !== undefined) offsets[i] = found * stride;
    else {
      offsets[i] = kept.length * stride;
      alike.push(kept.length);
      kept.push(i);
    }
  }
  const flat = new Int32Array(kept.length * stride);
  kept.forEach((row, k) => {
    const at = k * stride;
    for (let g = 0; g < groups; g++) {
      const bits = rows[row * groups + g];
      if (bits !== 0) flat[at + (g >>> 5)] |= 1 << (g & 31);
      if ((bits & ~unconstrained[g]) !== 0) flat[at + words + (g >>> 5)] |= 1 << (g & 31);
    }
    flat.set(rows.subarray(row * groups, (row + 1) * groups), at + summaryWords(words));
  });
  return { flat, offsets };
}

/**
 * The classifier over `required` (each rule's required values, conjuncts.ts; rule i is in group
 * groupOf[i] at bit bitOf[i]): per packet, the offset of each field's vector, whose words are
 * ANDed; or null when no rule constrains a sorted field or its vectors would pass MAX_WORDS.
 */
export function planClassifier(required: ReadonlyArray<ReadonlyMap<SortedField, Admitted>>, groupOf: Int32Array, bitOf: Int32Array, groups: number): RuleIndex | null {
  const fields = SORTED_FIELDS.filter((f) => required.some((r) => r.has(f)));
  if (fields.length === 0) return null;
  const words = (groups + 31) >>> 5;
  const helpers: Record<string, unknown> = { interval };
  const lines: string[] = [];
  let budget = MAX_WORDS;
  for (const [t, field] of fields.entries()) {
    const table = fieldTable(required.map((r) => r.get(field)), maxValue(field), groupOf, bitOf, groups, budget);
    if (table === null) return null;
    const { flat, offsets } = uniqueRows(table, groups, words);
    budget -= flat.length;
    const [when, value] = FIELD_VALUES[field];
    const other = offsets[table.starts.length];
    helpers[`CV${t}`] = flat;
    if (field.startsWith('ip.')) {
      // addresses: the intervals holding the first address of each /16 and of the next one bound
      // the search (a /16 inside one interval is found without one)
      const bySlash16 = new Int32Array(0x10001).fill(table.starts.length - 1);
      table.starts.forEach((start, i) => bySlash16.fill(i, Math.ceil(start / 0x10000), Math.floor(((table.starts[i + 1] ?? 2 ** 32) - 1) / 0x10000) + 1));
      helpers[`CS${t}`] = table.starts;
      helpers[`CB${t}`] = bySlash16;
      helpers[`CO${t}`] = offsets.subarray(0, table.starts.length);
      lines.push(
        `let o${t} = ${other};`,
        `if (${when}) { const a = CB${t}[${value} >>> 16]; const b = CB${t}[(${value} >>> 16) + 1]; o${t} = CO${t}[a === b ? a : interval(CS${t}, ${value}, a, b)]; }`,
      );
    } else {
      // ports: the offset of every value, read directly
      const byValue = new Int32Array(0x10000);
      table.starts.forEach((start, i) => byValue.fill(offsets[i], start, table.starts[i + 1] ?? 0x10000));
      helpers[`CO${t}`] = byValue;
      lines.push(`const o${t} = ${when} ? CO${t}[${value}] : ${other};`);
    }
  }
  const always = new Set<number>();
  const alwaysWords = new Int32Array(words);
  required.forEach((r, i) => {
    if (r.size !== 0) return;
    always.add(groupOf[i]);
    alwaysWords[groupOf[i] >>> 5] |= 1 << (groupOf[i] & 31);
  });
  helpers.CA = alwaysWords;
  // a group may hold candidates where every field's vector has bits in it, and where one field's
  // vector has a rule constraining that field or the group has a rule constraining none (a rule
  // that constrains a field is a candidate only where that field's values admit it)
  const and = (at: string) => fields.map((_, t) => `CV${t}[o${t} + ${at}]`).join(' & ');
  const or = (at: string) => fields.map((_, t) => `CV${t}[o${t} + ${at}]`).join(' | ');
  return {
    source: lines.join('\n'),
    helpers,
    alwaysGroups: [...always].sort((a, b) => a - b),
    groupsIn: (w) => `(${and(w)}) & (CA[${w}] | ${or(`${words} + ${w}`)})`,
    maskOf: (gi) => and(`${summaryWords(words)} + ${gi}`),
  };
}

/** The index of the interval of `starts` (ascending, starts[0] = 0) that holds v, known to be in intervals a to b. */
function interval(starts: Uint32Array, v: number, a = 0, b = starts.length - 1): number {
  while (a < b) {
    const mid = (a + b + 1) >>> 1;
    if (starts[mid] <= v) a = mid;
    else b = mid - 1;
  }
  return a;
}
