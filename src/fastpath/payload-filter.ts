// Payload matches of many rules in one pass. A rule with a top-level conjunct `FIELD contains BYTES`
// (FIELD a raw-bytes field: ip, tcp, udp, icmp) cannot match a packet whose FIELD lacks BYTES. Where
// at least MIN_PATTERNS such rules read one field, the index (index-plan.ts or classifier.ts) leaves
// them as candidates only where their bytes are there: the first time a packet's candidate mask holds
// such a rule, the field's bytes are searched once for every rule's bytes (PatternScanner), and the
// mask keeps the rules whose bytes were found. The rules' own conditions are then tested as before,
// in order, so the results are those of testing every rule; a packet whose candidates read no such
// field pays nothing.
//
// The search: each pattern is filed under its first m bytes (m the shortest pattern's length, at
// most 4), hashed to a table of buckets; the text's m-byte windows are read in one pass, each
// looked up in the table, and a bucket's patterns compared in full. Patterns of many rules on one
// port (990 DNS payload tests) cost one pass over the payload rather than 990.
import type { Ast, Expr } from '../lang/index.js';
import { RAW_FIELDS } from './conditions.js';
import type { RuleIndex } from './index-plan.js';

/** fewer rules than this on one field keep their own tests */
export const MIN_PATTERNS = 4;

/** What a rule requires of a raw field's bytes: the longest pattern among its top-level conjuncts, or null. */
export function containsRequirement(ast: Ast): { field: string; bytes: Uint8Array } | null {
  let best: { field: string; bytes: Uint8Array } | null = null;
  const visit = (e: Expr): void => {
    if (e.kind === 'group') visit(e.expr);
    else if (e.kind === 'combining' && e.op === 'and') e.items.forEach(visit);
    else if (e.kind === 'comparison' && e.op.kind === 'contains' && e.lhs.base.kind === 'field' && e.lhs.indexes.length === 0) {
      const field = e.lhs.base.name;
      if (RAW_FIELDS[field] !== undefined && e.op.rhs.length > 0 && (best === null || e.op.rhs.length > best.bytes.length)) best = { field, bytes: e.op.rhs };
    }
  };
  visit(ast.expr);
  return best;
}

/** Which rules the filter narrows: those whose requirement's field at least MIN_PATTERNS rules read. */
export function narrowedRules(required: ReadonlyArray<{ field: string; bytes: Uint8Array } | null>): boolean[] {
  const perField = new Map<string, number>();
  for (const r of required) if (r !== null) perField.set(r.field, (perField.get(r.field) ?? 0) + 1);
  return required.map((r) => r !== null && perField.get(r.field)! >= MIN_PATTERNS);
}

/** A search for many byte patterns in one pass; each pattern is one rule's (its group and bit). */
export class PatternScanner {
  /** per group, the bits of the rules whose pattern the last scan found */
  readonly found: Int32Array;
  private readonly m: number;
  private readonly shift: number;
  private readonly start: Int32Array;
  private readonly ids: Int32Array;
  private readonly head: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly from: Int32Array;
  private readonly group: Int32Array;
  private readonly bit: Int32Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;

  constructor(patterns: ReadonlyArray<{ bytes: Uint8Array; group: number; bit: number }>, groups: number) {
    this.found = new Int32Array(groups);
    this.touched = new Int32Array(groups);
    const m = Math.min(4, ...patterns.map((p) => p.bytes.length));
    this.m = m;
    let size = 1024;
    while (size < 4 * patterns.length) size *= 2;
    this.shift = 32 - Math.log2(size);
    this.from = new Int32Array(patterns.length + 1);
    patterns.forEach((p, i) => (this.from[i + 1] = this.from[i] + p.bytes.length));
    this.bytes = new Uint8Array(this.from[patterns.length]);
    patterns.forEach((p, i) => this.bytes.set(p.bytes, this.from[i]));
    this.head = Int32Array.from(patterns, (p) => window(p.bytes, 0, m));
    this.group = Int32Array.from(patterns, (p) => p.group);
    this.bit = Int32Array.from(patterns, (p) => 1 << p.bit);
    // buckets: the patterns of bucket h are ids[start[h] .. start[h + 1])
    const bucketOf = Array.from(this.head, (w) => this.hash(w));
    const counts = new Int32Array(size + 1);
    for (const h of bucketOf) counts[h + 1]++;
    for (let h = 0; h < size; h++) counts[h + 1] += counts[h];
    this.start = Int32Array.from(counts);
    this.ids = new Int32Array(patterns.length);
    const next = Int32Array.from(counts);
    bucketOf.forEach((h, i) => (this.ids[next[h]++] = i));
  }

