// The whole-configuration checks of an editor's text, as `edgesim lint` makes them of a file: the
// same reader, the same deploy-time checks, the same schema and the same analysis (lintFindings), so
// the findings are lint's, word for word. What differs is what an editor needs: a rule whose
// expression the engine refuses is left out of the analysis (the engine's message is shown at the
// expression, by check/expressions.ts) instead of stopping it, so the rest of the file keeps its
// findings while one rule is being typed; and every finding and problem says which object of the
// document it is about (a path in the document's own terms), for the editor to put it there.
// Runs in the analysis worker (lsp-worker.ts), off the thread that answers the editor.
import { COMPONENT_NAMES } from '../../protection-components.js';
import { pinFirewall, type ModelOptions, type PinnedRule, type Pinning, type Severity } from '../../analysis/index.js';
import type { DeployCheckResult } from '../../config/deploy-checks.js';
import type { ConfigurationDocument } from '../../config/inputs/document.js';
import { readerFor, type ConfigFormat } from '../../config/inputs/index.js';
import type { SourceLocation } from '../../config/location.js';
import type { JsonPath } from '../../config/schema.js';
import type { Snapshot } from '../../config/snapshot.js';
import { SnapshotError, validateSnapshot } from '../../config/validate.js';
import { createListRegistry } from '../../data/lists.js';
import { UserError } from '../../errors.js';
import { ruleRef, rulesetName } from '../../firewall/firewall.js';
import { validateExpression, type ExpressionKind } from '../../lang/index.js';
import type { Witness } from '../../analysis/witness.js';
import { collectDeployChecks, lintFindings } from '../../review/lint-findings.js';
import { rulesFileDocument, suiteConfigurationDocument, terraformPaths } from './documents.js';

/** What a document is, for the checks of its whole configuration. */
export type ConfigurationKind = ConfigFormat | 'suite' | 'rules';

export interface ConfigurationText {
  text: string;
  /** the document's path, as findings name it */
  file: string;
  kind: ConfigurationKind;
  /** the scheme of a `.rules` file's lines */
  scheme?: ExpressionKind;
}

export interface LintSettings {
  /** rules per ruleset the account may hold (lint --max-rules) */
  maxRules: number;
  /** managed-list feeds replacing the bundled samples (lint --lists) */
  lists?: string;
  /** the analysis's work limit per rule */
  workLimit?: number;
}

/** A problem the schema finds (the API would refuse the configuration), at a path of the document. */
export interface PlacedIssue {
  path: JsonPath;
  message: string;
}

/** A finding of lint, with the path in the document of what it is about and of the rules that cover it. */
export interface PlacedFinding {
  kind: string;
  severity: Severity;
  message: string;
  ruleset: string;
  rule: string | null;
  blocked_by: string[];
  witness: Witness | null;
  /** where lint --json places it */
  location: SourceLocation;
  /** the rule (or ruleset, or ATP filter) it is about, in the document's terms; null when the document cannot say */
  subject: JsonPath | null;
  /** the rules named by blocked_by, in the document's terms */
  blockers: JsonPath[];
}

export interface LintOutcome {
  findings: PlacedFinding[];
  issues: PlacedIssue[];
  /** the reader refused the document (not a configuration of that format, invalid JSON): lint's line, and no findings */
  failure: string | null;
  notes: string[];
}

