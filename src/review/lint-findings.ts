// lint's findings as reviewers' formats take them: each with its severity, its place in the user's
// file (the rule's expression for a finding about the expression, where the format places it
// apart), and a fingerprint that follows the finding from commit to commit: what it is, the rule's
// own ref or id and its expression — never its line nor its position in the ruleset (a rule without
// a ref is named `ruleset#3` by position), so a rebase that moves or renumbers rules keeps it.
import { createHash } from 'node:crypto';
import { deployFindings, lint, severityOf, withSubjects, type Finding, type FindingKind, type FindingSubject, type ModelOptions, type Severity, type SubjectFinding } from '../analysis/index.js';
import { deployChecks, type DeployCheckResult } from '../config/deploy-checks.js';
import type { RuleLocator, SourceLocation } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { FINDING_RULES } from './finding-rules.js';

export interface ReviewFinding {
  finding: Finding;
  severity: Severity;
  location: SourceLocation;
  /** stable across runs, moves and renumbering: kind, ruleset, the rule's own ref and the expression on one line */
  fingerprint: string;
  /** what it is about: the ruleset's and the rule's indexes in the file (as the reader made the document) */
  subject: FindingSubject;
}

export interface FindingSources {
  /** the file as the user named it */
  file: string;
  locate: RuleLocator;
  /** findings of the analysis, their subjects' indexes in the loaded snapshot */
  analysed: readonly SubjectFinding[];
  /** the loaded snapshot's ruleset and rule indexes in the file (some items may have been left out) */
  origin(ruleset: number, rule: number): [number, number];
  /** deploy-time findings, their subjects' indexes in the file */
  deployTime: readonly SubjectFinding[];
}

/** The rule's ref when it is its own (a ref or an id), null when it is the name by position (`ruleset#3`, firewall.ts ruleRef). */
function ownRef(finding: Finding): string | null {
  const positional = finding.rule !== null && finding.rule.startsWith(`${finding.ruleset}#`) && /^\d+$/.test(finding.rule.slice(finding.ruleset.length + 1));
  return positional ? null : finding.rule;
}

function fingerprintOf(finding: Finding, subject: FindingSubject): string {
  const expression = subject.expression.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(JSON.stringify([finding.kind, finding.ruleset, ownRef(finding), expression])).digest('hex').slice(0, 32);
}

const lineOf = (l: SourceLocation): number => l.line ?? Number.MAX_SAFE_INTEGER;

/** Every finding placed and fingerprinted, in the order of the file (findings without a line last). */
export function reviewFindings(sources: FindingSources): ReviewFinding[] {
  /** the subject's place in the file, given its indexes there: the part of the rule the finding is about */
  const place = ({ ruleset, rule }: FindingSubject, kind: FindingKind): SourceLocation =>
    (ruleset === undefined ? undefined : sources.locate(ruleset, rule, FINDING_RULES[kind].part)) ?? { file: sources.file };
  const inFile = (subject: FindingSubject): FindingSubject => {
    if (subject.ruleset === undefined || subject.rule === undefined) return subject;
    const [ruleset, rule] = sources.origin(subject.ruleset, subject.rule);
    return { ...subject, ruleset, rule };
  };
  const placed = [
    ...sources.deployTime.map(({ finding, subject }) => ({ finding, subject, location: place(subject, finding.kind) })),
    ...sources.analysed.map(({ finding, subject }) => ({ finding, subject: inFile(subject), location: place(inFile(subject), finding.kind) })),
  ].sort((a, b) => lineOf(a.location) - lineOf(b.location) || (a.location.column ?? 0) - (b.location.column ?? 0));
  const seen = new Map<string, number>();
  return placed.map(({ finding, subject, location }) => {
    const base = fingerprintOf(finding, subject);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { finding, severity: severityOf(finding.kind), location, fingerprint: count === 1 ? base : `${base}:${count}`, subject };
  });
}

const holdsRulesets = (value: unknown): boolean => typeof value === 'object' && value !== null && 'rulesets' in value;

/** The deploy-time checks of the documents a configuration is read from, as lint takes them. */
export interface DeployCheckCollector {
  /** for the readers' `prepare`: checks a document and gives what the schema then validates (deployChecks's document) */
  prepare(value: unknown): unknown;
  /** the checks of the document that holds the rulesets (of several files), and that document as its file has it */
  readonly deploy: DeployCheckResult | undefined;
  readonly document: unknown;
}

/** Collects the deploy-time checks of the documents read (of several files, the one that holds the rulesets). */
export function collectDeployChecks(maxRules: number): DeployCheckCollector {
  const collected: { deploy: DeployCheckResult | undefined; document: unknown } = { deploy: undefined, document: undefined };
  return {
    prepare(value) {
      const checked = deployChecks(value, maxRules);
      if (collected.deploy === undefined || holdsRulesets(value)) [collected.deploy, collected.document] = [checked, value];
      return checked.document;
    },
    get deploy() {
      return collected.deploy;
    },
    get document() {
      return collected.document;
    },
  };
}

/** What lint reads: the loaded snapshot, the deploy-time checks of the document it came from, and where it is written. */
export interface LintInput {
  snapshot: Snapshot;
  model: ModelOptions;
  /** deployChecks of `document`, the configuration as its file has it before the schema */
  deploy: DeployCheckResult;
  document: unknown;
  /** the file as the user named it, and where its rules are */
  file: string;
  locate: RuleLocator;
}

/** lint's findings, the analysis's and the deploy-time checks', placed and fingerprinted (the command's and the library's). */
export function lintFindings(input: LintInput): ReviewFinding[] {
  return reviewFindings({
    file: input.file,
    locate: input.locate,
    analysed: withSubjects(input.snapshot, lint(input.snapshot, input.model)),
    origin: input.deploy.origin,
    deployTime: deployFindings(input.deploy.problems, input.document),
  });
}

/** A finding as lint's JSON prints it: the analysis's keys, then severity and location. */
export function findingJson(r: ReviewFinding): object {
  return { ...r.finding, severity: r.severity, location: r.location };
}

/** Whether the findings fail the command at `failOn` (notes never do). */
export function failsAt(findings: readonly ReviewFinding[], failOn: 'error' | 'warning'): boolean {
  return findings.some((r) => r.severity === 'error' || (failOn === 'warning' && r.severity === 'warning'));
}
