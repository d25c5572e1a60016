// Function calls (reference/wirefilter.md §1.10): `name ( arg , … )`, spaces allowed around
// arguments. An argument is a string literal, a logical sub-expression (starting with `(`,
// `not`/`!` or `any(`/`all(`), a field or index expression optionally followed by a comparison,
// or else an IP, Int or byte-string literal, tried in that order. Only the first argument may use
// `[*]`. Each argument is checked by the function's definition as soon as it is parsed.
import type { CallArg, CallExpr } from '../ast.js';
import { E } from '../errors.js';
import { lexBytes } from '../literals/bytes.js';
import { lexInt } from '../literals/int.js';
import { lexIpAddr } from '../literals/ip.js';
import { paramOf } from '../functions/params.js';
import type { FunctionDef, FunctionParam } from '../scheme.js';
import { ArrayOf, display } from '../types.js';
import type { Parser } from './context.js';
import { comparisonOpAt, notOperator, quantifierAt } from './tokens.js';

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
/** can only start a name, not a number */
const fieldChar = (c: number) => (isAlnum(c) && !isHex(c)) || c === 0x5f;
const fieldOrIntChar = (c: number) => isAlnum(c) || c === 0x5f;

function indexArg(p: Parser, pos: number): [CallArg, number] {
  const [lhs, rest] = p.grammar.indexExpr(p, pos);
  if (comparisonOpAt(p.src, p.src.skipSpace(rest))) {
    const [expr, end] = p.grammar.comparisonWithLhs(p, pos, lhs, rest);
    return [{ kind: 'logical', expr }, end];
  }
  return [{ kind: 'index', expr: lhs }, rest];
}

function parseArg(p: Parser, pos: number): [CallArg, number] {
  const s = p.src;
  const [c, c2, c3] = [s.at(pos), s.at(pos + 1), s.at(pos + 2)];
  if (c === 0x22 || (c === 0x72 && (c2 === 0x23 || c2 === 0x22))) {
    const [bytes, end] = lexBytes(s, pos);
    p.token('literal', pos, end);
    return [{ kind: 'literal', value: { type: 'Bytes', bytes } }, end];
  }
  if (c === 0x28 || notOperator(s, pos) || quantifierAt(s, pos)) {
    const [expr, end] = p.grammar.logical(p, pos);
    return [{ kind: 'logical', expr }, end];
  }
  if (fieldChar(c) || (fieldOrIntChar(c) && fieldChar(c2)) || (fieldOrIntChar(c) && fieldOrIntChar(c2) && fieldChar(c3))) {
    return indexArg(p, pos);
  }
  const attempts: Array<() => [CallArg, number]> = [
    () => indexArg(p, pos),
    () => {
      const [ip, end] = lexIpAddr(s, pos);
      return [{ kind: 'literal', value: { type: 'Ip', ip } }, end];
    },
    () => {
      const [value, end] = lexInt(s, pos);
      return [{ kind: 'literal', value: { type: 'Int', value } }, end];
    },
    () => {
      const [bytes, end] = lexBytes(s, pos);
      return [{ kind: 'literal', value: { type: 'Bytes', bytes } }, end];
    },
  ];
  for (const attempt of attempts) {
    try {
      const result = attempt();
      if (result[0].kind === 'literal') p.token('literal', pos, result[1]);
      return result;
    } catch {
      p.rollback(pos);
    }
  }
  throw E.eof(pos, s.end);
}

function checkParam(fn: FunctionDef, index: number, param: FunctionParam, previous: FunctionParam[], start: number, end: number): void {
  const problem = fn.checkParam(index, param, previous);
  if (!problem) return;
  if (problem.kind === 'kind') throw E.argKind(index, problem.expected, param.kind, start, end);
  if (problem.kind === 'type') throw E.argType(index, problem.expected, display(param.type), start, end);
  throw E.argValue(index, problem.message, start, end);
}

function mapEachOf(arg: CallArg): number {
  return arg.kind === 'index' ? arg.expr.mapEach : 0;
}

/** The call after its name: `(` args `)`; returns [call, position after]. */
export function parseCall(p: Parser, fn: FunctionDef, nameStart: number, nameEnd: number): [CallExpr, number] {
  const s = p.src;
  let q = s.skipSpace(nameEnd);
  if (s.at(q) !== 0x28) throw E.literal('(', q, s.end);
  p.token('paren', q, q + 1);
  q = s.skipSpace(q + 1);
  const args: CallArg[] = [];
  const params: FunctionParam[] = [];
  while (q < s.end && s.at(q) !== 0x29) {
    if (args.length > 0) {
      if (s.at(q) !== 0x2c) throw E.literal(',', q, s.end);
      p.token('comma', q, q + 1);
      q = s.skipSpace(q + 1);
    }
    const [arg, end] = parseArg(p, q);
    const index = args.length;
    if (mapEachOf(arg) > 0 && index !== 0) throw E.mapEach(q, end);
    if (fn.maxArgs !== undefined && index >= fn.maxArgs) throw E.argCount(q, s.end);
    const param = paramOf(arg);
    checkParam(fn, index, param, params, q, end);
    args.push(arg);
    params.push(param);
    q = s.skipSpace(end);
  }
  if (args.length < fn.minArgs) throw E.argCount(q, s.end);
  if (s.at(q) !== 0x29) throw E.literal(')', q, s.end);
  p.token('paren', q, q + 1);
  const returnType = fn.returnType(params);
  const type = args.length > 0 && mapEachOf(args[0]) > 0 ? ArrayOf(returnType) : returnType;
  return [{ kind: 'call', name: fn.name, args, type, span: { start: nameStart, end: q + 1 } }, q + 1];
}
