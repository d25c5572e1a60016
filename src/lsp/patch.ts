// Typing inside an expression changes nothing else of the document: the new version is the previous
// one with that expression read again and every place after it moved by the length typed. Reading a
// large document again (a 1,000-rule file, a snapshot holding a 10,000-entry list) costs far more
// than the keystroke, so a change inside one expression's JSON string or one `.rules` line is
// applied this way; anything else (a new rule, a quote typed, a YAML document) is read afresh. Moved
// places stack one layer per keystroke: past MAX_LAYERS the document is read afresh too.
import type { JsonPath } from '../config/schema.js';
import { isExpressionLine } from './check/documents.js';
import type { DocumentModel, RuleSite } from './document.js';
import { hosted, type HostedExpression } from './hosts/hosted.js';
import { jsonStringOffsets } from './hosts/json.js';

const MAX_LAYERS = 64;

/** Where two texts differ: their common start, and where the differing parts end in each. */
export function difference(before: string, after: string): { start: number; beforeEnd: number; afterEnd: number } {
  let start = 0;
  const common = Math.min(before.length, after.length);
  while (start < common && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < common - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { start, beforeEnd: before.length - end, afterEnd: after.length - end };
}

const layers = new WeakMap<DocumentModel, number>();

/** A JSON string token with no quote or line break left unescaped. */
const JSON_STRING = /^"(?:[^"\\\n\r]|\\.)*"$/;

function reread(e: HostedExpression, text: string, start: number, end: number): HostedExpression | undefined {
  const token = text.slice(start, end);
  if (e.kind === 'rule' && e.owner.length === 1 && typeof e.owner[0] === 'number') {
    // a .rules line
    if (token.includes('\n') || !isExpressionLine(token)) return undefined;
    return hosted({ value: token, kind: e.kind, start, end, uncheckable: null, owner: e.owner }, Array.from({ length: token.length + 1 }, (_, i) => start + i));
  }
  if (!JSON_STRING.test(token)) return undefined;
  let value: string;
  try {
    value = JSON.parse(token) as string;
  } catch {
    return undefined;
  }
  return hosted({ value, kind: e.kind, start, end, uncheckable: null, owner: e.owner, encode: e.encode }, jsonStringOffsets(text, start, end));
}

function moved(e: HostedExpression, delta: number): HostedExpression {
  return { ...e, start: e.start + delta, end: e.end + delta, at: (i) => e.at(i) + delta };
}

/** The next version of a document read from the previous one, when the change lies inside one expression; else undefined. */
export function patchDocument(old: DocumentModel, text: string, version: number): DocumentModel | undefined {
  if ((old.kind !== 'rules' && !['snapshot', 'vendor', 'terraform', 'json'].includes(old.kind)) || (layers.get(old) ?? 0) >= MAX_LAYERS) return undefined;
  const d = difference(old.text, text);
  const delta = d.afterEnd - d.beforeEnd;
  const inside = (e: HostedExpression) => (old.kind === 'rules' ? e.start <= d.start && d.beforeEnd <= e.end : e.start < d.start && d.beforeEnd < e.end);
  const target = old.expressions.find(inside);
  if (target === undefined || target.inexact !== null) return undefined;
  const changed = reread(target, text, target.start, target.end + delta);
  if (changed === undefined) return undefined;
  // an end at the change's end belongs to what holds the change (it grows); a start there too, unless the change is inserted before it
  const after = (offset: number) => offset >= d.beforeEnd;
  const startAfter = (offset: number) => offset >= d.beforeEnd && offset > d.start;
  const expressions = old.expressions.map((e) => (e === target ? changed : e.start >= target.end ? moved(e, delta) : e));
  const replaced = new Map(old.expressions.map((e, i) => [e, expressions[i]!]));
  const rules = old.rules.map((r): RuleSite => ({ ...r, start: startAfter(r.start) ? r.start + delta : r.start, end: after(r.end) ? r.end + delta : r.end, expression: replaced.get(r.expression) ?? r.expression }));
  const shift = <T extends { start: number; end: number }>(x: T): T => ({ ...x, start: startAfter(x.start) ? x.start + delta : x.start, end: after(x.end) ? x.end + delta : x.end });
  const model: DocumentModel = {
    ...old,
    version,
    text,
    expressions,
    rules,
    lists: old.lists.map((l) => ({ ...shift(l), nameStart: startAfter(l.nameStart) ? l.nameStart + delta : l.nameStart, nameEnd: after(l.nameEnd) ? l.nameEnd + delta : l.nameEnd })),
    problems: old.problems.map(shift),
    capture: old.capture === null ? null : shift(old.capture),
    range: (path: JsonPath) => {
      const r = old.range(path);
      return r === undefined ? undefined : [startAfter(r[0]) ? r[0] + delta : r[0], after(r[1]) ? r[1] + delta : r[1]];
    },
  };
  layers.set(model, (layers.get(old) ?? 0) + 1);
  return model;
}
