// An expression as two regions of the header space: `must`, packets it certainly matches, and
// `may`, packets it possibly matches. Where every part is modelled the two are the same object and
// the meaning is exact; an unmodelled part (atoms.ts) widens `may` and narrows `must`, and the
// connectives carry both bounds soundly (`not` swaps them), so a claim proved from the bounds is
// never wrong — it can only be missing, which the analysis then reports as indeterminate.
import type { Expr } from '../lang/index.js';
import { type Meaning, type ModelContext, comparisonMeaning, withoutHeader } from './atoms.js';
import type { Budget } from './budget.js';
import { walkComparisons } from './names.js';
import { type Region, complementOf, intersectRegions, subtractRegions, unionRegions, withComplement } from './space.js';

export type { Meaning };

export function isExact(m: Meaning): boolean {
  return m.must === m.may;
}

// Each connective also records its result's complement where that is cheap (space.ts's search
// uses it): a `not`'s result has its operand as complement, an `and`'s complement is its parts'
// complements side by side; an `or`'s is their intersection, kept only while it stays small.
const SMALL_COMPLEMENT = 4096;

type RegionOp = (x: Region, y: Region, budget?: Budget) => Region;

function and(a: Region, b: Region, budget?: Budget): Region {
  const r = intersectRegions(a, b, budget);
  const ca = complementOf(a);
  const cb = complementOf(b);
  return r === a || ca === undefined || cb === undefined ? r : withComplement(r, unionRegions(ca, cb));
}

function or(a: Region, b: Region, budget?: Budget): Region {
  const r = unionRegions(a, b);
  const ca = complementOf(a);
  const cb = complementOf(b);
  if (r === a || r === b || ca === undefined || cb === undefined || ca.length * cb.length > SMALL_COMPLEMENT) return r;
  return withComplement(r, intersectRegions(ca, cb, budget));
}

/**
 * The complement of `r` within `U` as disjoint boxes (a recorded complement may be overlapping
 * boxes, which cost more as a meaning: the `and`s above it multiply them), recorded for the search.
 */
function complement(r: Region, U: Region, budget?: Budget): Region {
  return withComplement(subtractRegions(U, r, budget), r);
}

function both(a: Meaning, b: Meaning, f: RegionOp, budget?: Budget): Meaning {
  const must = f(a.must, b.must, budget);
  return isExact(a) && isExact(b) ? { must, may: must } : { must, may: f(a.may, b.may, budget) };
}

function negate(m: Meaning, U: Region, budget?: Budget): Meaning {
  const must = complement(m.may, U, budget);
  return isExact(m) ? { must, may: must } : { must, may: complement(m.must, U, budget) };
}

function xor(a: Meaning, b: Meaning, U: Region, budget?: Budget): Meaning {
  const onlyA = both(a, negate(b, U, budget), and, budget);
  const onlyB = both(b, negate(a, U, budget), and, budget);
  return both(onlyA, onlyB, or, budget);
}

/** The meaning of a Bool expression. */
export function expressionMeaning(e: Expr, ctx: ModelContext): Meaning {
  const U = ctx.universe;
  if (e.type !== 'Bool') return { must: [], may: U };
  switch (e.kind) {
    case 'comparison':
      return comparisonMeaning(e, ctx);
    case 'group':
      return expressionMeaning(e.expr, ctx);
    case 'not': {
      const inner = expressionMeaning(e.arg, ctx);
      noteNegatedTransport(e.arg, ctx);
      return negate(inner, U, ctx.budget);
    }
    case 'quantifier':
      return { must: [], may: U };
    case 'combining': {
      const parts = e.items.map((item) => expressionMeaning(item, ctx));
      const op = e.op === 'and' ? and : or;
      if (e.op === 'xor') return parts.reduce((acc, m) => xor(acc, m, U, ctx.budget));
      return parts.reduce((acc, m) => both(acc, m, op, ctx.budget));
    }
  }
}

const TRANSPORT_PREFIXES: ReadonlyArray<[string, bigint]> = [
  ['tcp', 0n],
  ['udp', 1n],
  ['icmp', 2n],
];

/** `not` over a comparison on a transport field also matches every packet without that transport. */
function noteNegatedTransport(arg: Expr, ctx: ModelContext): void {
  const seen = new Set<bigint>();
  walkComparisons(arg, (c) => {
    if (c.lhs.base.kind !== 'field') return;
    const name = c.lhs.base.name;
    for (const [prefix, transport] of TRANSPORT_PREFIXES) {
      if ((name === prefix || name.startsWith(`${prefix}.`)) && !seen.has(transport)) {
        seen.add(transport);
        ctx.notes.push({
          kind: 'negated_protocol_field',
          transport,
          message: `\`not\` over ${name} also matches every packet ${withoutHeader(transport)} (other protocols, fragments)`,
        });
      }
    }
  });
}
