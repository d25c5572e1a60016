// List references the expression alone can judge, and the one error the parser cannot raise.
// - Managed lists are a fixed set, named `$cf.<name>` (the vendor's spelling) or `$svc.<name>`:
//   a name in one of those namespaces that is not a managed list can never resolve, so it is an
//   error when the expression is validated, not only when a replay compiles it. The vendor does
//   not document its message for this; ours names the list and the managed lists.
// - Any other `$name` is an account list, known only to a configuration: edgesim resolves it when
//   compiling and reports a missing one with a span on the name, in the engine's message layout.
import type { Ast } from './ast.js';
import { listsUsed, walk } from './analysis.js';
import { engineMessage, FilterError } from './errors.js';
import { Source } from './source.js';

/** The managed IP lists, without their namespace. */
export const MANAGED_LISTS: readonly string[] = ['anonymizer', 'botnetcc', 'malware', 'open_proxies', 'vpn'];
const MANAGED_NAMESPACES = ['cf', 'svc'];

function listError(ast: Ast, name: string, reason: string): FilterError {
  let start = 0;
  let end = 0;
  walk(ast.expr, (e) => {
    if (end === 0 && e.kind === 'comparison' && e.op.kind === 'inList' && e.op.name === name) ({ start, end } = e.op.span);
  });
  return new FilterError('unknown_list', reason, start, end, engineMessage(new Source(ast.source), reason, start, end));
}

export function unknownListError(ast: Ast, name: string): FilterError {
  return listError(ast, name, `unknown list $${name}`);
}

/** The error for the first `$cf.x` / `$svc.x` that is not a managed list, or null. */
export function unknownManagedList(ast: Ast): FilterError | null {
  for (const name of listsUsed(ast)) {
    const dot = name.indexOf('.');
    const namespace = name.slice(0, dot);
    if (dot < 0 || !MANAGED_NAMESPACES.includes(namespace) || MANAGED_LISTS.includes(name.slice(dot + 1))) continue;
    const known = MANAGED_LISTS.map((n) => `$${namespace}.${n}`).join(', ');
    return listError(ast, name, `unknown list $${name}: the managed lists are ${known}`);
  }
  return null;
}
