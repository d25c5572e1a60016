// ATP filter expressions: the Rules language with the filter scheme (only ip.src, ip.dst,
// tcp.srcport, tcp.dstport; no functions, no lists) and the API's 8,192-character limit, so an
// expression is accepted here exactly when the configuration API accepts it; a bad one is reported
// with the engine's own message under the filter's path. Compiled over the packet record through
// the same field binding as the firewall, so a filter reads packets exactly as a rule does.
import { compileRecordExpression } from '../fields/compile.js';
import { FilterError } from '../lang/index.js';
import type { FilterPredicate } from './component-rules.js';
import { ConfigItemError } from '../errors.js';

/** Compiles one filter expression to a predicate over packet records; throws ConfigItemError naming `path`. */
export function compileFilter(expression: string, path: string): FilterPredicate {
  try {
    return compileRecordExpression('filter', expression).predicate;
  } catch (err) {
    if (err instanceof FilterError) throw new ConfigItemError(path, err.message.trimEnd());
    throw err;
  }
}
