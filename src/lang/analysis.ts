// Questions about a parsed expression that other stages ask: which fields it reads (so the
// pipeline enriches packets only with what is used) and which lists it names.
import type { CallArg, Expr, IndexExpr } from './ast.js';
import type { Ast } from './ast.js';

function walkIndex(e: IndexExpr, visit: (e: Expr | IndexExpr) => void): void {
  visit(e);
  if (e.base.kind === 'call') for (const a of e.base.args) walkArg(a, visit);
}

function walkArg(a: CallArg, visit: (e: Expr | IndexExpr) => void): void {
  if (a.kind === 'index') walkIndex(a.expr, visit);
  else if (a.kind === 'logical') walk(a.expr, visit);
}

/** Visits every expression and index expression, depth first, left to right. */
export function walk(e: Expr, visit: (e: Expr | IndexExpr) => void): void {
  visit(e);
  switch (e.kind) {
    case 'combining':
      for (const item of e.items) walk(item, visit);
      return;
    case 'not':
    case 'quantifier':
      walk(e.arg, visit);
      return;
    case 'group':
      walk(e.expr, visit);
      return;
    case 'comparison':
      walkIndex(e.lhs, visit);
  }
}

/**
 * The fields the expression reads, in order of first use. A field that stands for others
 * (ip.geoip.country) is listed with the fields it reads.
 */
export function fieldsUsed(ast: Ast): string[] {
  const seen = new Set<string>();
  walk(ast.expr, (e) => {
    if (e.kind !== 'index' || e.base.kind !== 'field') return;
    seen.add(e.base.name);
    for (const name of ast.scheme.field(e.base.name)?.anyOf ?? []) seen.add(name);
  });
  return [...seen];
}

/** The list names (without `$`) the expression uses, in order of first use. */
export function listsUsed(ast: Ast): string[] {
  const seen = new Set<string>();
  walk(ast.expr, (e) => {
    if (e.kind === 'comparison' && e.op.kind === 'inList') seen.add(e.op.name);
  });
  return [...seen];
}
