// Checks the vendor's API makes only when a ruleset is deployed, so a plan passes and the apply
// fails: each has a stable code, and `lint` reports them for any input. They run on the raw
// document, before the schema, because some of them (an `allow` action, an HTTP field) are what
// the schema refuses outright: lint reports such an item at its place and analyses the rest, the
// item left out (`document` below), `origin` mapping the rest back to its place in the file.
import { FilterError, parse, settingsFor } from '../lang/index.js';
import { LIMITS } from './resources.js';
import { loggingMisplaced } from './checks.js';

export type DeployCheckCode =
  | 'expression_too_long'
  | 'logging_not_on_skip'
  | 'allow_action'
  | 'ruleset_at_zone_level'
  | 'ruleset_kind_not_root'
  | 'field_of_other_phase'
  | 'too_many_rules';

/** What each check finds, for help texts (lint --help, SARIF rules, the README). */
export const DEPLOY_CHECKS: Readonly<Record<DeployCheckCode, string>> = {
  expression_too_long: 'a rule expression longer than 4,096 characters once written on one line',
  logging_not_on_skip: '`logging` on a rule whose action is not `skip`',
  allow_action: '`allow` as a rule action (a ruleset of this phase takes block, skip or log)',
  ruleset_at_zone_level: 'a magic_transit ruleset at zone level (`zone_id`): the phase exists at account level only',
  ruleset_kind_not_root: 'a magic_transit ruleset whose kind is not `root`',
  field_of_other_phase: 'a field of another phase (HTTP fields such as http.request.uri.path) in a network-firewall expression',
  too_many_rules: "more rules in a ruleset than the account's limit (200 by default; lint --max-rules)",
};

/** The longest rule expression the API takes (4,096), counted on one line. */
export const MAX_EXPRESSION_LENGTH = settingsFor('rule').limits.maxLength!;

/** One problem: where (indexes into the document's `rulesets` and `rules`; rule absent for the ruleset) and what. */
export interface DeployProblem {
  code: DeployCheckCode;
  ruleset: number;
  rule?: number;
  message: string;
}

export interface DeployCheckResult {
  problems: DeployProblem[];
  /** the document without the items the schema would refuse for these reasons */
  document: unknown;
  /** the indexes in the input document of ruleset `rs`, rule `r` of `document` */
  origin(ruleset: number, rule: number): [ruleset: number, rule: number];
}

/** Field-name prefixes of phases other than the network firewall's, with the phase they belong to. */
const OTHER_PHASES: ReadonlyArray<readonly [prefix: string, phase: string]> = [
  ['http.', 'http_request_firewall_custom'],
  ['raw.http.', 'http_request_firewall_custom'],
  ['cf.bot_management.', 'http_request_firewall_custom'],
  ['cf.waf.', 'http_request_firewall_managed'],
  ['ssl', 'http_request_firewall_custom'],
];

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An expression as one line: each line break and the blanks around it become one space. */
export function oneLine(expression: string): string {
  return expression.replace(/[ \t]*\r?\n[ \t]*/g, ' ').trim();
}

/** Text that may name such a field: only then is the expression parsed to find it. */
const MAY_NAME_OTHER_PHASE = new RegExp(OTHER_PHASES.map(([prefix]) => `\\b${prefix.replace(/\./g, '\\.')}`).join('|'));

/** The first field of another phase in `expression`, with that phase; null when there is none. */
function otherPhaseField(expression: string): { field: string; phase: string } | null {
  if (!MAY_NAME_OTHER_PHASE.test(expression)) return null;
  const { scheme, limits } = settingsFor('rule');
  try {
    parse(expression, scheme, { ...limits, maxLength: undefined });
    return null;
  } catch (err) {
    if (!(err instanceof FilterError) || err.code !== 'unknown_identifier') return null;
    const field = Buffer.from(expression).subarray(err.start, err.end).toString();
    const phase = OTHER_PHASES.find(([prefix]) => field.startsWith(prefix))?.[1];
    return phase === undefined ? null : { field, phase };
  }
}