/** The document a configuration text is read into, as the reader of its format reads it. */
async function documentOf(input: ConfigurationText): Promise<ConfigurationDocument> {
  if (input.kind === 'suite') return suiteConfigurationDocument(input.text, input.file);
  if (input.kind === 'rules') return rulesFileDocument(input.text, input.file, input.scheme ?? 'rule');
  const read = (await readerFor(input.kind))(input.text.replace(/^\uFEFF/, ''), input.file, 'planned', {});
  if (input.kind !== 'terraform') return read;
  // the reader names places by resource address; the editor needs them as paths of the JSON
  const inJson = terraformPaths(input.text);
  return { ...read, origin: (path) => inJson(read.origin(path)) };
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An expression the engine refuses (shown at the expression itself, by the editor's own check). */
const refused = (value: unknown, kind: ExpressionKind): boolean => typeof value === 'string' && validateExpression(value, kind) !== null;

/**
 * The document without the rules and ATP filters whose expression the engine refuses, and the way
 * back: a kept rule's (or filter's) index to its index in the document given.
 */
function withoutRefused(document: unknown): { document: unknown; rule(ruleset: number, rule: number): number; filter(component: string, index: number): number } {
  const kept = new Map<string, number[]>();
  const keep = (key: string, items: unknown[], kind: ExpressionKind): unknown[] => {
    const indexes: number[] = [];
    const out = items.filter((item, i) => {
      const ok = !(isObject(item) && refused(item.expression, kind));
      if (ok) indexes.push(i);
      return ok;
    });
    kept.set(key, indexes);
    return out;
  };
  if (!isObject(document)) return { document, rule: (_i, j) => j, filter: (_c, k) => k };
  const out: Obj = { ...document };
  if (Array.isArray(document.rulesets)) {
    out.rulesets = document.rulesets.map((rs: unknown, i) => (isObject(rs) && Array.isArray(rs.rules) ? { ...rs, rules: keep(`r${i}`, rs.rules, 'rule') } : rs));
  }
  for (const c of COMPONENT_NAMES) {
    const component = document[c];
    if (isObject(component) && Array.isArray(component.filters)) out[c] = { ...component, filters: keep(c, component.filters, 'filter') };
  }
  return {
    document: out,
    rule: (i, j) => kept.get(`r${i}`)?.[j] ?? j,
    filter: (c, k) => kept.get(c)?.[k] ?? k,
  };
}

/** The deploy checks' result with its way back extended past the rules left out after it. */
function composed(deploy: DeployCheckResult, left: ReturnType<typeof withoutRefused>): DeployCheckResult {
  return { ...deploy, origin: (i, j) => deploy.origin(i, left.rule(i, j)) };
}

/** Where a path of the validated snapshot is in the document (through the rules and filters left out). */
function inDocument(path: JsonPath, deploy: DeployCheckResult, left: ReturnType<typeof withoutRefused>): JsonPath {
  const [key, i, sub, j, ...rest] = path;
  if (key === 'rulesets' && typeof i === 'number') {
    if (sub === 'rules' && typeof j === 'number') {
      const [ri, rj] = deploy.origin(i, left.rule(i, j));
      return ['rulesets', ri, 'rules', rj, ...rest];
    }
    return ['rulesets', deploy.origin(i, 0)[0], ...path.slice(2)];
  }
  if (typeof key === 'string' && (COMPONENT_NAMES as readonly string[]).includes(key) && sub === 'filters' && typeof j === 'number') {
    return [key, i!, sub, left.filter(key, j), ...rest];
  }
  return path;
}

/** A configuration text read as lint reads it: the snapshot, or the schema's problems, or the reader's refusal. */
type Read =
  | { snapshot: Snapshot; read: ConfigurationDocument; deploy: DeployCheckResult; document: unknown; left: ReturnType<typeof withoutRefused> }
  | { outcome: LintOutcome };

/** Reads a configuration text into the snapshot the analysis takes (the rules the engine refuses left out). */
export async function readText(input: ConfigurationText, settings: LintSettings): Promise<Read> {
  let read: ConfigurationDocument;
  try {
    read = await documentOf(input);
  } catch (err) {
    if (err instanceof UserError) return { outcome: { findings: [], issues: [], failure: err.detail, notes: [] } };
    throw err;
  }
  const checks = collectDeployChecks(settings.maxRules);
  const deployed = checks.prepare(read.document);
  const left = withoutRefused(deployed);
  try {
    const snapshot = validateSnapshot(left.document, input.file, { unknownLists: 'allow' });
    return { snapshot, read, deploy: composed(checks.deploy!, left), document: checks.document, left };
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    const issues = err.issues.map((issue) => ({ path: read.origin(inDocument(issue.path, checks.deploy!, left)), message: issue.message.replace(/\n$/, '') }));
    return { outcome: { findings: [], issues, failure: null, notes: read.notes } };
  }
}

/** Each firewall rule's path in the snapshot (rulesets[i].rules[j]) and in the document, in evaluation order. */
export function rulePaths(snapshot: Snapshot, read: ConfigurationDocument, deploy: DeployCheckResult): Array<{ snapshot: string; document: JsonPath; key: string }> {
  return (snapshot.rulesets ?? []).flatMap((rs, i) => {
    const name = rulesetName(rs, i);
    return (rs.rules ?? []).map((rule, j) => {
      const [di, dj] = deploy.origin(i, j);
      return { snapshot: `rulesets[${i}].rules[${j}]`, document: read.origin(['rulesets', di, 'rules', dj]), key: `${name}\n${ruleRef(rule, name, j)}` };
    });
  });
}

/** Lint's findings and the schema's problems of a configuration text. */
export async function lintText(input: ConfigurationText, settings: LintSettings): Promise<LintOutcome> {
  const r = await readText(input, settings);
  if ('outcome' in r) return r.outcome;
  const { snapshot, read, deploy, left } = r;
  const registry = createListRegistry({ dir: settings.lists, accountLists: snapshot.lists });
  const model: ModelOptions = { lists: (name) => registry.resolve(name), workLimit: settings.workLimit };
  const findings = lintFindings({ snapshot, model, deploy, document: r.document, file: input.file, locate: read.locate });
  // each rule of the analysed snapshot by ruleset name and ref, with its path in the document
  const rules = rulePaths(snapshot, read, deploy);
  const paths = new Map<string, JsonPath>(rules.map((x) => [x.key, x.document]));
  for (const c of COMPONENT_NAMES) {
    (snapshot[c]?.filters ?? []).forEach((f, k) => paths.set(`${c}\n${f.id ?? `${c}.filters[${k}]`}`, read.origin([c, 'filters', left.filter(c, k)])));
  }
  return {
    findings: findings.map(({ finding, severity, location, subject }) => {
      const { ruleset, rule } = subject;
      const own =
        ruleset === undefined ? (paths.get(`${finding.ruleset}\n${finding.rule}`) ?? null) : read.origin(rule === undefined ? ['rulesets', ruleset] : ['rulesets', ruleset, 'rules', rule]);
      return {
        kind: finding.kind,
        severity,
        message: finding.message,
        ruleset: finding.ruleset,
        rule: finding.rule,
        blocked_by: finding.blocked_by,
        witness: finding.witness,
        location,
        subject: own,
        blockers: finding.blocked_by.flatMap((ref): JsonPath[] => { const p = paths.get(`${finding.ruleset}\n${ref}`); return p === undefined ? [] : [p]; }),
      };
    }),
    issues: [],
    failure: null,
    notes: read.notes,
  };
}

/** The last text read for questions about its rules (hovers come one after another over the same text). */
let kept: { text: string; read: Read } | undefined;

/** The configuration text read, reusing the last reading of the same text. */
export async function readKept(input: ConfigurationText, settings: LintSettings): Promise<Read> {
  if (kept?.text !== input.text) kept = { text: input.text, read: await readText(input, settings) };
  return kept.read;
}

/** What the analysis says of the rule at `path` (the document's terms); undefined when the configuration holds no such rule (or is invalid). */
export async function describeRule(input: ConfigurationText, settings: LintSettings, path: JsonPath): Promise<PinnedRule | undefined> {
  const r = await readKept(input, settings);
  if ('outcome' in r) return undefined;
  const key = JSON.stringify(path);
  const at = rulePaths(r.snapshot, r.read, r.deploy).find((x) => JSON.stringify(x.document) === key);
  if (at === undefined) return undefined;
  return pinningOf(r, settings).rules.find((rule) => rule.path === at.snapshot);
}

/** The firewall's pinning of a reading, as `pin` writes it: worked out once per text (a hover over each rule asks again). */
const pinnings = new WeakMap<object, Pinning>();

function pinningOf(r: Exclude<Read, { outcome: unknown }>, settings: LintSettings): Pinning {
  let pinning = pinnings.get(r);
  if (pinning === undefined) {
    const registry = createListRegistry({ dir: settings.lists, accountLists: r.snapshot.lists });
    pinning = pinFirewall(r.snapshot, { lists: (name) => registry.resolve(name), workLimit: settings.workLimit });
    pinnings.set(r, pinning);
  }
  return pinning;
}
