// Bytes literals (reference/wirefilter.md §1.4), chosen by the first character:
// - `"…"`: any character but `"` and `\` is taken literally (raw newlines too); escapes are `\"`,
//   `\\`, `\xHH` and `\OOO` (exactly two hex / three octal characters, counted in characters);
// - `r"…"`, `r#"…"#` (up to 255 `#`): no escapes, closes at the first `"` followed by as many `#`;
// - anything else: a hex byte string, two hex digits per byte joined by `:`, `-` or `.`; the
//   first separator is required (so at least two bytes), later ones end the literal when absent.
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { parseRadix, U8 } from './parse-int.js';

const encoder = new TextEncoder();

/** Takes exactly `count` characters at pos; "expected N characters, but found M" otherwise. */
function take(s: Source, pos: number, count: number): number {
  const [end, taken] = s.takeChars(pos, count);
  if (taken < count) throw E.count(count, taken, pos, s.end);
  return end;
}

function fixedByte(s: Source, pos: number, count: number, radix: number): [number, number] {
  const end = take(s, pos, count);
  const v = parseRadix(s.slice(pos, end), radix, U8);
  if (typeof v === 'string') throw E.parseInt(v, radix, pos, end);
  return [Number(v), end];
}

function separator(s: Source, pos: number): number {
  const end = take(s, pos, 1);
  const c = s.at(pos);
  if (end !== pos + 1 || (c !== 0x3a && c !== 0x2d && c !== 0x2e)) throw E.expected('byte separator', pos, end);
  return end;
}

function lexHexBytes(s: Source, pos: number): [Uint8Array, number] {
  const out: number[] = [];
  let [b, p] = fixedByte(s, pos, 2, 16);
  out.push(b);
  p = separator(s, p);
  for (;;) {
    [b, p] = fixedByte(s, p, 2, 16);
    out.push(b);
    try {
      p = separator(s, p);
    } catch {
      return [Uint8Array.from(out), p];
    }
  }
}

/** The content of a quoted string after its opening quote; returns [bytes, position after the closing quote]. */
export function lexQuotedString(s: Source, pos: number): [Uint8Array, number] {
  const out: number[] = [];
  let p = pos;
  for (;;) {
    const c = s.at(p);
    if (c < 0) throw E.missingQuote(pos, s.end);
    if (c === 0x22) return [Uint8Array.from(out), p + 1];
    if (c !== 0x5c) {
      const e = s.charEnd(p);
      for (let i = p; i < e; i++) out.push(s.bytes[i]);
      p = e;
      continue;
    }
    const escaped = p + 1;
    const e = s.at(escaped);
    if (e < 0) throw E.missingQuote(pos, s.end);
    if (e === 0x22 || e === 0x5c) {
      out.push(e);
      p = escaped + 1;
    } else if (e === 0x78) {
      const [b, next] = fixedByte(s, escaped + 1, 2, 16);
      out.push(b);
      p = next;
    } else if (e >= 0x30 && e <= 0x37) {
      const [b, next] = fixedByte(s, escaped, 3, 8);
      out.push(b);
      p = next;
    } else {
      throw E.escape(escaped, s.charEnd(escaped));
    }
  }
}

/**
 * A raw string after its `r`; returns [content start, content end, hash count, position after].
 * Errors as the engine: too many `#` (span: from after the `r`), no `"` after the hashes (span:
 * from the first non-`#`), no closing sequence (span: from after the `r`).
 */
export function lexRawString(s: Source, pos: number): [number, number, number, number] {
  let p = pos;
  while (s.at(p) === 0x23) p++;
  const hashes = p - pos;
  if (hashes > 255) throw E.hashCount(pos, s.end);
  if (s.at(p) !== 0x22) throw E.expected('" or #', p, s.end);
  const contentStart = p + 1;
  for (let q = contentStart; q < s.end; q++) {
    if (s.bytes[q] !== 0x22) continue;
    let h = 0;
    while (h < hashes && s.at(q + 1 + h) === 0x23) h++;
    if (h === hashes) return [contentStart, q, hashes, q + 1 + hashes];
  }
  throw E.missingQuote(pos, s.end);
}

/** A quoted or raw string (the only forms `matches` and `wildcard` accept). */
export function lexQuotedOrRaw(s: Source, pos: number): [Uint8Array, number] {
  const c = s.at(pos);
  if (c === 0x22) return lexQuotedString(s, pos + 1);
  if (c === 0x72) {
    const [start, end, , rest] = lexRawString(s, pos + 1);
    return [s.bytes.slice(start, end), rest];
  }
  if (c < 0) throw E.eof(pos, s.end);
  throw E.expected('" or r', pos, s.end);
}

/** Any Bytes literal. At the end of input the engine reports "unrecognised input". */
export function lexBytes(s: Source, pos: number): [Uint8Array, number] {
  const c = s.at(pos);
  if (c === 0x22 || c === 0x72) return lexQuotedOrRaw(s, pos);
  if (c < 0) throw E.eof(pos, s.end);
  return lexHexBytes(s, pos);
}

/** UTF-8 bytes of a JS string (for literals built in code). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
