// The engine's verdict on each expression of a document, at the characters it names: the message is
// the engine's, byte for byte as `edgesim validate` prints it (without its last line break), and the
// hint `validate` prints below it is a second, lesser problem at the same place, with the changes it
// proposes kept for the editor's quick fixes. Results are kept per expression text, so typing in one
// rule of a thousand re-checks one expression.
import { FILTER_SCHEME, FIREWALL_SCHEME, FilterError, hintOf, validateExpression, type ExpressionKind, type HintFix } from '../../lang/index.js';
import { utf16Index, type HostedExpression } from '../hosts/hosted.js';
import type { FixEdit, Problem } from './problems.js';

interface Verdict {
  error: FilterError | null;
  hint: { text: string; fixes: readonly HintFix[] } | null;
}

const verdicts = new Map<string, Verdict>();
const MAX_KEPT = 50_000;

/** The engine's verdict on an expression of a kind (remembered). */
export function verdictOf(value: string, kind: ExpressionKind): Verdict {
  const key = `${kind}\u0000${value}`;
  let v = verdicts.get(key);
  if (v === undefined) {
    const error = validateExpression(value, kind);
    v = { error, hint: error === null ? null : hintOf(value, error, kind === 'filter' ? FILTER_SCHEME : FIREWALL_SCHEME) };
    if (verdicts.size >= MAX_KEPT) verdicts.clear();
    verdicts.set(key, v);
  }
  return v;
}

/** The document range of bytes [start, end) of a hosted expression's value (at least one character where the host has one). */
export function byteRange(e: HostedExpression, start: number, end: number): [number, number] {
  const from = utf16Index(e.value, start);
  const to = Math.max(utf16Index(e.value, end), Math.min(from + 1, e.value.length));
  if (e.inexact !== null) return [e.start, e.end];
  return [e.at(from), Math.max(e.at(to), e.at(from) + (from < e.value.length ? 1 : 0))];
}

/** The problems of one expression: the engine's error and its hint, or why it is not checked or not exactly placed. */
export function expressionProblems(e: HostedExpression): Problem[] {
  if (e.uncheckable !== null) return [{ start: e.start, end: e.end, severity: 'information', code: 'not_checked', message: e.uncheckable }];
  const out: Problem[] = [];
  if (e.inexact !== null) out.push({ start: e.start, end: e.end, severity: 'information', code: 'positions', message: e.inexact });
  const { error, hint } = verdictOf(e.value, e.kind);
  if (error === null) return out;
  const [start, end] = byteRange(e, error.start, error.end);
  out.push({ start, end, severity: 'error', code: error.code, message: error.message.replace(/\n$/, '') });
  if (hint !== null) out.push({ start, end, severity: 'hint', code: 'hint', message: hint.text, fixes: e.inexact === null ? hint.fixes.flatMap((f) => fixEdit(e, f)) : [] });
  return out;
}

/** A hint's change of the value as an edit of the document, written as the host writes it (none where it cannot be). */
function fixEdit(e: HostedExpression, f: HintFix): FixEdit[] {
  const text = e.encode(f.text);
  if (text === null) return [];
  return [{ title: f.title, start: e.at(utf16Index(e.value, f.start)), end: e.at(utf16Index(e.value, f.end)), text }];
}
