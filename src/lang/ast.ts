// The typed AST the parser produces. It mirrors the engine's: logical operator runs are one n-ary
// node (`a or b or c`), parentheses are kept as a `group` node (so `(a or b) or c` stays two
// levels, as in the engine), `not` applies to one simple expression, comparisons carry their
// lhs index expression and their operator with an already-lexed right-hand side. Every node is
// plain data; `span`s are byte offsets into the source text (ignored when comparing structure).
import type { IpItem, IpValue } from './literals/ip.js';
import type { Literal } from './literals/literal.js';
import type { LangType } from './types.js';
import type { Scheme } from './scheme.js';

export type { IpItem, IpValue, Literal };

export interface Span {
  readonly start: number;
  readonly end: number;
}

export type LogicalOp = 'or' | 'xor' | 'and';
export type OrderingOp = 'eq' | 'ne' | 'ge' | 'le' | 'gt' | 'lt';

export type Expr = CombiningExpr | NotExpr | GroupExpr | QuantifierExpr | ComparisonExpr;

export interface CombiningExpr {
  readonly kind: 'combining';
  readonly op: LogicalOp;
  readonly items: readonly Expr[];
  /** Bool, or Array<Bool> for element-wise combination of vectors */
  readonly type: LangType;
}

export interface NotExpr {
  readonly kind: 'not';
  readonly arg: Expr;
  readonly type: LangType;
}

export interface GroupExpr {
  readonly kind: 'group';
  readonly expr: Expr;
  readonly type: LangType;
}

/** `any(x)` / `all(x)` over an Array<Bool> */
export interface QuantifierExpr {
  readonly kind: 'quantifier';
  readonly which: 'any' | 'all';
  readonly arg: Expr;
  readonly type: LangType;
}

export interface ComparisonExpr {
  readonly kind: 'comparison';
  readonly lhs: IndexExpr;
  readonly op: ComparisonOp;
  /** Bool, or Array<Bool> when the lhs uses `[*]` or is a bare Array<Bool> */
  readonly type: LangType;
  readonly span: Span;
}


export type SetLiteral =
  | { readonly type: 'Int'; readonly ranges: ReadonlyArray<readonly [bigint, bigint]> }
  | { readonly type: 'Ip'; readonly items: readonly IpItem[] }
  | { readonly type: 'Bytes'; readonly items: readonly Uint8Array[] };

export type ComparisonOp =
  | { readonly kind: 'isTrue' }
  | { readonly kind: 'ordering'; readonly op: OrderingOp; readonly rhs: Literal }
  | { readonly kind: 'bitwiseAnd'; readonly rhs: bigint }
  | { readonly kind: 'contains'; readonly rhs: Uint8Array }
  | { readonly kind: 'matches'; readonly pattern: string }
  | { readonly kind: 'wildcard'; readonly strict: boolean; readonly pattern: Uint8Array }
  | { readonly kind: 'inSet'; readonly set: SetLiteral }
  | { readonly kind: 'inList'; readonly name: string; readonly span: Span };

export type FieldIndex =
  | { readonly kind: 'array'; readonly index: number }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'each' };

export interface FieldRef {
  readonly kind: 'field';
  readonly name: string;
  readonly type: LangType;
  readonly span: Span;
}

export interface CallExpr {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly CallArg[];
  /** the function's return type (wrapped in Array when the first argument uses `[*]`) */
  readonly type: LangType;
  readonly span: Span;
}

export type CallArg =
  | { readonly kind: 'literal'; readonly value: Literal }
  | { readonly kind: 'index'; readonly expr: IndexExpr }
  | { readonly kind: 'logical'; readonly expr: Expr };

export interface IndexExpr {
  readonly kind: 'index';
  readonly base: FieldRef | CallExpr;
  readonly indexes: readonly FieldIndex[];
  /** the type after the indexes (for `x[*]`, the element type) */
  readonly type: LangType;
  /** how many `[*]` the indexes hold */
  readonly mapEach: number;
}

/** A parsed expression: the tree, the text it came from, the scheme it was checked against. */
export interface Ast {
  readonly expr: Expr;
  readonly source: string;
  readonly scheme: Scheme;
}
