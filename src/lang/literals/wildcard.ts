// `wildcard` / `strict wildcard` patterns: the whole value must match; `*` matches any run of
// bytes, `\` escapes `*` and `\`, `?` is literal; `**` is rejected. Parsed once into literal
// segments between stars, so matching needs no backtracking engine.
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { lexQuotedOrRaw } from './bytes.js';

/** Literal byte runs between stars; a star sits between each pair of segments. */
export interface WildcardPattern {
  readonly segments: readonly Uint8Array[];
}

/** Parses pattern bytes; returns the pattern or the engine's ParseWildcard text. */
export function parseWildcard(bytes: Uint8Array): WildcardPattern | string {
  const segments: Uint8Array[] = [];
  let current: number[] = [];
  let lastWasStar = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x2a) {
      if (lastWasStar) return 'wildcard contains a double star';
      segments.push(Uint8Array.from(current));
      current = [];
      lastWasStar = true;
      continue;
    }
    lastWasStar = false;
    if (b === 0x5c) {
      const next = bytes[i + 1];
      if (next === undefined) return `invalid wildcard: wildcard syntax error at position ${i}: unclosed escape sequence`;
      if (next !== 0x2a && next !== 0x5c) return `invalid wildcard: wildcard syntax error at position ${i}: invalid escape sequence`;
      current.push(next);
      i++;
      continue;
    }
    current.push(b);
  }
  segments.push(Uint8Array.from(current));
  return { segments };
}

/** Lexes a wildcard pattern at pos; returns [pattern bytes, parsed pattern, position after]. */
export function lexWildcard(s: Source, pos: number): [Uint8Array, WildcardPattern, number] {
  const [bytes, rest] = lexQuotedOrRaw(s, pos);
  const parsed = parseWildcard(bytes);
  if (typeof parsed === 'string') throw E.wildcard(parsed, pos, s.end);
  return [bytes, parsed, rest];
}
