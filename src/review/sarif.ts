// lint's findings as SARIF 2.1.0, the format GitHub code scanning (and reviewdog) reads: one rule
// per kind of finding with a stable id (`edgesim/<kind>`), its help and default level; one result
// per finding with its message, its place (a path relative to the working folder under
// %SRCROOT%, line and column), the ruleset and rule as a logical location, and a fingerprint that
// follows it from commit to commit.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import { FINDING_KINDS, type FindingKind, type Severity } from '../analysis/index.js';
import type { SourceLocation } from '../config/location.js';
import type { ReviewFinding } from './lint-findings.js';

export interface SarifTool {
  name: string;
  version: string;
  informationUri: string;
}

const LEVELS: Readonly<Record<Severity, Result.level>> = { error: 'error', warning: 'warning', note: 'note' };

/** A kind's rule id, stable across versions. */
export const sarifRuleId = (kind: FindingKind): string => `edgesim/${kind}`;

function rules(): ReportingDescriptor[] {
  return Object.entries(FINDING_KINDS).map(([kind, { severity, summary }]) => ({
    id: sarifRuleId(kind as FindingKind),
    name: kind,
    shortDescription: { text: summary.charAt(0).toUpperCase() + summary.slice(1) },
    help: { text: `${kind}: ${summary}. See \`edgesim lint --help\`.` },
    defaultConfiguration: { level: LEVELS[severity] },
  }));
}

/** The file as SARIF names it: relative to the working folder under %SRCROOT% when inside it, else a file: URI. */
function artifactOf(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const relative = path.relative(cwd, path.resolve(cwd, file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return { uri: pathToFileURL(path.resolve(cwd, file)).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function locationOf(r: ReviewFinding, where: SourceLocation, cwd: string): Location {
  const { finding } = r;
  const ruleset = { name: finding.ruleset, kind: 'namespace' };
  const rule = finding.rule === null ? [] : [{ name: finding.rule, fullyQualifiedName: `${finding.ruleset}/${finding.rule}`, kind: 'member' }];
  return {
    physicalLocation: {
      artifactLocation: artifactOf(where.file, cwd),
      ...(where.line === undefined ? {} : { region: { startLine: where.line, ...(where.column === undefined ? {} : { startColumn: where.column }) } }),
    },
    logicalLocations: [ruleset, ...rule],
    ...(where.address === undefined ? {} : { message: { text: where.address } }),
  };
}

/** The SARIF log of one lint run; `cwd` is the folder paths are relative to. */
export function sarifLog(findings: readonly ReviewFinding[], tool: SarifTool, cwd = process.cwd()): Log {
  const results: Result[] = findings.map((r) => ({
    ruleId: sarifRuleId(r.finding.kind),
    level: LEVELS[r.severity],
    message: { text: r.finding.message },
    locations: [locationOf(r, r.location, cwd)],
    partialFingerprints: { 'edgesimFinding/v1': r.fingerprint },
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
