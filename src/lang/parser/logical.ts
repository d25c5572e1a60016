// Logical expressions by precedence climbing, exactly as the engine does it
// (reference/wirefilter.md §1.7): or < xor < and < not; a run of one operator becomes one n-ary
// node; both operands must be Bool, or both Array<_> (element-wise), otherwise a type mismatch
// whose span — a kept quirk — is the input after the *next* logical operator (or the rest when
// there is none). Operators are matched as plain prefixes (`ssl andssl` parses; `nothing` is
// `not hing`), and a tab is not whitespace.
import type { CombiningExpr, Expr, LogicalOp } from '../ast.js';
import { E } from '../errors.js';
import { BOOL_ARRAY, display, isArray, sameType } from '../types.js';
import type { Parser } from './context.js';
import { LOGICAL_OPS, notOperator, PRECEDENCE, quantifierAt } from './tokens.js';

type Lookahead = readonly [LogicalOp | null, number];

function combiningOp(p: Parser, pos: number): Lookahead {
  const q = p.src.skipSpace(pos);
  for (const [text, op] of LOGICAL_OPS) {
    if (p.src.startsWith(q, text)) {
      p.token('logical', q, q + text.length);
      return [op, p.src.skipSpace(q + text.length)];
    }
  }
  return [null, pos];
}

function parseSimple(p: Parser, pos: number): [Expr, number] {
  const s = p.src;
  if (s.at(pos) === 0x28) {
    return p.nested(pos, () => {
      p.token('paren', pos, pos + 1);
      const [expr, rest] = parseLogical(p, s.skipSpace(pos + 1));
      const close = s.skipSpace(rest);
      if (s.at(close) !== 0x29) throw E.literal(')', close, s.end);
      p.token('paren', close, close + 1);
      return [{ kind: 'group', expr, type: expr.type }, close + 1];
    });
  }
  const not = notOperator(s, pos);
  if (not) {
    return p.nested(pos, () => {
      p.token('not', pos, pos + not.length);
      const [arg, rest] = parseSimple(p, s.skipSpace(pos + not.length));
      return [{ kind: 'not', arg, type: arg.type }, rest];
    });
  }
  const quantifier = quantifierAt(s, pos);
  if (quantifier) {
    const [which, paren] = quantifier;
    return p.nested(paren, () => {
      p.token('quantifier', pos, pos + which.length);
      p.token('paren', paren, paren + 1);
      const argStart = s.skipSpace(paren + 1);
      const [arg, argEnd] = parseLogical(p, argStart);
      if (!sameType(arg.type, BOOL_ARRAY)) throw E.typeMismatch(display(BOOL_ARRAY), display(arg.type), argStart, argEnd);
      const close = s.skipSpace(argEnd);
      if (s.at(close) !== 0x29) throw E.literal(')', close, s.end);
      p.token('paren', close, close + 1);
      return [{ kind: 'quantifier', which, arg, type: 'Bool' }, close + 1];
    });
  }
  return p.grammar.comparison(p, pos);
}

function combine(lhs: Expr, op: LogicalOp, rhs: Expr): Expr {
  if (lhs.kind === 'combining' && lhs.op === op) {
    (lhs.items as Expr[]).push(rhs);
    return lhs;
  }
  const node: CombiningExpr = { kind: 'combining', op, items: [lhs, rhs], type: lhs.type };
  return node;
}

function parseMore(p: Parser, first: Expr, minPrec: number, start: Lookahead): [Expr, number] {
  let lhs = first;
  let look = start;
  while (look[0] !== null) {
    const op = look[0];
    let [rhs, rhsEnd] = parseSimple(p, look[1]);
    for (;;) {
      look = combiningOp(p, rhsEnd);
      if (look[0] === null || PRECEDENCE[look[0]] <= PRECEDENCE[op]) break;
      [rhs, rhsEnd] = parseMore(p, rhs, PRECEDENCE[look[0]], look);
    }
    const comparable = (lhs.type === 'Bool' && rhs.type === 'Bool') || (isArray(lhs.type) && isArray(rhs.type));
    if (!comparable) throw E.typeMismatch(display(lhs.type), display(rhs.type), look[1], p.src.end);
    lhs = combine(lhs, op, rhs);
    if (minPrec > 0 && (look[0] === null || PRECEDENCE[look[0]] < minPrec)) look = [null, rhsEnd];
  }
  return [lhs, look[1]];
}

/** A full logical expression at pos; returns [expression, position after]. */
export function parseLogical(p: Parser, pos: number): [Expr, number] {
  const [lhs, rest] = parseSimple(p, pos);
  return parseMore(p, lhs, 0, combiningOp(p, rest));
}
