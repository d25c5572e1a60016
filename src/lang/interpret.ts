// The reference interpreter: a deliberately simple walk over the AST that builds plain values
// (copies, BigInts, strings) and checks them the obvious way — linear scans over set items, BigInt
// prefix masks for CIDRs, string search, regexes for wildcards. It is the oracle the compiler is
// tested against (same cases, and a property test over random expressions and packets), and it
// evaluates the constructs the compiler does not specialise (Array/Map values, `[*]`, any/all,
// concat). Semantics (reference/wirefilter.md §4): an absent value makes every comparison false
// except `!=`; `not` inverts afterwards; v4 and v6 never compare equal; vectors combine
// element-wise, truncated to the shorter one.
import type { Ast, CallExpr, ComparisonExpr, ComparisonOp, Expr, IndexExpr, IpItem, IpValue, Literal } from './ast.js';
import { elementsOf as elements, type CompoundValue, type ElementValue, type SchemeBinding } from './binding.js';
import { listsUsed } from './analysis.js';
import { paramOf } from './functions/params.js';
import { compileRegex } from './regex/compile.js';
import type { IpSet } from '../net/ip-set.js';
import { unknownListError } from './lists.js';

/** How compiled expressions resolve `$name` lists. */
export interface CompileOptions {
  /** the IP set for a list name, undefined if there is no such list */
  lists?: (name: string) => IpSet | undefined;
}

type Value = ElementValue;
type Truth = boolean | boolean[] | null;

export interface EvalContext<P> {
  readonly binding: SchemeBinding<P>;
  readonly ast: Ast;
  readonly lists: Map<string, IpSet>;
}

const latin1 = new TextDecoder('latin1');

function readField<P>(ctx: EvalContext<P>, name: string, p: P): Value | undefined {
  const acc = ctx.binding[name];
  if (!acc) throw new Error(`the binding has no accessor for field ${name}`);
  if (!acc.has(p)) return undefined;
  switch (acc.type) {
    case 'Bool':
    case 'Int':
      return acc.get(p);
    case 'Ip':
      return acc.family(p) === 4 ? { family: 4, v4: acc.v4(p) >>> 0 } : { family: 6, v6: Uint32Array.from(acc.v6(p)) };
    case 'Bytes':
      return acc.bytes(p).slice(acc.start(p), acc.end(p));
    default:
      return acc.get(p);
  }
}

function literalValue(l: Literal): Value {
  if (l.type === 'Int') return Number(l.value);
  if (l.type === 'Ip') return l.ip;
  return l.bytes;
}

const isCompound = (v: Value): v is CompoundValue => Array.isArray(v) || v instanceof Map;

function ipBig(ip: IpValue): bigint {
  if (ip.family === 4) return BigInt(ip.v4);
  return ip.v6.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n);
}

