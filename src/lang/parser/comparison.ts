// Comparisons (reference/wirefilter.md §1.6, §2): an index expression, then — unless it is Bool or
// a vector of Bool — an operator and a right-hand side lexed *as the lhs type* (so a wrong-typed
// literal fails in that type's lexer: `tcp.dstport == "80"` is "expected digit"). A valid operator
// on the wrong type is "cannot perform this operation on type …" on the operator token (for
// `in $list` without a list definition: from `in` through the name).
import type { ComparisonExpr, ComparisonOp, IndexExpr, OrderingOp, SetLiteral } from '../ast.js';
import { E } from '../errors.js';
import { lexBytes } from '../literals/bytes.js';
import { lexInt, lexIntRange } from '../literals/int.js';
import { lexIpAddr, lexIpItem } from '../literals/ip.js';
import { lexListName } from '../literals/list-name.js';
import { lexRegex } from '../literals/regex.js';
import { lexWildcard } from '../literals/wildcard.js';
import type { Source } from '../source.js';
import { ArrayOf, BOOL_ARRAY, debug, elementOf, type LangType } from '../types.js';
import type { Parser } from './context.js';
import { comparisonOpAt, ORDERING, type OpName } from './tokens.js';

function lexSet(p: Parser, type: LangType, pos: number): [SetLiteral, number] {
  const s = p.src;
  if (s.at(pos) !== 0x7b) throw E.literal('{', pos, s.end);
  p.token('brace', pos, pos + 1);
  const ranges: Array<readonly [bigint, bigint]> = [];
  const ips: Array<ReturnType<typeof lexIpItem>[0]> = [];
  const strings: Uint8Array[] = [];
  let q = pos + 1;
  for (;;) {
    q = s.skipSpace(q);
    if (s.at(q) === 0x7d) {
      p.token('brace', q, q + 1);
      break;
    }
    const itemStart = q;
    if (type === 'Int') {
      const [lo, hi, end] = lexIntRange(s, q);
      ranges.push([lo, hi]);
      q = end;
    } else if (type === 'Ip') {
      const [item, end] = lexIpItem(s, q);
      ips.push(item);
      q = end;
    } else {
      const [bytes, end] = lexBytes(s, q);
      strings.push(bytes);
      q = end;
    }
    p.token('literal', itemStart, q);
  }
  const set: SetLiteral = type === 'Int' ? { type, ranges } : type === 'Ip' ? { type, items: ips } : { type: 'Bytes', items: strings };
  return [set, q + 1];
}

function lexRhs(p: Parser, lhsType: LangType, name: OpName, opStart: number, afterOp: number): [ComparisonOp, number] {
  const s = p.src;
  const q = s.skipSpace(afterOp);
  const primitive = lhsType === 'Int' || lhsType === 'Ip' || lhsType === 'Bytes';
  if (primitive && name === 'in') {
    if (s.at(q) === 0x24) {
      const [listName, end] = lexListName(s, q);
      if (!p.scheme.hasList(lhsType)) throw E.unsupportedOp(debug(lhsType), opStart, end);
      p.token('list', q, end);
      return [{ kind: 'inList', name: listName, span: { start: q, end } }, end];
    }
    const [set, end] = lexSet(p, lhsType, q);
    return [{ kind: 'inSet', set }, end];
  }
  if (primitive && ORDERING.has(name)) {
    const op = name as OrderingOp;
    if (lhsType === 'Int') {
      const [value, end] = lexInt(s, q);
      p.token('literal', q, end);
      return [{ kind: 'ordering', op, rhs: { type: 'Int', value } }, end];
    }
    if (lhsType === 'Ip') {
      const [ip, end] = lexIpAddr(s, q);
      p.token('literal', q, end);
      return [{ kind: 'ordering', op, rhs: { type: 'Ip', ip } }, end];
    }
    const [bytes, end] = lexBytes(s, q);
    p.token('literal', q, end);
    return [{ kind: 'ordering', op, rhs: { type: 'Bytes', bytes } }, end];
  }
  if (lhsType === 'Int' && name === 'bitwiseAnd') {
    const [value, end] = lexInt(s, q);
    p.token('literal', q, end);
    return [{ kind: 'bitwiseAnd', rhs: value }, end];
  }
  if (lhsType === 'Bytes' && name === 'contains') {
    const [bytes, end] = lexBytes(s, q);
    p.token('literal', q, end);
    return [{ kind: 'contains', rhs: bytes }, end];
  }
  if (lhsType === 'Bytes' && name === 'matches') {
    const [pattern, end] = lexRegex(s, q);
    p.token('literal', q, end);
    return [{ kind: 'matches', pattern }, end];
  }
  if (lhsType === 'Bytes' && (name === 'wildcard' || name === 'strictWildcard')) {
    const [pattern, , end] = lexWildcard(s, q);
    p.token('literal', q, end);
    return [{ kind: 'wildcard', strict: name === 'strictWildcard', pattern }, end];
  }
  throw E.unsupportedOp(debug(lhsType), opStart, afterOp);
}

/** Finishes a comparison whose lhs is already parsed (also used for function arguments). */
export function comparisonWithLhs(p: Parser, start: number, lhs: IndexExpr, pos: number): [ComparisonExpr, number] {
  const s = p.src;
  const t = lhs.type;
  const resultType = (isTrueType: LangType): LangType => (lhs.mapEach > 0 ? BOOL_ARRAY : isTrueType);
  if (t === 'Bool') {
    return [{ kind: 'comparison', lhs, op: { kind: 'isTrue' }, type: resultType('Bool'), span: { start, end: pos } }, pos];
  }
  if (elementOf(t) === 'Bool') {
    if (lhs.mapEach > 0) throw E.unsupportedOp(debug(ArrayOf(BOOL_ARRAY)), pos, pos);
    return [{ kind: 'comparison', lhs, op: { kind: 'isTrue' }, type: t, span: { start, end: pos } }, pos];
  }
  const opStart = s.skipSpace(pos);
  const found = comparisonOpAt(s, opStart);
  if (!found) throw E.expected('ComparisonOp', opStart, s.end);
  const afterOp = opStart + found[0].length;
  p.token('operator', opStart, afterOp);
  const [op, end] = lexRhs(p, t, found[1], opStart, afterOp);
  return [{ kind: 'comparison', lhs, op, type: resultType('Bool'), span: { start, end } }, end];
}

export function parseComparison(p: Parser, pos: number): [ComparisonExpr, number] {
  const [lhs, rest] = p.grammar.indexExpr(p, pos);
  return comparisonWithLhs(p, pos, lhs, rest);
}
