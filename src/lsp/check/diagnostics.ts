// A document's problems, put together: the text's syntax, the engine's verdict on each expression,
// and lint's findings and the schema's problems of the whole configuration, each placed on the
// object it is about (a finding on its rule's expression, with the rules that cover it as related
// places and, for a dead rule, its removal as a quick fix). Lint runs apart and later than the rest:
// until it has answered for this version of the text, the findings of an earlier version are kept
// where their rule is still written the same way, so a rule's warning does not blink while another
// rule is typed.
import type { JsonPath } from '../../config/schema.js';
import type { DocumentModel, RuleSite } from '../document.js';
import type { LintOutcome, PlacedFinding } from './configuration.js';
import { expressionProblems } from './expressions.js';
import type { Problem, ProblemSeverity } from './problems.js';

/** Lint's outcome for one version of a document, with each rule's expression then. */
export interface Linted {
  version: number;
  outcome: LintOutcome;
  /** the expression of each rule at lint time, by path */
  expressions: Map<string, string>;
}

const key = (p: JsonPath): string => JSON.stringify(p);

export function linted(model: DocumentModel, outcome: LintOutcome): Linted {
  return { version: model.version, outcome, expressions: new Map(model.rules.map((r) => [key(r.path), r.expression.value])) };
}

const SEVERITY: Readonly<Record<string, ProblemSeverity>> = { error: 'error', warning: 'warning', note: 'information' };

/** The range of the object at a path, or of its nearest ancestor the document has. */
function nearest(model: DocumentModel, path: JsonPath): [number, number] {
  for (let n = path.length; n >= 0; n--) {
    const r = model.range(path.slice(0, n));
    if (r !== undefined) return r;
  }
  return [0, 0];
}

/** The first line of a range (a whole rule object is too much to underline). */
function firstLine(model: DocumentModel, [start, end]: [number, number]): [number, number] {
  const nl = model.text.indexOf('\n', start);
  return [start, nl < 0 || nl > end ? end : nl];
}

function findingProblem(model: DocumentModel, f: PlacedFinding, site: RuleSite | undefined, sites: ReadonlyMap<string, RuleSite>): Problem | null {
  let range: [number, number];
  if (site !== undefined) range = [site.expression.start, site.expression.end];
  else if (f.subject !== null) range = firstLine(model, nearest(model, f.subject));
  else return null;
  const related = f.blockers.flatMap((p) => {
    const b = sites.get(key(p));
    return b === undefined ? [] : [{ start: b.expression.start, end: b.expression.end, message: `${b.name} decides its packets first` }];
  });
  const dead = (f.kind === 'unreachable' || f.kind === 'unmatchable') && f.subject !== null;
  const removal = dead ? { removal: { path: f.subject!, title: `Remove ${f.rule ?? 'the rule'} (${f.kind})` } } : {};
  return { start: range[0], end: range[1], severity: SEVERITY[f.severity] ?? 'information', code: f.kind, message: f.message, ...(related.length > 0 ? { related } : {}), ...removal };
}

/** Where lint's line (`invalid JSON at line 3, column 5: …`) points, else the document's start. */
function failureProblem(model: DocumentModel, message: string): Problem {
  const at = /at line (\d+), column (\d+)/.exec(message);
  let start = 0;
  if (at !== null) {
    const lines = model.text.split('\n');
    for (let i = 0; i < Number(at[1]) - 1 && i < lines.length; i++) start += lines[i]!.length + 1;
    start += Number(at[2]) - 1;
  }
  return { start, end: Math.min(start + 1, model.text.length), severity: 'error', code: 'configuration', message };
}

/** The problems lint's outcome places on the document as it is now (its findings kept where their rule is unchanged). */
function lintProblems(model: DocumentModel, lint: Linted): Problem[] {
  const current = lint.version === model.version;
  const sites = new Map(model.rules.map((r) => [key(r.path), r]));
  /** a rule as lint saw it: its site now, if it is still written the same way */
  const siteOf = (path: JsonPath | null): RuleSite | undefined | null => {
    if (path === null) return undefined;
    const site = sites.get(key(path));
    if (current) return site;
    const then = lint.expressions.get(key(path));
    return site !== undefined && then === site.expression.value ? site : null;
  };
  const out: Problem[] = [];
  const { outcome } = lint;
  if (current && outcome.failure !== null) out.push(failureProblem(model, outcome.failure));
  if (current) for (const issue of outcome.issues) out.push({ ...spanOf(firstLine(model, nearest(model, issue.path))), severity: 'error', code: 'schema', message: issue.message });
  for (const f of outcome.findings) {
    const site = siteOf(f.subject);
    if (site === null || (!current && site === undefined)) continue;
    const p = findingProblem(model, f, site, sites);
    if (p !== null) out.push(p);
  }
  if (current) for (const note of outcome.notes) out.push({ start: 0, end: 0, severity: 'information', code: 'note', message: note });
  return out;
}

const spanOf = ([start, end]: [number, number]) => ({ start, end });

/**
 * Every problem of a document: syntax, expressions, and lint's (current or kept from an earlier
 * version). A configuration's syntax errors are lint's to report, in lint's words (its reader reads
 * the text strictly, where the editor's parser goes on past them); other JSON and YAML files' only
 * when they hold expressions (the editor's own JSON and YAML support reports the rest).
 */
export function documentProblems(model: DocumentModel, lint: Linted | undefined, configuration: boolean): Problem[] {
  // a JSON or YAML file that is no configuration and holds no expression is not this server's to judge
  const syntax = configuration || model.expressions.length === 0 ? [] : model.problems;
  const out: Problem[] = syntax.map((p) => ({ ...p, severity: 'error' as const, code: 'syntax' }));
  for (const e of model.expressions) out.push(...expressionProblems(e));
  if (lint !== undefined) out.push(...lintProblems(model, lint));
  return out;
}
