// The generated per-frame function of a ruleset: the header prologue (headers.ts), then the rules
// in order, split into group functions of a bounded size (V8 stops optimising a function past
// ~60 KB of bytecode: one 1,000-rule function ran 100x slower). Each rule's condition is written by
// conditions.ts, its test by the firewall's one first-match loop (firewall/first-match.ts), as
// firewall/evaluator.ts writes it for decoded packets. A rule whose condition the fast path does not write
// is tested by the firewall's own predicate on the frame's decoded record (frame-record.ts), and the
// rules after it are tested as any other.
//
// With an index (index.ts), each group also takes a bit mask of its candidate rules and only they
// are tested; rules keep their order, so the outcome is the same as testing all of them.
//
// The function holds no state of a run: it writes the result, counts hits and decisions, and fills
// the frame's record into the `out` it is given (the run's ProgramResult), so every run over one
// compiled program keeps its own counts.
//
// The generated source holds only numbers, local names and the K<n> constant names, never text
// from the configuration.
import { compareView, containsView, equalsView, wildcardMatchView } from '../lang/eval/bytes.js';
import { readBits } from '../lang/functions/bit-slice.js';
import { EXTENSION, jumboLength } from '../capture/decode/ip.js';
import { ETHERTYPE } from '../capture/decode/link.js';
import { looksLikeSip } from '../capture/decode/sip.js';
import type { EvaluationOut } from '../firewall/evaluator.js';
import { NO_DECISION_SOURCE, ruleTestSource } from '../firewall/first-match.js';
import type { Condition } from './conditions.js';
import { Constants } from './conditions.js';
import { HEADER_LOCALS, NOT_IP, prologue } from './headers.js';
import type { RuleIndex } from './index-plan.js';
import type { FrameRecord } from './frame-record.js';

/**
 * Reads one frame d[off, end) (origLen bytes on the wire, of link type `linkType`): FALLBACK, NOT_IP,
 * or the IP version, after writing what it read into `out`.
 */
export type FrameDecider = (d: Uint8Array, off: number, end: number, origLen: number, linkType: number, out: FrameResult) => number;

/**
 * What the generated code writes: the firewall's result as the evaluator writes it, with the run's
 * counts, and of the frame: where its IP header starts (l3), and for headers() where its transport
 * header starts, its ip.len and whether it has a TCP header; and the frame's record (frame-record.ts).
 */
export interface FrameResult extends EvaluationOut {
  l3: number;
  l4: number;
  /** the end of the IP packet as captured */
  l3e: number;
  ipLen: number;
  /** 1: a TCP header is there (the decoder would set Has.TCP), else 0 */
  tcp: number;
  readonly frame: FrameRecord;
}

export interface GeneratedRule {
  /** index in the firewall's rule list */
  readonly index: number;
  readonly condition: Condition;
  readonly terminating: boolean;
  /** a terminating match drops the packet (block) */
  readonly drop: boolean;
}

const GROUP_SOURCE = 12_000;
/** what a group function returns instead of the match count when a rule decided */
const GROUP_DECIDED = -1;
/** at most one bit of a 32-bit mask per rule */
const GROUP_RULES = 32;

/** A rule's test; `inline`: written into the frame function itself rather than into a group function. */
function ruleSource(r: GeneratedRule, bit: number | null, inline = false): string {
  const test = ruleTestSource(r.index, r.condition.expr, r.terminating, r.drop, `return ${inline ? 'fam' : GROUP_DECIDED};`);
  const body = r.condition.prelude === '' ? test : `{ ${r.condition.prelude}${test} }`;
  return bit === null ? `  ${body}` : `  if ((mask & ${1 << bit}) !== 0) ${body}`;
}

