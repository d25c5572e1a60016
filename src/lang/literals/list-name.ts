// `$name` list references: `[a-z0-9_.]+`, lowercase only, not starting or ending with `.`. Errors
// name the first bad character (or the whole name for a bad `.`), spanning the rest after `$`.
import { E } from '../errors.js';
import type { Source } from '../source.js';

function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e;
}

/** Lexes `$name` at pos (which holds the `$`); returns [name, position after]. */
export function lexListName(s: Source, pos: number): [string, number] {
  const start = pos + 1;
  let p = start;
  while (isNameChar(s.at(p))) p++;
  if (p === start) throw E.listName(start < s.end ? s.slice(start, s.charEnd(start)) : '', start, s.end);
  const name = s.slice(start, p);
  if (name.startsWith('.') || name.endsWith('.')) throw E.listName(name, start, s.end);
  return [name, p];
}
