// `matches` / `~` patterns: lexing, and the check that the pattern compiles (src/lang/regex/ holds
// the reference engine's regex syntax and a linear-time matcher over bytes).
//
// Lexing (reference/wirefilter.md §1.6): a quoted pattern keeps every `\x` pair for the regex
// engine except `\"` outside a character class, which becomes `"`; a `"` inside `[…]` does not
// end it. A raw string is taken as is. The pattern is kept as latin1 text, one char per byte of
// its UTF-8 source. Error spans: the text between the quotes, or — a kept quirk — the input after
// a raw string.
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { compileRegex } from '../regex/compile.js';
import { lexRawString } from './bytes.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Lexes a `matches` pattern at pos; returns [pattern text (latin1, one char per byte), position after]. */
export function lexRegex(s: Source, pos: number): [string, number] {
  const c = s.at(pos);
  if (c === 0x72) {
    const [start, end, , rest] = lexRawString(s, pos + 1);
    const pattern = latin1(s.bytes.subarray(start, end));
    checkRegex(pattern, rest, s.end);
    return [pattern, rest];
  }
  if (c < 0) throw E.eof(pos, s.end);
  if (c !== 0x22) throw E.expected('" or r', pos, s.end);
  const out: number[] = [];
  let inClass = false;
  const contentStart = pos + 1;
  let p = contentStart;
  for (;;) {
    const b = s.at(p);
    if (b < 0) throw E.missingQuote(contentStart, s.end);
    if (b === 0x5c) {
      const next = s.at(p + 1);
      if (next >= 0) {
        if (inClass || next !== 0x22) out.push(0x5c);
        const e = s.charEnd(p + 1);
        for (let i = p + 1; i < e; i++) out.push(s.bytes[i]);
        p = e;
      } else {
        p++;
      }
      continue;
    }
    if (b === 0x22 && !inClass) break;
    if (b === 0x5b && !inClass) inClass = true;
    else if (b === 0x5d && inClass) inClass = false;
    out.push(b);
    p++;
  }
  const pattern = latin1(Uint8Array.from(out));
  checkRegex(pattern, contentStart, p);
  return [pattern, p + 1];
}

function checkRegex(pattern: string, start: number, end: number): void {
  const problem = compileRegex(pattern);
  if (typeof problem === 'string') throw E.regex(problem, start, end);
}
