// Expression complexity as the vendor limits it ("ruleset exceeds complexity constraints",
// reference/cloudflare.md §2.6). Nothing documents the measure; we count the conjunctions of the
// expression's disjunctive normal form, tracking the counts for the expression and for its
// negation so `not` and `xor` expand correctly. Each comparison (an `in {…}` set included) is one
// term. The documented example — nine AND-ed `(a || b)` groups — has 2^9 = 512 conjunctions and
// fails with the default limit of 256; eight groups (256) pass.
import type { Expr } from './ast.js';

export const DEFAULT_COMPLEXITY_LIMIT = 256;

interface Counts {
  readonly pos: number;
  readonly neg: number;
}

function counts(e: Expr): Counts {
  switch (e.kind) {
    case 'comparison':
    case 'quantifier':
      return { pos: 1, neg: 1 };
    case 'group':
      return counts(e.expr);
    case 'not': {
      const c = counts(e.arg);
      return { pos: c.neg, neg: c.pos };
    }
    case 'combining': {
      const items = e.items.map(counts);
      if (e.op === 'and') return { pos: product(items.map((c) => c.pos)), neg: sum(items.map((c) => c.neg)) };
      if (e.op === 'or') return { pos: sum(items.map((c) => c.pos)), neg: product(items.map((c) => c.neg)) };
      return items.reduce((a, b) => ({ pos: a.pos * b.neg + a.neg * b.pos, neg: a.pos * b.pos + a.neg * b.neg }));
    }
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const product = (xs: number[]) => xs.reduce((a, b) => a * b, 1);

/** The number of conjunctions in the expression's disjunctive normal form. */
export function complexity(e: Expr): number {
  return counts(e).pos;
}
