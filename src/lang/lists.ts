// The one error the parser cannot raise: a `$name` with no list behind it. The engine leaves list
// names to the host; edgesim resolves them when compiling and reports the missing one with a
// span on the name, in the engine's message layout.
import type { Ast } from './ast.js';
import { walk } from './analysis.js';
import { engineMessage, FilterError } from './errors.js';
import { Source } from './source.js';

export function unknownListError(ast: Ast, name: string): FilterError {
  let start = 0;
  let end = 0;
  walk(ast.expr, (e) => {
    if (end === 0 && e.kind === 'comparison' && e.op.kind === 'inList' && e.op.name === name) ({ start, end } = e.op.span);
  });
  const reason = `unknown list $${name}`;
  return new FilterError('unknown_list', reason, start, end, engineMessage(new Source(ast.source), reason, start, end));
}
