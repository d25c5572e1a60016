// Whether two firewall rules may trade places without changing any verdict: the question the
// reordering advice asks for every move. The exact overlap comes from the ruleset analysis
// (analysis-overlap.ts); this file holds the rule shared by both checks (canSwapUnless) and a
// conservative local version, used where the analysis cannot name a rule, that says yes only when
// it can prove it:
// - either rule is disabled (it is never evaluated, so its place does not matter);
// - both end evaluation with the same verdict (block and block, skip and skip): a packet matching
//   both gets that verdict whichever comes first (only the deciding rule's name changes);
// - no packet can match both: read from the top-level `and` of each expression, they require
//   different transports (a tcp.* field needs TCP, udp.* needs UDP, icmp.* needs ICMP or ICMPv6,
//   ip.proto == "x" needs protocol x) or disjoint values of the same port field (==, in { },
//   <, <=, >, >=).
// Anything else (a `not`, an `or`, `!=`, which is true when the field is absent) proves nothing and
// the answer is no. A no is never wrong, it only withholds advice.
import { parse, settingsFor, type ComparisonExpr, type Expr } from '../lang/index.js';
import { protocolNumber } from '../capture/protocols.js';

export interface SwappableRule {
  readonly ref: string;
  readonly action: string;
  readonly enabled: boolean;
  readonly expression: string;
}

/** May rules a and b, adjacent in evaluation order, trade places without changing any verdict? */
export type CanSwap = (a: SwappableRule, b: SwappableRule) => boolean;

type Range = readonly [number, number];

interface Facts {
  /** protocol numbers the packet must have, or null for any */
  protos: Set<number> | null;
  /** per port field: the values it must take */
  ports: Map<string, Range[]>;
}

const TRANSPORT: Record<string, number[]> = { tcp: [6], udp: [17], icmp: [1, 58] };
const PORT_FIELDS = new Set(['tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport']);

function intersectRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [alo, ahi] of a) for (const [blo, bhi] of b) if (Math.max(alo, blo) <= Math.min(ahi, bhi)) out.push([Math.max(alo, blo), Math.min(ahi, bhi)]);
  return out;
}

function addProtos(f: Facts, protos: number[]): void {
  const next = new Set(protos.filter((p) => f.protos === null || f.protos.has(p)));
  f.protos = next;
}

function addPorts(f: Facts, field: string, ranges: Range[]): void {
  const known = f.ports.get(field);
  f.ports.set(field, known === undefined ? ranges : intersectRanges(known, ranges));
}

function comparisonFacts(c: ComparisonExpr, f: Facts): void {
  if (c.lhs.base.kind !== 'field' || c.lhs.indexes.length > 0) return;
  const field = c.lhs.base.name;
  const op = c.op;
  if (op.kind === 'ordering' && op.op === 'ne') return;
  const transport = TRANSPORT[field.split('.')[0]!];
  if (transport !== undefined) addProtos(f, transport);
  if (field === 'ip.proto') {
    const names = op.kind === 'ordering' && op.op === 'eq' && op.rhs.type === 'Bytes' ? [op.rhs.bytes] : op.kind === 'inSet' && op.set.type === 'Bytes' ? op.set.items : null;
    if (names === null) return;
    const numbers = names.map((b) => protocolNumber(new TextDecoder().decode(b)));
    if (numbers.every((n) => n !== undefined)) addProtos(f, numbers as number[]);
    return;
  }
  if (!PORT_FIELDS.has(field)) return;
  if (op.kind === 'inSet' && op.set.type === 'Int') {
    addPorts(f, field, op.set.ranges.map(([lo, hi]) => [Number(lo), Number(hi)] as Range));
  } else if (op.kind === 'ordering' && op.rhs.type === 'Int') {
    const v = Number(op.rhs.value);
    const range: Record<string, Range> = { eq: [v, v], lt: [-Infinity, v - 1], le: [-Infinity, v], gt: [v + 1, Infinity], ge: [v, Infinity] };
    addPorts(f, field, [range[op.op]!]);
  }
}

function collect(e: Expr, f: Facts): void {
  if (e.kind === 'group') collect(e.expr, f);
  else if (e.kind === 'combining' && e.op === 'and' && e.type === 'Bool') for (const item of e.items) collect(item, f);
  else if (e.kind === 'comparison' && e.type === 'Bool') comparisonFacts(e, f);
}

const factsCache = new Map<string, Facts | null>();

/** What every packet matching `expression` must have; null when the expression does not parse. */
function factsOf(expression: string): Facts | null {
  let facts = factsCache.get(expression);
  if (facts !== undefined) return facts;
  try {
    const { scheme, limits } = settingsFor('rule');
    facts = { protos: null, ports: new Map() };
    collect(parse(expression, scheme, limits).expr, facts);
  } catch {
    facts = null;
  }
  factsCache.set(expression, facts);
  return facts;
}

/** True when the two expressions provably match no packet in common. */
export function provablyDisjoint(a: string, b: string): boolean {
  const fa = factsOf(a);
  const fb = factsOf(b);
  if (fa === null || fb === null) return false;
  if (fa.protos !== null && fb.protos !== null && ![...fa.protos].some((p) => fb.protos!.has(p))) return true;
  if (fa.protos?.size === 0 || fb.protos?.size === 0) return true;
  for (const [field, ra] of fa.ports) {
    if (ra.length === 0) return true;
    const rb = fb.ports.get(field);
    if (rb !== undefined && intersectRanges(ra, rb).length === 0) return true;
  }
  for (const rb of fb.ports.values()) if (rb.length === 0) return true;
  return false;
}

const TERMINATING_VERDICT: Record<string, string> = { block: 'drop', skip: 'pass' };

/**
 * A CanSwap from an overlap check: rules may trade places when either is disabled, when both end
 * evaluation with the same verdict, or when `mayOverlap` says no packet can match both. The ruleset
 * analysis plugs in here with its exact overlap; the local check below uses provablyDisjoint.
 */
export function canSwapUnless(mayOverlap: (a: SwappableRule, b: SwappableRule) => boolean): CanSwap {
  return (a, b) => {
    if (!a.enabled || !b.enabled) return true;
    const va = TERMINATING_VERDICT[a.action];
    if (va !== undefined && va === TERMINATING_VERDICT[b.action]) return true;
    return !mayOverlap(a, b);
  };
}

/** The conservative local CanSwap described at the top of this file. */
export const conservativeCanSwap: CanSwap = canSwapUnless((a, b) => !provablyDisjoint(a.expression, b.expression));
