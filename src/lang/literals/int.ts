// Int literals (reference/wirefilter.md §1.4): `0x` hex, a leading `0` means octal, otherwise an
// optional `-` and decimal. The lexer first takes the whole run of hex-digit characters and only
// then parses it, so `80and` fails as "invalid digit … radix 10" on `80a` (a kept quirk).
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { I64, parseRadix } from './parse-int.js';

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** The run of hex-digit characters at pos; "expected digit" (span: the rest) if empty. */
function digitRun(s: Source, pos: number): number {
  let p = pos;
  while (isHexDigit(s.at(p))) p++;
  if (p === pos) throw E.expected('digit', pos, s.end);
  return p;
}

function parseSpan(s: Source, start: number, end: number, radix: number): bigint {
  const v = parseRadix(s.slice(start, end), radix, I64);
  if (typeof v === 'string') throw E.parseInt(v, radix, start, end);
  return v;
}

/** Lexes an i64 literal at pos; returns [value, position after it]. */
export function lexInt(s: Source, pos: number): [bigint, number] {
  if (s.startsWith(pos, '0x')) {
    const end = digitRun(s, pos + 2);
    return [parseSpan(s, pos + 2, end, 16), end];
  }
  if (s.at(pos) === 0x30) {
    const end = digitRun(s, pos);
    return [parseSpan(s, pos, end, 8), end];
  }
  const digits = s.at(pos) === 0x2d ? pos + 1 : pos;
  const end = digitRun(s, digits);
  return [parseSpan(s, pos, end, 10), end];
}

/** An Int set item: `n` or `a..b` (inclusive, no spaces around `..`, a <= b). */
export function lexIntRange(s: Source, pos: number): [bigint, bigint, number] {
  const [lo, afterLo] = lexInt(s, pos);
  if (!s.startsWith(afterLo, '..')) return [lo, lo, afterLo];
  const [hi, end] = lexInt(s, afterLo + 2);
  if (hi < lo) throw E.rangeBounds(pos, end);
  return [lo, hi, end];
}
