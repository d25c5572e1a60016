// The conditions of an expression, for condition coverage (`edgesim test --coverage`): every operand
// of `and`, `or`, `xor` and `not` (parentheses unwrapped), in source order. A probe evaluates each
// condition of a rule for one packet with the reference interpreter, which evaluates every operand
// (it does not short-circuit), so a condition's value is seen even when the compiled predicate would
// have skipped it. Each condition is evaluated on its own, over the same context as the whole
// expression: the interpreter's semantics stay in one place, and the compiled predicates the
// firewall runs are not touched.
import type { Ast, Expr } from './ast.js';
import type { SchemeBinding } from './binding.js';
import { evalExpr, resolveLists, type CompileOptions, type EvalContext } from './interpret.js';
import { printExpr } from './print.js';

function unwrapped(e: Expr): Expr {
  return e.kind === 'group' ? unwrapped(e.expr) : e;
}

/** The operands of and/or/xor/not in `e`, outermost first, left to right. */
export function conditionsOf(e: Expr): Expr[] {
  const out: Expr[] = [];
  const walk = (x: Expr): void => {
    if (x.kind === 'group') return walk(x.expr);
    if (x.kind === 'quantifier') return walk(x.arg);
    const operands = x.kind === 'combining' ? x.items : x.kind === 'not' ? [x.arg] : [];
    for (const operand of operands) {
      const inner = unwrapped(operand);
      out.push(inner);
      walk(inner);
    }
  };
  walk(e);
  return out;
}

/** What one condition was for one packet: true, false, or both (a vector's elements); none for an absent vector. */
export interface ConditionValue {
  readonly isTrue: boolean;
  readonly isFalse: boolean;
}

/** Evaluates a rule's expression and each of its conditions for a packet, operand by operand. */
export class ConditionProbe<P> {
  /** the conditions, as conditionsOf lists them */
  readonly conditions: readonly Expr[];
  /** the canonical text of each condition */
  readonly texts: readonly string[];
  private readonly ctx: EvalContext<P>;

  /** Resolves the expression's lists once; throws FilterError 'unknown_list' as the compiler does. */
  constructor(ast: Ast, binding: SchemeBinding<P>, opts: CompileOptions = {}) {
    this.ctx = { binding, ast, lists: resolveLists(ast, opts) };
    this.conditions = conditionsOf(ast.expr);
    this.texts = this.conditions.map((c) => printExpr(c));
  }

  /** Whether the whole expression matches `p` (as interpret says). */
  matches(p: P): boolean {
    return evalExpr(this.ctx, this.ctx.ast.expr, p) === true;
  }

  /** The value of condition `i` for `p`. */
  condition(i: number, p: P): ConditionValue {
    const v = evalExpr(this.ctx, this.conditions[i]!, p);
    if (typeof v === 'boolean') return { isTrue: v, isFalse: !v };
    return { isTrue: v?.includes(true) ?? false, isFalse: v?.includes(false) ?? false };
  }
}
