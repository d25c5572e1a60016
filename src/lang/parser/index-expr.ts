// Identifiers and index expressions (reference/wirefilter.md §1.3, §1.8): a dotted name of
// [A-Za-z0-9_] segments looked up exactly in the scheme (fields and functions share the
// namespace; any miss is "unknown identifier" on the whole name), then `[n]`, `["key"]` or `[*]`
// with no space before the `[`. An index of the wrong kind for the type is "cannot access index
// … for type …" on the whole `[…]`.
import type { CallExpr, FieldIndex, FieldRef, IndexExpr } from '../ast.js';
import { E, rustDebugStr } from '../errors.js';
import { lexBytes } from '../literals/bytes.js';
import { lexInt } from '../literals/int.js';
import { U32 } from '../literals/parse-int.js';
import type { Source } from '../source.js';
import { debug, elementOf, isArray, isMap, type LangType } from '../types.js';
import type { Parser } from './context.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isIdentChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function segmentEnd(s: Source, pos: number): number {
  let p = pos;
  while (isIdentChar(s.at(p))) p++;
  if (p === pos) throw E.expected('identifier character', pos, s.end);
  return p;
}

/** The dotted name at pos; returns its end. */
export function lexIdentifier(s: Source, pos: number): number {
  let p = segmentEnd(s, pos);
  while (s.at(p) === 0x2e) p = segmentEnd(s, p + 1);
  return p;
}

/** Rust's Debug of FieldIndex, as the engine prints it in messages. */
export function debugIndex(index: FieldIndex): string {
  if (index.kind === 'array') return `ArrayIndex(${index.index})`;
  if (index.kind === 'key') return `MapKey(${rustDebugStr(index.key)})`;
  return 'MapEach';
}

function lexFieldIndex(s: Source, pos: number): [FieldIndex, number] {
  if (s.at(pos) === 0x2a) return [{ kind: 'each' }, pos + 1];
  let asInt: [bigint, number] | null = null;
  try {
    asInt = lexInt(s, pos);
  } catch {
    asInt = null;
  }
  if (asInt) {
    const [v, end] = asInt;
    if (v < 0n || v > U32.max) throw E.literal('expected positive integer as index', pos, s.end);
    return [{ kind: 'array', index: Number(v) }, end];
  }
  let asBytes: [Uint8Array, number] | null = null;
  try {
    asBytes = lexBytes(s, pos);
  } catch {
    throw E.literal('expected quoted utf8 string or positive integer', pos, s.end);
  }
  try {
    return [{ kind: 'key', key: strictUtf8.decode(asBytes[0]) }, asBytes[1]];
  } catch {
    throw E.literal('expected utf8 string', pos, s.end);
  }
}

function indexStep(current: LangType, index: FieldIndex): LangType | undefined {
  if (index.kind === 'array') return isArray(current) ? elementOf(current) : undefined;
  if (index.kind === 'key') return isMap(current) ? elementOf(current) : undefined;
  return elementOf(current);
}

/** A field or function call with its indexes at pos; returns [expression, position after]. */
export function parseIndexExpr(p: Parser, pos: number): [IndexExpr, number] {
  const s = p.src;
  const nameEnd = lexIdentifier(s, pos);
  const name = s.slice(pos, nameEnd);
  const field = p.scheme.field(name);
  const fn = field ? undefined : p.scheme.fn(name);
  if (!field && !fn) throw E.unknownIdentifier(pos, nameEnd);
  let base: FieldRef | CallExpr;
  let rest: number;
  if (field) {
    p.token('field', pos, nameEnd);
    base = { kind: 'field', name, type: field.type, span: { start: pos, end: nameEnd } };
    rest = nameEnd;
  } else {
    p.token('function', pos, nameEnd);
    [base, rest] = p.nested(s.skipSpace(nameEnd), () => p.grammar.call(p, fn!, pos, nameEnd));
  }
  let type = base.type;
  const indexes: FieldIndex[] = [];
  let mapEach = 0;
  while (s.at(rest) === 0x5b) {
    const open = rest;
    const [index, afterIndex] = lexFieldIndex(s, s.skipSpace(open + 1));
    const close = s.skipSpace(afterIndex);
    if (s.at(close) !== 0x5d) throw E.literal(']', close, s.end);
    const next = indexStep(type, index);
    if (next === undefined) throw E.indexAccess(debugIndex(index), debug(type), open, close + 1);
    p.token('index', open, close + 1);
    type = next;
    if (index.kind === 'each') mapEach++;
    indexes.push(index);
    rest = close + 1;
  }
  return [{ kind: 'index', base, indexes, type, mapEach }, rest];
}
