// What a function definition sees of a parsed argument (its kind, type, literal value or field
// name): the parser checks each argument through it, the compiler and the interpreter hand it to
// the definition.
import type { CallArg } from '../ast.js';
import type { FunctionParam } from '../scheme.js';

/** The parameter view of a parsed argument. */
export function paramOf(arg: CallArg): FunctionParam {
  if (arg.kind === 'literal') return { kind: 'Literal', type: arg.value.type, literal: arg.value };
  if (arg.kind === 'index') {
    const bare = arg.expr.base.kind === 'field' && arg.expr.indexes.length === 0;
    return { kind: 'Field', type: arg.expr.type, field: bare ? arg.expr.base.name : undefined };
  }
  return { kind: 'Field', type: arg.expr.type };
}