  private hash(w: number): number {
    return Math.imul(w, 0x9e3779b1) >>> this.shift;
  }

  /** Searches d[from, to) for every pattern; `found` then holds the rules whose pattern is there. */
  scan(d: Uint8Array, from: number, to: number): void {
    const found = this.found;
    for (let i = 0; i < this.touchedCount; i++) found[this.touched[i]] = 0;
    this.touchedCount = 0;
    const m = this.m;
    const mask = m === 4 ? -1 : (1 << (8 * m)) - 1;
    const { start, ids, head, bytes } = this;
    let w = 0;
    for (let i = from; i < to; i++) {
      w = ((w << 8) | d[i]) & mask;
      if (i - from + 1 < m) continue;
      const h = this.hash(w);
      for (let a = start[h], b = start[h + 1]; a < b; a++) {
        const p = ids[a];
        if (head[p] !== w) continue;
        const at = i - m + 1;
        const p0 = this.from[p];
        const n = this.from[p + 1] - p0;
        if (at + n > to) continue;
        let j = m;
        while (j < n && d[at + j] === bytes[p0 + j]) j++;
        if (j < n) continue;
        const g = this.group[p];
        if (found[g] === 0) this.touched[this.touchedCount++] = g;
        found[g] |= this.bit[p];
      }
    }
  }
}

/** the first m bytes of b[at..] as a big-endian number (the window the scan compares) */
function window(b: Uint8Array, at: number, m: number): number {
  let w = 0;
  for (let j = 0; j < m; j++) w = (w << 8) | b[at + j];
  return m === 4 ? w | 0 : w;
}

/**
 * `index` with the rules' payload requirements (`required[i]`: rule i's, from containsRequirement;
 * it is in group groupOf[i] at bit bitOf[i]) narrowing each visited group's mask, for every field
 * at least MIN_PATTERNS rules read; `index` itself where none does.
 */
export function withPayloadFilter(
  index: RuleIndex,
  required: ReadonlyArray<{ field: string; bytes: Uint8Array } | null>,
  groupOf: Int32Array,
  bitOf: Int32Array,
  groups: number,
): RuleIndex {
  const byField = new Map<string, Array<{ bytes: Uint8Array; group: number; bit: number }>>();
  required.forEach((r, i) => {
    if (r === null) return;
    let list = byField.get(r.field);
    if (list === undefined) byField.set(r.field, (list = []));
    list.push({ bytes: r.bytes, group: groupOf[i], bit: bitOf[i] });
  });
  const helpers: Record<string, unknown> = { ...index.helpers };
  const declare: string[] = [];
  const narrow: string[] = [];
  let t = 0;
  for (const [field, patterns] of byField) {
    if (patterns.length < MIN_PATTERNS) continue;
    const needs = new Int32Array(groups);
    for (const p of patterns) needs[p.group] |= 1 << p.bit;
    const scanner = new PatternScanner(patterns, groups);
    helpers[`PN${t}`] = needs;
    helpers[`PS${t}`] = scanner;
    helpers[`PF${t}`] = scanner.found;
    const [has, start, end] = RAW_FIELDS[field];
    declare.push(`let ps${t} = 0;`);
    // an absent field holds no bytes: its rules are no candidates (contains is false there)
    narrow.push(
      `if ((mask & PN${t}[gi]) !== 0) { if (ps${t} === 0) { ps${t} = 1; PS${t}.scan(d, ${start}, ${has} ? ${end} : ${start}); } ` +
        `mask &= ~PN${t}[gi] | PF${t}[gi]; if (mask === 0) continue; }`,
    );
    t++;
  }
  if (t === 0) return index;
  return { ...index, source: `${index.source}\n${declare.join(' ')}`, helpers, narrow: narrow.join('\n') };
}