function ipInItem(v: IpValue, item: IpItem): boolean {
  if (item.kind === 'range') {
    return v.family === item.lo.family && ipBig(item.lo) <= ipBig(v) && ipBig(v) <= ipBig(item.hi);
  }
  if (v.family !== item.ip.family) return false;
  const bits = BigInt(v.family === 4 ? 32 : 128);
  const shift = bits - BigInt(item.len);
  return ipBig(v) >> shift === ipBig(item.ip) >> shift;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const sa = latin1.decode(a);
  const sb = latin1.decode(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function wildcardRegex(pattern: Uint8Array, strict: boolean): RegExp {
  const text = strict ? latin1.decode(pattern) : asciiLower(latin1.decode(pattern));
  let re = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') re += text[++i].replace(/[\\*]/, (c) => `\\${c}`);
    else if (ch === '*') re += '[\\s\\S]*';
    else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
  }
  return new RegExp(`^${re}$`);
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function ordering(op: string, cmp: number): boolean {
  return { eq: cmp === 0, ne: cmp !== 0, ge: cmp >= 0, le: cmp <= 0, gt: cmp > 0, lt: cmp < 0 }[op]!;
}

function applyOp<P>(ctx: EvalContext<P>, op: ComparisonOp, v: Value): boolean {
  switch (op.kind) {
    case 'isTrue':
      return v === true;
    case 'ordering': {
      const rhs = literalValue(op.rhs);
      if (typeof v === 'number') return ordering(op.op, Math.sign(v - (rhs as number)));
      if (v instanceof Uint8Array) return ordering(op.op, compareBytes(v, rhs as Uint8Array));
      const a = v as IpValue;
      const b = rhs as IpValue;
      if (a.family !== b.family) return op.op === 'ne';
      const x = ipBig(a);
      const y = ipBig(b);
      return ordering(op.op, x < y ? -1 : x > y ? 1 : 0);
    }
    case 'bitwiseAnd':
      return (BigInt(v as number) & op.rhs) !== 0n;
    case 'contains':
      return latin1.decode(v as Uint8Array).includes(latin1.decode(op.rhs));
    case 'matches': {
      const re = compileRegex(op.pattern);
      if (typeof re === 'string') throw new Error(re);
      return re.test(v as Uint8Array, 0, (v as Uint8Array).length);
    }
    case 'wildcard': {
      const value = latin1.decode(v as Uint8Array);
      return wildcardRegex(op.pattern, op.strict).test(op.strict ? value : asciiLower(value));
    }
    case 'inSet': {
      const set = op.set;
      if (set.type === 'Int') return set.ranges.some(([lo, hi]) => lo <= BigInt(v as number) && BigInt(v as number) <= hi);
      if (set.type === 'Ip') return set.items.some((item) => ipInItem(v as IpValue, item));
      return set.items.some((item) => compareBytes(item, v as Uint8Array) === 0 && item.length === (v as Uint8Array).length);
    }
    case 'inList': {
      const list = ctx.lists.get(op.name)!;
      const ip = v as IpValue;
      return ip.family === 4 ? list.has4(ip.v4) : list.has6(ip.v6);
    }
  }
}

function evalCall<P>(ctx: EvalContext<P>, call: CallExpr, p: P): Value | undefined {
  const fn = ctx.ast.scheme.fn(call.name);
  if (!fn) throw new Error(`no definition for function ${call.name}`);
  const params = call.args.map(paramOf);
  const args = call.args.map((a) =>
    a.kind === 'literal' ? literalValue(a.value) : a.kind === 'index' ? evalIndex(ctx, a.expr, p) : truthValue(evalExpr(ctx, a.expr, p)),
  );
  const first = call.args[0];
  if (first?.kind === 'index' && first.expr.mapEach > 0) {
    return (args[0] as Value[]).map((e) => fn.evaluate([e, ...args.slice(1)], params)).filter((v) => v !== undefined);
  }
  return fn.evaluate(args, params);
}

function truthValue(t: Truth): Value | undefined {
  return t === null ? undefined : t;
}

/** The lhs value; with `[*]`, the flattened elements (an empty list when the value is absent). */
function evalIndex<P>(ctx: EvalContext<P>, e: IndexExpr, p: P): Value | undefined {
  const base = e.base.kind === 'field' ? readField(ctx, e.base.name, p) : evalCall(ctx, e.base, p);
  let frontier: Array<Value | undefined> = [base];
  for (const index of e.indexes) {
    const next: Array<Value | undefined> = [];
    for (const v of frontier) {
      if (v === undefined || !isCompound(v)) continue;
      if (index.kind === 'each') next.push(...elements(v));
      else if (index.kind === 'array') next.push(Array.isArray(v) ? (v as Value[])[index.index] : undefined);
      else next.push(v instanceof Map ? (v as ReadonlyMap<string, Value>).get(index.key) : undefined);
    }
    frontier = next;
  }
  if (e.mapEach > 0) return frontier.filter((v): v is Value => v !== undefined);
  return frontier[0];
}

function comparisonOnField<P>(ctx: EvalContext<P>, c: ComparisonExpr, p: P): boolean {
  const v = evalIndex(ctx, c.lhs, p);
  if (v === undefined) return c.op.kind === 'ordering' && c.op.op === 'ne';
  return applyOp(ctx, c.op, v);
}

function evalComparison<P>(ctx: EvalContext<P>, c: ComparisonExpr, p: P): Truth {
  const lhs = c.lhs;
  if (lhs.mapEach > 0) return (evalIndex(ctx, lhs, p) as Value[]).map((v) => applyOp(ctx, c.op, v));
  if (c.type !== 'Bool') {
    const v = evalIndex(ctx, lhs, p);
    return v === undefined ? null : elements(v as CompoundValue).map((x) => x === true);
  }
  const anyOf = lhs.base.kind === 'field' && lhs.indexes.length === 0 ? ctx.ast.scheme.field(lhs.base.name)?.anyOf : undefined;
  if (anyOf) {
    const each = anyOf.map((name) => comparisonOnField(ctx, { ...c, lhs: { ...lhs, base: { ...lhs.base, name } } as IndexExpr }, p));
    return c.op.kind === 'ordering' && c.op.op === 'ne' ? each.every(Boolean) : each.some(Boolean);
  }
  return comparisonOnField(ctx, c, p);
}

function elementWise(items: Truth[], f: (a: boolean, b: boolean) => boolean): boolean[] {
  const arrays = items.map((t) => (t === null ? [] : (t as boolean[])));
  const len = Math.min(...arrays.map((a) => a.length));
  return Array.from({ length: len }, (_, i) => arrays.slice(1).reduce((acc, a) => f(acc, a[i]), arrays[0][i]));
}

/** Evaluates any expression: a boolean, or a vector of booleans (null: an absent vector). */
export function evalExpr<P>(ctx: EvalContext<P>, e: Expr, p: P): Truth {
  switch (e.kind) {
    case 'group':
      return evalExpr(ctx, e.expr, p);
    case 'not': {
      const v = evalExpr(ctx, e.arg, p);
      return typeof v === 'boolean' ? !v : v === null ? null : v.map((x) => !x);
    }
    case 'quantifier': {
      const v = evalExpr(ctx, e.arg, p) as boolean[] | null;
      if (v === null) return false;
      return e.which === 'any' ? v.some(Boolean) : v.every(Boolean);
    }
    case 'comparison':
      return evalComparison(ctx, e, p);
    case 'combining': {
      const items = e.items.map((item) => evalExpr(ctx, item, p));
      const f = e.op === 'and' ? (a: boolean, b: boolean) => a && b : e.op === 'or' ? (a: boolean, b: boolean) => a || b : (a: boolean, b: boolean) => a !== b;
      if (e.type !== 'Bool') return elementWise(items, f);
      return (items as boolean[]).reduce(f);
    }
  }
}

/** Resolves every list the expression names, or throws FilterError 'unknown_list'. */
export function resolveLists(ast: Ast, opts: CompileOptions): Map<string, IpSet> {
  const lists = new Map<string, IpSet>();
  for (const name of listsUsed(ast)) {
    const set = opts.lists?.(name);
    if (!set) throw unknownListError(ast, name);
    lists.set(name, set);
  }
  return lists;
}

/** Evaluates the expression for one packet by walking the AST (the reference semantics). */
export function interpret<P>(ast: Ast, binding: SchemeBinding<P>, p: P, opts: CompileOptions = {}): boolean {
  const ctx: EvalContext<P> = { binding, ast, lists: resolveLists(ast, opts) };
  return evalExpr(ctx, ast.expr, p) === true;
}

