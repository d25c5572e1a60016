// What a finding is about, found again in the configuration: the ruleset's and the rule's indexes
// (so reports can point at the user's file) and the expression (so a finding keeps its identity
// when the rule moves). Deploy-time problems (config/deploy-checks.ts) become findings here, named
// as every report names rulesets and rules.
import { COMPONENT_NAMES, type ComponentName } from '../protection-components.js';
import type { DeployProblem } from '../config/deploy-checks.js';
import type { Ruleset, RulesetRule, Snapshot } from '../config/snapshot.js';
import { ruleRef, rulesetName } from '../firewall/firewall.js';
import type { Finding } from './findings.js';

export interface FindingSubject {
  /** indexes into `rulesets` and its `rules` (rule absent: the ruleset; both absent: elsewhere, e.g. an ATP filter) */
  ruleset?: number;
  rule?: number;
  /** the rule's (or filter's) expression, '' for a ruleset */
  expression: string;
}

/** A finding with its subject. */
export interface SubjectFinding {
  finding: Finding;
  subject: FindingSubject;
}


/** The subject of each finding of lint(snapshot). */
export function withSubjects(snapshot: Snapshot, findings: readonly Finding[]): SubjectFinding[] {
  const rules = new Map<string, FindingSubject>();
  (snapshot.rulesets ?? []).forEach((rs, i) => {
    const name = rulesetName(rs, i);
    (rs.rules ?? []).forEach((rule, j) => {
      const key = `${name}\n${ruleRef(rule, name, j)}`;
      if (!rules.has(key)) rules.set(key, { ruleset: i, rule: j, expression: rule.expression });
    });
  });
  const filter = (component: string, ref: string | null): FindingSubject => {
    const filters = COMPONENT_NAMES.find((c) => c === component) === undefined ? [] : (snapshot[component as ComponentName]?.filters ?? []);
    const found = filters.find((f, i) => (f.id ?? `${component}.filters[${i}]`) === ref);
    return { expression: found?.expression ?? '' };
  };
  return findings.map((finding) => ({ finding, subject: rules.get(`${finding.ruleset}\n${finding.rule}`) ?? filter(finding.ruleset, finding.rule) }));
}

type Raw = Record<string, unknown>;
const asObject = (v: unknown): Raw => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : {});

/** Deploy-time problems of a snapshot document as findings, with their subjects (indexes into `document`). */
export function deployFindings(problems: readonly DeployProblem[], document: unknown): SubjectFinding[] {
  const rulesets = asObject(document).rulesets as unknown[];
  return problems.map((p) => {
    const rs = asObject(rulesets[p.ruleset]);
    const name = rulesetName(rs as unknown as Ruleset, p.ruleset);
    const rule = p.rule === undefined ? undefined : asObject((rs.rules as unknown[])[p.rule]);
    const ref = rule === undefined ? null : ruleRef(rule as unknown as RulesetRule, name, p.rule!);
    return {
      finding: { ruleset: name, rule: ref, kind: p.code, blocked_by: [], different_action: false, witness: null, message: ref === null ? `${name}: ${p.message}` : `${ref}: ${p.message}` },
      subject: { ruleset: p.ruleset, rule: p.rule, expression: typeof rule?.expression === 'string' ? rule.expression : '' },
    };
  });
}
