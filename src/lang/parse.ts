// The entry point: limits, then one scannerless pass over the trimmed input (lexing and type
// checking together, the first failure wins), then the root-type and leftover-input checks, then
// the optional complexity limit. Every LexError becomes a FilterError here, the one place where
// line and column are computed.
import type { Ast } from './ast.js';
import { complexity } from './complexity.js';
import { E, LexError, limitError, toFilterError } from './errors.js';
import { DEFAULT_MAX_NESTING, Parser, type Token } from './parser/context.js';
import { parseLogical } from './parser/logical.js';
import type { Scheme } from './scheme.js';
import { Source } from './source.js';
import { display } from './types.js';

export interface Limits {
  /** maximum expression length in characters (none unless given) */
  maxLength?: number;
  /** maximum nesting depth; the engine's default is 128 */
  maxNesting?: number;
  /** maximum DNF conjunctions (see complexity.ts); none unless given */
  complexityLimit?: number;
}

function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function parseWith(expr: string, scheme: Scheme, limits: Limits, recordTokens: boolean): { ast: Ast; tokens: Token[] } {
  if (limits.maxLength !== undefined) {
    const length = characters(expr);
    if (length > limits.maxLength) {
      throw limitError('too_long', `expression is too long: ${length} characters, the limit is ${limits.maxLength}`, 0, expr.length);
    }
  }
  const src = new Source(expr);
  const parser = new Parser(src, scheme, limits.maxNesting ?? DEFAULT_MAX_NESTING, recordTokens);
  let ast: Ast;
  try {
    const [root, rest] = parseLogical(parser, src.start);
    if (root.type !== 'Bool') throw E.typeMismatch('Bool', display(root.type), rest, src.end);
    if (rest < src.end) throw E.eof(rest, src.end);
    ast = { expr: root, source: expr, scheme };
  } catch (err) {
    if (err instanceof LexError) throw toFilterError(src, err);
    throw err;
  }
  if (limits.complexityLimit !== undefined && complexity(ast.expr) > limits.complexityLimit) {
    throw limitError('too_complex', 'ruleset exceeds complexity constraints', src.start, src.end);
  }
  return { ast, tokens: parser.recorded() };
}

/** Parses and type-checks an expression against a scheme; throws FilterError. */
export function parse(expr: string, scheme: Scheme, limits: Limits = {}): Ast {
  return parseWith(expr, scheme, limits, false).ast;
}

/** parse(), also returning the tokens it lexed (for `explain`). */
export function parseWithTokens(expr: string, scheme: Scheme, limits: Limits = {}): { ast: Ast; tokens: Token[] } {
  return parseWith(expr, scheme, limits, true);
}