/** Splits the rules into groups of bounded source size (and at most 32 rules, one mask bit each). */
function groupRules(rules: readonly GeneratedRule[]): GeneratedRule[][] {
  const groups: GeneratedRule[][] = [];
  let current: GeneratedRule[] = [];
  let size = 0;
  for (const r of rules) {
    const n = r.condition.expr.length + r.condition.prelude.length + 80;
    if (current.length > 0 && (size + n > GROUP_SOURCE || current.length === GROUP_RULES)) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(r);
    size += n;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The headers alone: reads the frame's headers as the decider's prologue does (FALLBACK, NOT_IP or
 * the IP version) and leaves in `out` where its IP and transport headers start, where the IP packet
 * ends as captured, its ip.len and whether it has a TCP header, for a stage that runs before the
 * rules (protection).
 */
export function generateHeaders(): FrameDecider {
  const src = ['return function headers(d, off, end, origLen, linkType, out) {', prologue(new Set()), 'out.l4 = l4; out.l3e = l3e; out.ipLen = ipLen; out.tcp = tcp;', 'return fam;', '};'];
  const helpers = helperValues({});
  const names = Object.keys(helpers);
  const factory = new Function(...names, src.join('\n')) as (...values: unknown[]) => FrameDecider;
  return factory(...names.map((n) => helpers[n as keyof typeof helpers]));
}

/**
 * Generates the decider for `rules` (the enabled rules, in evaluation order). With `index` (given
 * each rule's group and bit there, by position in `rules`), groups take candidate masks from it (see
 * index-plan.ts); without, every rule is tested.
 */
export function generateDecider(
  rules: readonly GeneratedRule[],
  k: Constants,
  index: ((groupOf: Int32Array, bitOf: Int32Array, groups: number) => RuleIndex) | null,
): FrameDecider {
  const uses = new Set<string>();
  for (const r of rules) for (const l of r.condition.locals) uses.add(l);
  const params = HEADER_LOCALS.filter((l) => uses.has(l) && l !== 'SRC6' && l !== 'DST6');
  const groups = groupRules(rules);
  const groupOf = new Int32Array(rules.length);
  const bitOf = new Int32Array(rules.length);
  let at = 0;
  groups.forEach((g, gi) => g.forEach((_, bit) => { groupOf[at] = gi; bitOf[at] = bit; at++; }));
  const ruleIndex = index === null ? null : index(groupOf, bitOf, groups.length);

  const src: string[] = [];
  k.values.forEach((_, i) => src.push(`const K${i} = K[${i}];`));
  const args = ['out', 'matched', 'm', ...(ruleIndex ? ['mask'] : []), ...params].join(', ');
  // a ruleset that fits one group is written into the frame function itself
  const inline = ruleIndex === null && groups.length <= 1;
  if (!inline) {
    groups.forEach((g, gi) => {
      src.push(`function g${gi}(${args}) {`);
      for (let j = 0; j < g.length; j++) src.push(ruleSource(g[j], ruleIndex ? j : null));
      src.push('  return m;', '}');
    });
  }
  // indexed: one call site for every group, so V8 sees all targets early and calls them without
  // inlining, where a call site per group would deoptimise the whole function each time a group is
  // first reached
  if (ruleIndex !== null) src.push(`const G = [${groups.map((_, gi) => `g${gi}`).join(', ')}];`);
  src.push('return function decide(d, off, end, origLen, linkType, out) {');
  // the frame's record is filled anew for each frame, when a rule first asks (frame-record.ts)
  if (uses.has('lookup') || uses.has('decode')) src.push('out.frame.filled = 0;');
  src.push(prologue(uses), 'const matched = out.matched;', 'let m = 0;');
  const call = (gi: number, mask: string) => `m = g${gi}(out, matched, m${mask}${params.length > 0 ? ', ' : ''}${params.join(', ')}); if (m === ${GROUP_DECIDED}) return fam;`;
  if (inline) {
    for (const r of groups[0] ?? []) src.push(ruleSource(r, null, true));
  } else if (ruleIndex === null) {
    groups.forEach((_, gi) => src.push(call(gi, '')));
  } else {
    // only the groups with candidates are visited, lowest first (rule order)
    src.push(ruleIndex.source, `for (let w = 0; w < ${(groups.length + 31) >>> 5}; w++) {`, `  for (let left = ${ruleIndex.groupsIn('w')}; left !== 0; left &= left - 1) {`);
    src.push('    const gi = (w << 5) | (31 - Math.clz32(left & -left));', `    let mask = ${ruleIndex.maskOf('gi')}; if (mask === 0) continue;`, ruleIndex.narrow ?? '');
    // a group visited for every packet is called by name (its call site sees one target from the
    // first packet on, so V8 may inline it); the others through G, one call site for all of them
    const args = `(out, matched, m, mask${params.length > 0 ? ', ' : ''}${params.join(', ')})`;
    const byName = ruleIndex.alwaysGroups.map((g) => `gi === ${g} ? g${g}${args} : `).join('');
    src.push(`    m = ${byName}G[gi]${args}; if (m === ${GROUP_DECIDED}) return fam;`, '  }', '}');
  }
  src.push(`${NO_DECISION_SOURCE} return fam;`, '};');

  const helpers = helperValues({ K: k.values, ...(ruleIndex?.helpers ?? {}) });
  const names = Object.keys(helpers);
  const factory = new Function(...names, src.join('\n')) as (...values: unknown[]) => FrameDecider;
  return factory(...names.map((n) => helpers[n as keyof typeof helpers]));
}

/** What the generated source calls by name, and `own` (constants, an index's tables). */
function helperValues(own: Record<string, unknown>): Record<string, unknown> {
  return {
    ...own,
    SRC6: new Uint32Array(4),
    DST6: new Uint32Array(4),
    word: (d: Uint8Array, o: number) => ((d[o] << 24) | (d[o + 1] << 16) | (d[o + 2] << 8) | d[o + 3]) >>> 0,
    notIp: (out: FrameResult) => {
      out.drop = false;
      out.decidingRule = -1;
      out.matchedCount = 0;
      return NOT_IP;
    },
    ETHERTYPE,
    EXTENSION,
    jumboLength,
    looksLikeSip,
    readBits,
    equalsView,
    compareView,
    containsView,
    wildcardMatchView,
    inBytesSet,
    compare6,
  };
}

/** The bytes view equals one of the items (primitive.ts: bytes `in {…}`). */
function inBytesSet(d: Uint8Array, start: number, end: number, items: readonly Uint8Array[]): boolean {
  for (let i = 0; i < items.length; i++) if (equalsView(d, start, end, items[i])) return true;
  return false;
}

/** IPv6 address a.b.c.d (words) against rhs, as primitive.ts's ipCompare: <0, 0, >0. */
function compare6(a: number, b: number, c: number, d: number, rhs: Uint32Array): number {
  if (a !== rhs[0]) return a - rhs[0];
  if (b !== rhs[1]) return b - rhs[1];
  if (c !== rhs[2]) return c - rhs[2];
  return d - rhs[3];
}
