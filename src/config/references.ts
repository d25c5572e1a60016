// Named lists in rule expressions (`ip.src in $svc.anonymizer`, `ip.dst in $office`): a name must
// be one of the managed lists (spelled `svc.*`, or the vendor's `cf.*`) or an account list. The
// Rules-language parser does not check names (the engine does not either); this check runs where
// the account's lists are known: in the API, and in a snapshot that carries its `lists`.
import { FIREWALL_SCHEME, listsUsed, MANAGED_LISTS, parse } from '../lang/index.js';
import type { Issue, JsonPath } from './schema.js';

const MANAGED = new Set(MANAGED_LISTS.flatMap((n) => [`svc.${n}`, `cf.${n}`]));

/** The list names (without `$`) an expression uses; none when it does not parse. */
export function listsReferenced(expression: string): string[] {
  try {
    return listsUsed(parse(expression, FIREWALL_SCHEME)).map((n) => n.replace(/^\$/, ''));
  } catch {
    return [];
  }
}

/** Whether `name` (without `$`) is a managed list. */
export function isManagedList(name: string): boolean {
  return MANAGED.has(name);
}

/**
 * Issues for rule expressions that use a list which is neither managed nor in `accountLists`.
 * `base` is the path of the rules array.
 */
export function unknownListIssues(rules: ReadonlyArray<{ expression?: unknown }>, accountLists: ReadonlySet<string>, base: JsonPath): Issue[] {
  const issues: Issue[] = [];
  rules.forEach((rule, i) => {
    if (typeof rule.expression !== 'string') return;
    for (const name of listsReferenced(rule.expression)) {
      if (isManagedList(name) || accountLists.has(name)) continue;
      issues.push({
        path: [...base, i, 'expression'],
        kind: 'not_found',
        message: `unknown list $${name}: not a managed list ($svc.${MANAGED_LISTS.join(', $svc.')}) and no account list has that name`,
      });
    }
  });
  return issues;
}
