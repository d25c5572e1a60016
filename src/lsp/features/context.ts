// Where a position is inside an expression, for completion and hover: the expression that holds it
// and the index in its value, the word under it (a field, a function, a list name, a literal), and
// what the text before it asks for next (a field, an operator, a value of a field, a list name).
// Read from the text before the position, so it works on the half-typed expressions completion is
// asked for, which the parser refuses.
import type { DocumentModel } from '../document.js';
import type { HostedExpression } from '../hosts/hosted.js';

/** The expression holding a document offset (between its first and last character, both ends included), and the index in its value. */
export function expressionAt(model: DocumentModel, offset: number): { e: HostedExpression; index: number } | undefined {
  for (const e of model.expressions) {
    if (e.inexact !== null || offset < e.at(0) || offset > e.at(e.value.length)) continue;
    let index = 0;
    while (index < e.value.length && e.at(index) < offset) index++;
    return { e, index };
  }
  return undefined;
}

/** What the text before the cursor asks for. */
export type Want =
  | { kind: 'list'; from: number }
  | { kind: 'value'; field: string; from: number }
  | { kind: 'operator'; field: string; from: number }
  | { kind: 'logical'; from: number }
  | { kind: 'start'; from: number };

const OPERATOR = /(==|eq|!=|ne|<=|le|>=|ge|<|lt|>|gt|\bin|contains|~|matches|strict wildcard|wildcard|&|bitwise_and)\s*$/;

/** What may be written at index `index` of `value`; `from` is where the word being typed starts. */
export function wantAt(value: string, index: number): Want {
  const before = value.slice(0, index);
  const list = /\$[A-Za-z0-9_.]*$/.exec(before);
  if (list !== null) return { kind: 'list', from: list.index + 1 };
  const word = /["A-Za-z0-9_.:/-]*$/.exec(before)!;
  const from = word.index;
  const rest = before.slice(0, from);
  // inside a set: `field in {a b ` — the values of the field
  const set = /([A-Za-z_][A-Za-z0-9_.]*)\s+in\s*\{[^{}]*$/.exec(rest);
  if (set !== null) return { kind: 'value', field: set[1]!, from };
  const op = OPERATOR.exec(rest);
  if (op !== null) {
    const field = /([A-Za-z_][A-Za-z0-9_.]*)\s*$/.exec(rest.slice(0, op.index))?.[1];
    return { kind: 'value', field: field ?? '', from };
  }
  const trimmed = rest.trimEnd();
  if (trimmed === '' || /(\(|\band|\bor|\bxor|\bnot|&&|\|\||\^\^|!)$/.test(trimmed)) return { kind: 'start', from };
  // a field just written asks for an operator; a value (a number, a word) or a bare boolean field is complete
  const field = rest !== trimmed ? /(?:^|[\s(!])([A-Za-z_][A-Za-z0-9_.]*)$/.exec(trimmed)?.[1] : undefined;
  return field === undefined ? { kind: 'logical', from } : { kind: 'operator', field, from };
}

/** The word (field, function, list name or literal) around index `index` of `value`, with its bounds. */
export function wordAt(value: string, index: number): { text: string; start: number; end: number } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_.$"-]/.test(c);
  let start = index;
  while (start > 0 && isWord(value[start - 1])) start--;
  let end = index;
  while (end < value.length && isWord(value[end])) end++;
  if (start === end) return undefined;
  return { text: value.slice(start, end), start, end };
}
