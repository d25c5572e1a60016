// An expression where a document holds it: a JSON string, a YAML scalar, a line of a `.rules` file, an
// HCL string. The engine reads the host string's value (escapes decoded, YAML folding applied); an
// editor points into the document's text. `at` maps each UTF-16 index of the value to the document
// offset it was written at, so the engine's ranges (UTF-8 bytes of the value) land exactly on the
// characters that hold them, escapes included. Where a value cannot be mapped character by
// character (a YAML scalar the mapping does not rebuild exactly), every index maps to the whole host
// string and `inexact` says why: a range then covers the string, never a wrong character.
import type { ExpressionKind } from '../../lang/index.js';
import type { JsonPath } from '../../config/schema.js';

export interface HostedExpression {
  /** the expression as the engine reads it */
  readonly value: string;
  readonly kind: ExpressionKind;
  /** the host string in the document (quotes, block header and all) */
  readonly start: number;
  readonly end: number;
  /** the document offset where the value's UTF-16 index i (0..value.length) is written */
  at(i: number): number;
  /** null when positions are exact; else why they cover the whole string */
  readonly inexact: string | null;
  /** null when the engine can check the value; else why not (a Terraform interpolation) */
  readonly uncheckable: string | null;
  /** the keys and indexes from the document's root to the object (rule or filter) holding it */
  readonly owner: JsonPath;
  /** text of the value as the host writes it inside this string (JSON escapes, YAML quotes), or null where it cannot be written in place */
  encode(text: string): string | null;
}

/** A hosted expression from the offsets of each of its value's UTF-16 units (and one past the end). */
export function hosted(fields: Omit<HostedExpression, 'at' | 'inexact' | 'encode'> & { encode?: HostedExpression['encode'] }, offsets: readonly number[] | null, inexact: string | null = null): HostedExpression {
  const encode = fields.encode ?? ((text: string) => text);
  if (offsets === null || offsets.length !== fields.value.length + 1) {
    const whole = inexact ?? 'the positions inside this string are not mapped';
    return { ...fields, encode, inexact: whole, at: (i) => (i >= fields.value.length ? fields.end : fields.start) };
  }
  const table = Int32Array.from(offsets);
  return { ...fields, encode, inexact: null, at: (i) => table[Math.max(0, Math.min(i, table.length - 1))]! };
}

/** The UTF-16 index in `text` of UTF-8 byte offset `byte` (the engine's spans are bytes). */
export function utf16Index(text: string, byte: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= byte) return i;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // a surrogate pair: one code point of 4 bytes (a lone surrogate is written as U+FFFD, 3 bytes)
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return text.length;
}

/** The UTF-8 byte offset of UTF-16 index `index` in `text`. */
export function byteIndex(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index), 'utf8');
}

/** The kind of expression at a document path: ATP filters are read with the filter scheme. */
export function kindAt(path: JsonPath): ExpressionKind {
  return path.includes('filters') ? 'filter' : 'rule';
}
