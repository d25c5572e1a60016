// Quick fixes and rewrites of the hints edgesim gives: the hint's own changes (quote a protocol
// keyword, move a network into `in {…}`, a field name for a misspelt one), merging `f == a or f == b`
// into `f in {a b}`, and removing a rule lint proved unreachable or unmatchable. Each is an edit of
// the document's text, written as the host writes it.
import { modify } from 'jsonc-parser';
import type { ComparisonExpr, Expr } from '../../lang/index.js';
import { parse } from '../../lang/index.js';
import type { JsonPath } from '../../config/schema.js';
import type { FixEdit, Problem } from '../check/problems.js';
import type { DocumentModel } from '../document.js';
import { utf16Index, type HostedExpression } from '../hosts/hosted.js';
import { schemeOf } from '../language/vocabulary.js';

export interface Action {
  title: string;
  kind: 'quickfix' | 'refactor.rewrite';
  edits: FixEdit[];
  /** the problem it fixes */
  fixes?: Problem;
}

/** A run of `field == value` comparisons joined by `or` (at least two), with their value texts, as byte offsets into the value. */
interface EqualityRun {
  field: string;
  start: number;
  end: number;
  values: string[];
}

function equalityOf(e: Expr, source: Buffer): { field: string; value: string; start: number; end: number } | null {
  if (e.kind !== 'comparison') return null;
  const c = e as ComparisonExpr;
  if (c.op.kind !== 'ordering' || c.op.op !== 'eq' || c.lhs.indexes.length > 0 || c.lhs.base.kind !== 'field') return null;
  const text = source.subarray(c.span.start, c.span.end).toString('utf8');
  const m = /^(\S+)\s*(?:==|eq)\s*([\s\S]+)$/.exec(text);
  if (m === null || m[1] !== c.lhs.base.name) return null;
  return { field: m[1], value: m[2]!.trim(), start: c.span.start, end: c.span.end };
}

/** Every run of two or more equalities on one field inside an `or` of the expression. */
function equalityRuns(value: string, kind: HostedExpression['kind']): EqualityRun[] {
  let root: Expr;
  try {
    root = parse(value, schemeOf(kind)).expr;
  } catch {
    return [];
  }
  const source = Buffer.from(value, 'utf8');
  const runs: EqualityRun[] = [];
  const walk = (e: Expr): void => {
    if (e.kind === 'combining') {
      if (e.op === 'or') {
        // consecutive equalities on one field, split where another item or another field comes
        let run: EqualityRun | null = null;
        for (const item of [...e.items, null]) {
          const eq = item === null ? null : equalityOf(item, source);
          if (eq !== null && run !== null && run.field === eq.field) {
            run.values.push(eq.value);
            run.end = eq.end;
            continue;
          }
          if (run !== null && run.values.length > 1) runs.push(run);
          run = eq === null ? null : { field: eq.field, start: eq.start, end: eq.end, values: [eq.value] };
          if (eq === null && item !== null) walk(item);
        }
      } else for (const item of e.items) walk(item);
    } else if (e.kind === 'not' || e.kind === 'quantifier') walk(e.arg);
    else if (e.kind === 'group') walk(e.expr);
  };
  walk(root);
  return runs;
}

/** The edits that remove the object at `path` (a rule) from the document. */
export function removalEdits(model: DocumentModel, path: JsonPath): FixEdit[] {
  const title = 'Remove the rule';
  if (model.kind === 'rules') {
    const range = model.range(path);
    if (range === undefined) return [];
    const end = model.text[range[1]] === '\r' ? range[1] + 2 : range[1] + 1;
    return [{ title, start: range[0], end: Math.min(end, model.text.length), text: '' }];
  }
  if (model.text.trimStart().startsWith('{') || model.text.trimStart().startsWith('[')) {
    return modify(model.text, [...path], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } }).map((e) => ({ title, start: e.offset, end: e.offset + e.length, text: e.content }));
  }
  const range = model.range(path);
  if (range === undefined) return [];
  // a YAML sequence item: from the start of its `- ` line to the end of its last line
  const lineStart = model.text.lastIndexOf('\n', range[0] - 1) + 1;
  if (!/^\s*-\s*$/.test(model.text.slice(lineStart, range[0]))) return [];
  let end = range[1];
  if (end > 0 && model.text[end - 1] !== '\n') {
    const nl = model.text.indexOf('\n', end);
    end = nl < 0 ? model.text.length : nl + 1;
  }
  return [{ title, start: lineStart, end, text: '' }];
}

/** The actions for a range of the document, given the problems found there. */
export function actionsAt(model: DocumentModel, start: number, end: number, problems: readonly Problem[]): Action[] {
  const actions: Action[] = [];
  for (const p of problems) {
    if (p.end < start || p.start > end) continue;
    for (const fix of p.fixes ?? []) actions.push({ title: fix.title, kind: 'quickfix', edits: [fix], fixes: p });
    if (p.removal !== undefined) {
      const edits = removalEdits(model, p.removal.path);
      if (edits.length > 0) actions.push({ title: p.removal.title, kind: 'quickfix', edits, fixes: p });
    }
  }
  for (const e of model.expressions) {
    if (e.inexact !== null || e.uncheckable !== null || e.at(e.value.length) < start || e.at(0) > end) continue;
    for (const run of equalityRuns(e.value, e.kind)) {
      const written = e.encode(`${run.field} in {${run.values.join(' ')}}`);
      if (written === null) continue;
      const from = e.at(utf16Index(e.value, run.start));
      const to = e.at(utf16Index(e.value, run.end));
      actions.push({ title: `Merge into ${run.field} in {${run.values.join(' ')}}`, kind: 'refactor.rewrite', edits: [{ title: 'merge', start: from, end: to, text: written }] });
    }
  }
  return actions;
}