const quoted = (v: unknown): string => JSON.stringify(v);

/** The problems of one rule, and the rule as the rest of lint reads it (undefined: left out). */
function checkRule(rule: Obj, at: { ruleset: number; rule: number }): { problems: DeployProblem[]; rule: Obj | undefined } {
  const problems: DeployProblem[] = [];
  const add = (code: DeployCheckCode, message: string): void => {
    problems.push({ code, ...at, message });
  };
  let kept: Obj | undefined = rule;
  if (rule.action === 'allow') {
    add('allow_action', 'action "allow" is not an action of this phase (block, skip or log); the API refuses it when the ruleset is deployed');
    kept = undefined;
  }
  if (loggingMisplaced(rule)) {
    add('logging_not_on_skip', `"logging" is taken on skip rules only; the API refuses it on a ${quoted(rule.action)} rule when the ruleset is deployed`);
  }
  if (typeof rule.expression === 'string') {
    const line = oneLine(rule.expression);
    if (line.length > MAX_EXPRESSION_LENGTH) {
      add('expression_too_long', `the expression is ${line.length} characters on one line, more than the API's ${MAX_EXPRESSION_LENGTH}`);
      kept = undefined;
    } else if (kept !== undefined && rule.expression.length > MAX_EXPRESSION_LENGTH) kept = { ...kept, expression: line };
    const other = otherPhaseField(rule.expression);
    if (other !== null) {
      add('field_of_other_phase', `${other.field} is a field of the ${other.phase} phase, not of the network firewall (magic_transit)`);
      kept = undefined;
    }
  }
  return { problems, rule: kept };
}

/** The deploy-time problems of a snapshot document, and the document lint analyses. */
export function deployChecks(document: unknown, maxRules: number = LIMITS.rulesPerRuleset): DeployCheckResult {
  const problems: DeployProblem[] = [];
  if (!isObject(document) || !Array.isArray(document.rulesets)) return { problems, document, origin: (rs, r) => [rs, r] };
  const origins: Array<{ ruleset: number; rules: number[] }> = [];
  const rulesets: unknown[] = [];
  document.rulesets.forEach((rs: unknown, i) => {
    if (!isObject(rs)) {
      origins.push({ ruleset: i, rules: [] });
      rulesets.push(rs);
      return;
    }
    let kept: Obj | undefined = rs;
    if (rs.zone_id !== undefined) {
      problems.push({ code: 'ruleset_at_zone_level', ruleset: i, message: `a magic_transit ruleset is an account's: zone_id ${quoted(rs.zone_id)} puts it at zone level, which the API refuses` });
      const { zone_id: _, ...rest } = rs;
      kept = rest;
    }
    if (rs.kind !== undefined && rs.kind !== 'root') {
      problems.push({ code: 'ruleset_kind_not_root', ruleset: i, message: `kind ${quoted(rs.kind)}: a magic_transit ruleset is the phase's entry point, of kind "root"` });
      kept = undefined;
    }
    const rules = Array.isArray(rs.rules) ? (rs.rules as unknown[]) : [];
    if (rules.length > maxRules) {
      problems.push({ code: 'too_many_rules', ruleset: i, message: `${rules.length} rules, more than the account's limit of ${maxRules}` });
    }
    const keptRules: unknown[] = [];
    const ruleOrigins: number[] = [];
    rules.forEach((rule, j) => {
      const checked = isObject(rule) ? checkRule(rule, { ruleset: i, rule: j }) : { problems: [], rule };
      problems.push(...checked.problems);
      if (checked.rule === undefined) return;
      keptRules.push(checked.rule);
      ruleOrigins.push(j);
    });
    if (kept === undefined) return;
    origins.push({ ruleset: i, rules: ruleOrigins });
    rulesets.push(Array.isArray(rs.rules) ? { ...kept, rules: keptRules } : kept);
  });
  const origin = (rs: number, r: number): [number, number] => {
    const o = origins[rs];
    return o === undefined ? [rs, r] : [o.ruleset, o.rules[r] ?? r];
  };
  return { problems, document: { ...document, rulesets }, origin };
}
