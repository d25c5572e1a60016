// lint's findings as SARIF 2.1.0, the format GitHub code scanning (and reviewdog) reads: one rule
// per kind of finding with a stable id (`edgesim/<kind>`), its short and full description, help
// with the fix (text and Markdown), tags, precision and, where it applies, a security severity
// (finding-rules.ts); one result per finding with its message, its place (a path relative to the
// working folder under %SRCROOT%, the region of the rule or of its expression), the ruleset and
// rule as logical locations, and a fingerprint that follows it from commit to commit. Checked by
// Microsoft's validator with its default rules and with GitHub's (`--rule-kind Gh`).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Log, PhysicalLocation, ReportingDescriptor, Result } from 'sarif';
import { FINDING_KINDS, type FindingKind, type Severity } from '../analysis/index.js';
import type { SourceLocation } from '../config/location.js';
import { findingRule } from './finding-rules.js';
import type { ReviewFinding } from './lint-findings.js';

export interface SarifTool {
  name: string;
  version: string;
  informationUri: string;
}

export interface SarifOptions {
  /** the folder paths are relative to (default: the working folder) */
  cwd?: string;
  /** names that are not files (standard input): a finding there has no physical location */
  notFiles?: readonly string[];
}

const LEVELS: Readonly<Record<Severity, Result.level>> = { error: 'error', warning: 'warning', note: 'note' };

/** The key of edgesim's fingerprint in `partialFingerprints` (v2: a rule without its own ref is named by its expression, not its position). */
export const FINGERPRINT_KEY = 'edgesimFinding/v2';

/** A kind's rule id, stable across versions. */
export const sarifRuleId = (kind: FindingKind): string => `edgesim/${kind}`;

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

function rules(): ReportingDescriptor[] {
  return (Object.keys(FINDING_KINDS) as FindingKind[]).map((kind) => {
    const rule = findingRule(kind);
    const markdown = [`**${kind}**: ${rule.description}`, '', `**How to fix it:** ${rule.fix}`, ...(rule.example === undefined ? [] : ['', rule.example])].join('\n');
    return {
      id: sarifRuleId(kind),
      name: kind,
      shortDescription: { text: sentence(rule.summary) },
      fullDescription: { text: rule.description },
      help: { text: `${rule.description} How to fix it: ${rule.fix}`, markdown },
      defaultConfiguration: { level: LEVELS[FINDING_KINDS[kind].severity] },
      properties: {
        tags: rule.tags,
        precision: kind === 'indeterminate' ? 'medium' : 'very-high',
        'problem.severity': FINDING_KINDS[kind].severity === 'note' ? 'recommendation' : FINDING_KINDS[kind].severity,
        ...(rule.securitySeverity === undefined ? {} : { 'security-severity': rule.securitySeverity.toFixed(1) }),
      },
    };
  });
}

/** Whether `relative` (a path.relative answer) leaves the folder: `..` or `../…`, not a name such as `..x.json`. */
const leaves = (relative: string): boolean => relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);

/** The file as SARIF names it: relative to the working folder under %SRCROOT% when inside it, else a file: URI. */
function artifactOf(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const relative = path.relative(cwd, path.resolve(cwd, file));
  if (relative === '' || leaves(relative)) return { uri: pathToFileURL(path.resolve(cwd, file)).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function physicalOf(where: SourceLocation, cwd: string): PhysicalLocation {
  const region =
    where.line === undefined
      ? undefined
      : {
          startLine: where.line,
          ...(where.column === undefined ? {} : { startColumn: where.column }),
          ...(where.endLine === undefined ? {} : { endLine: where.endLine }),
          ...(where.endColumn === undefined ? {} : { endColumn: where.endColumn }),
        };
  return { artifactLocation: artifactOf(where.file, cwd), ...(region === undefined ? {} : { region }) };
}

function locationOf(r: ReviewFinding, cwd: string, notFiles: ReadonlySet<string>): Location {
  const { finding, location: where } = r;
  const ruleset = { name: finding.ruleset, kind: 'namespace' };
  const rule = finding.rule === null ? [] : [{ name: finding.rule, fullyQualifiedName: `${finding.ruleset}/${finding.rule}`, kind: 'member' }];
  return {
    ...(notFiles.has(where.file) ? {} : { physicalLocation: physicalOf(where, cwd) }),
    logicalLocations: [ruleset, ...rule],
    ...(where.address === undefined ? {} : { message: { text: where.address } }),
  };
}

/** The SARIF log of one lint run. */
export function sarifLog(findings: readonly ReviewFinding[], tool: SarifTool, options: SarifOptions = {}): Log {
  const cwd = options.cwd ?? process.cwd();
  const notFiles = new Set(options.notFiles ?? []);
  const results: Result[] = findings.map((r) => ({
    ruleId: sarifRuleId(r.finding.kind),
    level: LEVELS[r.severity],
    message: { text: r.finding.message },
    locations: [locationOf(r, cwd, notFiles)],
    partialFingerprints: { [FINGERPRINT_KEY]: r.fingerprint },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { ...tool, rules: rules() } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
        results,
      },
    ],
  };
}
