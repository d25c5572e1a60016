// AST -> closures over a Binding. Logical nodes become short-circuiting closures (specialised for
// two operands), comparisons on a bare primitive field (or on a call whose definition compiles,
// such as bit_slice) become the per-type closures of primitive.ts, and `ip.geoip.country`-style
// fields compile once per field they stand for. Everything else the firewall scheme never
// produces — Array/Map values, `[*]`, any/all, concat — is evaluated by the reference interpreter
// for that node. Lists are resolved here, once; a missing one is FilterError 'unknown_list'.
// `plan` records what each comparison compiled to, for `edgesim explain`.
import type { Ast, ComparisonExpr, Expr, IndexExpr } from '../ast.js';
import type { FieldAccess, SchemeBinding } from '../binding.js';
import { paramOf } from '../functions/params.js';
import { evalExpr, resolveLists, type CompileOptions, type EvalContext } from '../interpret.js';
import { printExpr } from '../print.js';
import { compileBool, compileBytes, compileInt, compileIp, type Pred } from './primitive.js';

/** One line of the compiled plan: a comparison's text and what it became. */
export interface PlanEntry {
  readonly expr: string;
  readonly compiled: string;
}

interface Compiler<P> {
  readonly ctx: EvalContext<P>;
  /** null unless the caller asked for the plan (printing every comparison costs compile time) */
  readonly plan: PlanEntry[] | null;
}

function fieldAccess<P>(c: Compiler<P>, name: string): FieldAccess<P> {
  const acc = c.ctx.binding[name];
  if (!acc) throw new Error(`the binding has no accessor for field ${name}`);
  return acc as FieldAccess<P>;
}

/** A call whose definition compiles, as an accessor of its value; null when it does not compile. */
function callAccess<P>(c: Compiler<P>, lhs: IndexExpr, notes: string[]): FieldAccess<P> | null {
  if (lhs.base.kind !== 'call' || lhs.indexes.length > 0) return null;
  const fn = c.ctx.ast.scheme.fn(lhs.base.name);
  if (!fn?.compile) return null;
  const acc = fn.compile<P>(lhs.base.args.map(paramOf), (name) => fieldAccess(c, name));
  notes.push(`${fn.name} -> ${acc.type.toLowerCase()}`);
  return acc;
}

function compilePrimitive<P>(c: Compiler<P>, e: ComparisonExpr, fieldName: string | null, notes: string[]): Pred<P> | null {
  const op = e.op;
  const acc = fieldName === null ? callAccess(c, e.lhs, notes) : fieldAccess(c, fieldName);
  if (!acc) return null;
  switch (acc.type) {
    case 'Bool':
      return op.kind === 'isTrue' ? (notes.push('bool field'), compileBool(acc)) : null;
    case 'Int':
      return compileInt(acc, op, notes);
    case 'Ip':
      return compileIp(acc, op, c.ctx.lists, notes);
    case 'Bytes':
      return compileBytes(acc, op, notes);
  }
}

function compileComparison<P>(c: Compiler<P>, e: ComparisonExpr): Pred<P> {
  const lhs = e.lhs;
  const notes: string[] = [];
  const bare = lhs.base.kind === 'field' && lhs.indexes.length === 0 && e.type === 'Bool';
  let pred: Pred<P> | null = null;
  if (bare) {
    const name = (lhs.base as { name: string }).name;
    const anyOf = c.ctx.ast.scheme.field(name)?.anyOf;
    if (anyOf) {
      const parts = anyOf.map((f) => compilePrimitive(c, e, f, notes));
      if (parts.every((x): x is Pred<P> => x !== null)) {
        const none = e.op.kind === 'ordering' && e.op.op === 'ne';
        notes.push(`${none ? 'all' : 'any'} of ${anyOf.join(', ')}`);
        pred = parts.reduce((x, y) => (none ? (p: P) => x(p) && y(p) : (p: P) => x(p) || y(p)));
      }
    } else {
      pred = compilePrimitive(c, e, name, notes);
    }
  } else if (e.type === 'Bool') {
    pred = compilePrimitive(c, e, null, notes);
  }
  if (!pred) {
    notes.length = 0;
    notes.push('reference evaluator (compound values)');
    pred = (p) => evalExpr(c.ctx, e, p) === true;
  }
  c.plan?.push({ expr: printExpr(e), compiled: notes.join('; ') });
  return pred;
}

function compileAll<P>(c: Compiler<P>, items: readonly Expr[], op: 'and' | 'or' | 'xor'): Pred<P> {
  const preds = items.map((item) => compileExpr(c, item));
  if (op === 'xor') {
    return (p) => {
      let acc = false;
      for (let i = 0; i < preds.length; i++) acc = acc !== preds[i](p);
      return acc;
    };
  }
  if (preds.length === 2) {
    const [a, b] = preds;
    return op === 'and' ? (p) => a(p) && b(p) : (p) => a(p) || b(p);
  }
  if (op === 'and') {
    return (p) => {
      for (let i = 0; i < preds.length; i++) if (!preds[i](p)) return false;
      return true;
    };
  }
  return (p) => {
    for (let i = 0; i < preds.length; i++) if (preds[i](p)) return true;
    return false;
  };
}

function compileExpr<P>(c: Compiler<P>, e: Expr): Pred<P> {
  if (e.type !== 'Bool' || e.kind === 'quantifier') {
    c.plan?.push({ expr: printExpr(e), compiled: 'reference evaluator (vectors)' });
    return (p) => evalExpr(c.ctx, e, p) === true;
  }
  switch (e.kind) {
    case 'group':
      return compileExpr(c, e.expr);
    case 'not': {
      const inner = compileExpr(c, e.arg);
      return (p) => !inner(p);
    }
    case 'combining':
      return compileAll(c, e.items, e.op);
    case 'comparison':
      return compileComparison(c, e);
  }
}

/** Compiles to a predicate and returns the plan (what each comparison became). */
export function compileWithPlan<P>(ast: Ast, binding: SchemeBinding<P>, opts: CompileOptions = {}): { predicate: Pred<P>; plan: PlanEntry[] } {
  const plan: PlanEntry[] = [];
  const c: Compiler<P> = { ctx: { binding, ast, lists: resolveLists(ast, opts) }, plan };
  return { predicate: compileExpr(c, ast.expr), plan };
}

/**
 * Compiles a parsed expression to a predicate over packets of type P. Throws FilterError
 * 'unknown_list' when opts.lists does not know a `$name` the expression uses.
 */
export function compile<P>(ast: Ast, binding: SchemeBinding<P>, opts: CompileOptions = {}): (p: P) => boolean {
  const c: Compiler<P> = { ctx: { binding, ast, lists: resolveLists(ast, opts) }, plan: null };
  return compileExpr(c, ast.expr);
}
