// The language's operators as data (reference/wirefilter.md §1.6, §1.7): every spelling mapped to
// one operator, in the engine's matching order, and the lookups that find one at a position.
// Operators are plain prefixes (`ssl andssl` parses; `nothing` is `not hing`) and lowercase only.
import type { LogicalOp, OrderingOp } from '../ast.js';
import type { Source } from '../source.js';

export type OpName = 'in' | OrderingOp | 'bitwiseAnd' | 'contains' | 'matches' | 'wildcard' | 'strictWildcard';

/** Operator spellings in the engine's matching order (plain prefix match, lowercase only). */
export const COMPARISON_OPS: ReadonlyArray<readonly [string, OpName]> = [
  ['in', 'in'],
  ['eq', 'eq'], ['==', 'eq'], ['ne', 'ne'], ['!=', 'ne'], ['ge', 'ge'], ['>=', 'ge'],
  ['le', 'le'], ['<=', 'le'], ['gt', 'gt'], ['>', 'gt'], ['lt', 'lt'], ['<', 'lt'],
  ['&', 'bitwiseAnd'], ['bitwise_and', 'bitwiseAnd'],
  ['contains', 'contains'], ['~', 'matches'], ['matches', 'matches'], ['wildcard', 'wildcard'],
  ['strict wildcard', 'strictWildcard'],
];

export const ORDERING = new Set<OpName>(['eq', 'ne', 'ge', 'le', 'gt', 'lt']);

/** The comparison operator at pos, or null. */
export function comparisonOpAt(s: Source, pos: number): readonly [string, OpName] | null {
  return COMPARISON_OPS.find(([text]) => s.startsWith(pos, text)) ?? null;
}

export const LOGICAL_OPS: ReadonlyArray<readonly [string, LogicalOp]> = [
  ['or', 'or'], ['||', 'or'], ['xor', 'xor'], ['^^', 'xor'], ['and', 'and'], ['&&', 'and'],
];
export const PRECEDENCE: Record<LogicalOp, number> = { or: 1, xor: 2, and: 3 };
const NOT_OPS = ['not', '!'];
const QUANTIFIERS = ['any', 'all'] as const;

/** The `not`/`!` operator at pos, or null. */
export function notOperator(s: Source, pos: number): string | null {
  return NOT_OPS.find((op) => s.startsWith(pos, op)) ?? null;
}

/** `any`/`all` followed (after spaces) by `(`: returns [which, position of the paren], or null. */
export function quantifierAt(s: Source, pos: number): readonly ['any' | 'all', number] | null {
  for (const q of QUANTIFIERS) {
    if (!s.startsWith(pos, q)) continue;
    const paren = s.skipSpace(pos + q.length);
    if (s.at(paren) === 0x28) return [q, paren];
  }
  return null;
}
