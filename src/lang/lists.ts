// List references (`ip.src in $name`). As in the engine, a list name is never checked when an
// expression is parsed or validated: `ip.dst in $svc.mal` is a valid expression. Whether a named
// list exists is a question for a configuration (src/config/references.ts): the managed lists are
// a fixed set, named `$cf.<name>` (the vendor's spelling) or `$svc.<name>`, and any other name must
// be one of the configuration's account lists. This file holds the managed set, the names in a
// managed namespace that are not in it (for the CLI's warning), and the error a compile raises for
// a list its resolver does not know, in the engine's message layout with a span on the name.
import type { Ast } from './ast.js';
import { listsUsed, walk } from './analysis.js';
import { engineMessage, FilterError } from './errors.js';
import { Source } from './source.js';

/** The managed IP lists, without their namespace. */
export const MANAGED_LISTS: readonly string[] = ['anonymizer', 'botnetcc', 'malware', 'open_proxies', 'vpn'];
const MANAGED_NAMESPACES = ['cf', 'svc'];

export function unknownListError(ast: Ast, name: string): FilterError {
  let start = 0;
  let end = 0;
  walk(ast.expr, (e) => {
    if (end === 0 && e.kind === 'comparison' && e.op.kind === 'inList' && e.op.name === name) ({ start, end } = e.op.span);
  });
  const reason = `unknown list $${name}`;
  return new FilterError('unknown_list', reason, start, end, engineMessage(new Source(ast.source), reason, start, end));
}

/** The names the expression uses outside the managed namespaces: account lists, which only a configuration can check. */
export function accountLists(ast: Ast): string[] {
  return listsUsed(ast).filter((name) => !name.includes('.') || !MANAGED_NAMESPACES.includes(name.slice(0, name.indexOf('.'))));
}

/** The names the expression uses in a managed namespace (`cf.x`, `svc.x`) that are not managed lists, split. */
export function unknownManagedLists(ast: Ast): Array<{ namespace: string; list: string }> {
  const out: Array<{ namespace: string; list: string }> = [];
  for (const name of listsUsed(ast)) {
    const dot = name.indexOf('.');
    const namespace = name.slice(0, dot);
    const list = name.slice(dot + 1);
    if (dot >= 0 && MANAGED_NAMESPACES.includes(namespace) && !MANAGED_LISTS.includes(list)) out.push({ namespace, list });
  }
  return out;
}
