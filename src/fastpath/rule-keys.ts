// What the key index (index-plan.ts) may file a rule under: the values its matches must have of one
// field — a port, an IPv4 address block, or a small header integer (ip.len, ip.ttl, tcp.flags,
// icmp.type, icmp.code; conjuncts.ts) — read from its top-level conjuncts, or, for an `or`, a filing
// of each side: a packet that matches the rule matches one side, so it has the key of that side's
// filing. A rule is a candidate for a packet when one of its filings holds the packet's value of
// that field; a rule with no such choice is a candidate for every packet.
//
// Of a rule's choices, fileRules takes the one whose keys the fewest rules share (counted over the
// whole ruleset: a key many rules are filed under leaves many candidates for every packet with it),
// an IPv4 /24 filing before any other, as customers' address blocks share their /16s and the
// traffic's common ports.
import type { Ast, Expr } from '../lang/index.js';
import type { IpSet } from '../net/ip-set.js';
import { addConjunct, FIELD_VALUES, KEYED_INT_FIELDS, type Admitted } from './conjuncts.js';
import { INT_FIELDS } from './conditions.js';

const MAX_PORTS = 1024;
const MAX_SLASH16 = 4096;
const MAX_SLASH24 = 4096;

/** A field's keys a rule is filed under. */
export interface Filing {
  readonly field: string;
  readonly keys: readonly number[];
}

/** One way to file a rule: under each of these (the sides of an `or`; one filing for a conjunct). */
export type FilingChoice = readonly Filing[];

/** the 16-bit key of a /24 (an IPv4 address >>> 8), as the per-packet source computes it (KEYS) */
function slash24Key(v24: number): number {
  return Math.imul(v24, 0x9e3779b1) >>> 16;
}

/** The packet's presence test and key expression for each field rules are filed under: a port, a /16, a /24's hash, a small integer. */
export const KEYS: Readonly<Record<string, readonly [when: string, key: string]>> = {
  'tcp.dstport': FIELD_VALUES['tcp.dstport'],
  'tcp.srcport': FIELD_VALUES['tcp.srcport'],
  'udp.dstport': FIELD_VALUES['udp.dstport'],
  'udp.srcport': FIELD_VALUES['udp.srcport'],
  ...Object.fromEntries((['ip.src', 'ip.dst'] as const).flatMap((f) => {
    const [when, value] = FIELD_VALUES[f];
    return [[f, [when, `${value} >>> 16`]], [`${f}/24`, [when, `Math.imul(${value} >>> 8, 0x9e3779b1) >>> 16`]]];
  })),
  // values past 0xffff (an IPv6 jumbogram's ip.len) have no key: no rule is filed under them
  ...Object.fromEntries(KEYED_INT_FIELDS.flatMap((f) => {
    const int = INT_FIELDS[f];
    return int === undefined ? [] : [[f, [`(${int[0]}) && ${int[1]} <= 65535`, int[1]]]];
  })),
};

/** The values a field's spans hold, or null past MAX_PORTS. */
function valueKeys(values: Admitted): number[] | null {
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

/** The filings of required values: a field whose every match has a value there (not `other`). */
function filings(required: ReadonlyMap<string, Admitted>): Filing[] {
  const out: Filing[] = [];
  for (const [field, values] of required) {
    if (values.other || KEYS[field] === undefined) continue;
    if (field !== 'ip.src' && field !== 'ip.dst') {
      const keys = valueKeys(values);
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

const keyCount = (c: FilingChoice) => c.reduce((n, f) => n + f.keys.length, 0);

/** The ways expression `e` may be filed (every match of it meets one filing of each way). */
function choices(e: Expr, lists: ((name: string) => IpSet | undefined) | undefined): FilingChoice[] {
  if (e.kind === 'group') return choices(e.expr, lists);
  if (e.kind === 'combining' && e.op === 'or') {
    // each side filed its own way (the fewest keys), all of them together
    const sides: Filing[] = [];
    for (const item of e.items) {
      const own = choices(item, lists);
      if (own.length === 0) return [];
      sides.push(...own.reduce((a, b) => (keyCount(b) < keyCount(a) ? b : a)));
    }
    return [sides];
  }
  // an `and`, or a lone comparison: each field its conjuncts constrain, and each `or` among them
  const required = new Map<string, Admitted>();
  const ors: FilingChoice[] = [];
  const visit = (x: Expr): void => {
    if (x.kind === 'group') visit(x.expr);
    else if (x.kind === 'combining' && x.op === 'and') x.items.forEach(visit);
    else if (x.kind === 'comparison') addConjunct(x, lists, required);
    else if (x.kind === 'combining' && x.op === 'or') ors.push(...choices(x, lists));
  };
  visit(e);
  return [...filings(required).map((f) => [f]), ...ors];
}

/** The ways a rule may be filed; `lists` resolves `$name` as the rule's condition does. */
export function filingChoices(ast: Ast, lists: ((name: string) => IpSet | undefined) | undefined): FilingChoice[] {
  return choices(ast.expr, lists);
}

/**
 * Each rule's filing (null: a candidate for every packet): of its choices, a /24 filing if it has
 * one, else the choice whose keys the fewest rules' choices share (the sum over its keys), then
 * the fewest keys.
 */
export function fileRules(ruleChoices: ReadonlyArray<readonly FilingChoice[]>): Array<FilingChoice | null> {
  // per field, how many rules have each key among their choices (a rule counted once a key); a
  // rule with a /24 filing takes it whatever the counts, so it is not counted
  const hasSlash24 = (cs: readonly FilingChoice[]) => cs.some((c) => c.length === 1 && c[0].field.endsWith('/24'));
  const shared = new Map<string, Map<number, number>>();
  ruleChoices.forEach((cs) => {
    if (hasSlash24(cs)) return;
    const mine = new Map<string, Set<number>>();
    for (const c of cs) {
      for (const f of c) {
        let keys = mine.get(f.field);
        if (keys === undefined) mine.set(f.field, (keys = new Set()));
        for (const k of f.keys) keys.add(k);
      }
    }
    for (const [field, keys] of mine) {
      let counts = shared.get(field);
      if (counts === undefined) shared.set(field, (counts = new Map()));
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  });
  const score = (c: FilingChoice) => {
    let n = 0;
    for (const f of c) {
      const counts = shared.get(f.field)!;
      for (const k of f.keys) n += counts.get(k)!;
    }
    return n;
  };
  return ruleChoices.map((cs) => {
    const slash24 = cs.filter((c) => c.length === 1 && c[0].field.endsWith('/24'));
    let best: FilingChoice | null = null;
    let bestScore = 0;
    for (const c of slash24.length > 0 ? slash24 : cs) {
      const s = slash24.length > 0 ? keyCount(c) : score(c);
      if (best === null || s < bestScore || (s === bestScore && keyCount(c) < keyCount(best))) [best, bestScore] = [c, s];
    }
    return best;
  });
}
