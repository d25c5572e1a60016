// The entry point: limits, then one scannerless pass over the trimmed input (lexing and type
// checking together, the first failure wins), then the root-type and leftover-input checks, then
// the optional complexity limit. Every LexError becomes a FilterError here, the one place where
// line and column are computed.
//
// Decisions. An expression is valid here exactly when the reference engine (wirefilter at
// af1a1e9, reference/wirefilter.md) accepts it, with byte-identical messages; its quirks are kept:
// - keywords and operators are plain prefixes: `nothing` is `not hing`, `80and` lexes `80a` as an
//   int, `ssl andssl` parses; operators are lowercase only;
// - whitespace between tokens is ' ', '\r', '\n' only (a tab is not); the whole input is first
//   trimmed with Rust's str::trim (Unicode White_Space, not JS trim);
// - positions, columns and caret counts are UTF-8 bytes in the original untrimmed input;
// - set items use the `cidr` crate's lenient short IPv4 (`{10}` = 10.0.0.0/32, `1.1.1.01`);
//   `==` takes only a strict single address;
// - the odd TypeMismatch spans of logical chains (the input after the next operator);
// - "cannot perform this operation on type" prints the engine's Debug text for compound types
//   (`Array(CompoundType { layers: 0, len: 0, primitive: Bytes })`);
// - nesting limit 128 by default (each `(`, `not`, `any(`/`all(`, function call); for calls and
//   quantifiers the span starts at their `(`;
// - ordering operators work on Ip (within a family; across families only `!=` is true);
// - ints are i64 when parsed (range errors exact), doubles when evaluated;
// - fields are all optional: absent ⇒ every comparison false except `!=` (the engine's default
//   nil-not-equal behaviour), never the engine's panic for a missing mandatory field;
// - `any(`/`all(` are syntax, as at that commit; `concat` needs two arguments.
// Where the engine gives no answer we decided: `$name` lists are resolved at compile time and a
// missing one is FilterError 'unknown_list'; regexes run on our own linear-time automaton over
// bytes (Rust's syntax and error texts, its size limit approximated: src/lang/regex/); wildcard syntax-error wording;
// bit_slice's argument messages; `ip.geoip.country` (either country; `!=`: neither equals); the
// length limit counts characters (code points); complexity counts DNF conjunctions.
import type { Ast } from './ast.js';
import { complexity } from './complexity.js';
import { E, LexError, limitError, toFilterError } from './errors.js';
import { DEFAULT_MAX_NESTING, Parser, type Token } from './parser/context.js';
import { GRAMMAR } from './parser/grammar.js';
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
  const parser = new Parser(GRAMMAR, src, scheme, limits.maxNesting ?? DEFAULT_MAX_NESTING, recordTokens);
  let ast: Ast;
  try {
    const [root, rest] = GRAMMAR.logical(parser, src.start);
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

