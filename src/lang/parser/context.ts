// Parser state shared by the recursive-descent functions: the source, the scheme, the nesting
// depth (each `(`, `not`/`!`, `any(`/`all(` and function call adds a level; over the limit the
// engine fails with the span from the offending token to the end), and an optional token log for
// `edgesim explain`. Parsing functions take a position and return [node, position after]; the
// rest of the input is implicit, as in the engine's `&str` slices.
//
// The grammar is recursive (a call's argument is a logical expression; a comparison's lhs may be a
// call), yet its files never import each other in a circle: as acorn's files all extend one
// Parser, ours reach every production of another file through the parser's `grammar` table,
// which grammar.ts fills once. A file imports only this one, the token tables and the lexers.
import type { CallExpr, ComparisonExpr, Expr, IndexExpr } from '../ast.js';
import { E } from '../errors.js';
import type { FunctionDef } from '../scheme.js';
import type { Scheme } from '../scheme.js';
import type { Source } from '../source.js';

/** A lexed token, for `explain`: kind, byte offsets, text. */
export interface Token {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export const DEFAULT_MAX_NESTING = 128;

/** The productions one grammar file offers the others. */
export interface Grammar {
  /** a full logical expression (logical.ts) */
  logical(p: Parser, pos: number): [Expr, number];
  /** a comparison (comparison.ts) */
  comparison(p: Parser, pos: number): [ComparisonExpr, number];
  /** a comparison whose lhs, starting at start, is already parsed (comparison.ts) */
  comparisonWithLhs(p: Parser, start: number, lhs: IndexExpr, pos: number): [ComparisonExpr, number];
  /** a field, a call, with index accesses (index-expr.ts) */
  indexExpr(p: Parser, pos: number): [IndexExpr, number];
  /** a call after its name (call.ts) */
  call(p: Parser, fn: FunctionDef, nameStart: number, nameEnd: number): [CallExpr, number];
}

export class Parser {
  private depth = 0;
  /** tokens by start offset, when recording (re-lexing the same spot replaces, backtracking drops) */
  private readonly tokens: Map<number, Token> | null;

  constructor(
    readonly grammar: Grammar,
    readonly src: Source,
    readonly scheme: Scheme,
    readonly maxNesting: number,
    recordTokens = false,
  ) {
    this.tokens = recordTokens ? new Map() : null;
  }

  /** Runs `parse` one nesting level deeper; `pos` is where the nesting token starts. */
  nested<T>(pos: number, parse: () => T): T {
    if (this.depth + 1 > this.maxNesting) throw E.nesting(this.maxNesting, pos, this.src.end);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  token(kind: string, start: number, end: number): void {
    this.tokens?.set(start, { kind, start, end, text: this.src.slice(start, end) });
  }

  /** Forgets tokens recorded at or after pos (an alternative was abandoned there). */
  rollback(pos: number): void {
    if (!this.tokens) return;
    for (const start of this.tokens.keys()) if (start >= pos) this.tokens.delete(start);
  }

  recorded(): Token[] {
    return [...(this.tokens?.values() ?? [])].sort((a, b) => a.start - b.start);
  }
}
