// The one place firewall rules, ATP filters and `edgesim match` turn Rules-language text into a
// predicate over packet records, with the limits the configuration API applies to each kind.
import { compile, fieldsUsed, parse, settingsFor, type Ast, type ExpressionKind } from '../lang/index.js';
import type { IpSet } from '../net/ip-set.js';
import type { PacketRecord } from '../capture/record.js';
import { recordBinding } from './binding.js';

/**
 * Compiles an expression of `kind` ('rule': firewall scheme, 'filter': ATP filter scheme) over packet
 * records, with the limits the configuration API applies to that kind; throws FilterError. The one
 * place firewall rules, ATP filters and `edgesim match` turn text into a predicate.
 */
export function compileRecordExpression(
  kind: ExpressionKind,
  expression: string,
  lists?: (name: string) => IpSet | undefined,
): { predicate: (p: PacketRecord) => boolean; fields: string[]; ast: Ast } {
  const { scheme, limits } = settingsFor(kind);
  const ast = parse(expression, scheme, limits);
  return { predicate: compile(ast, recordBinding, { lists }), fields: fieldsUsed(ast), ast };
}
