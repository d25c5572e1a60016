// `edgesim lint`: the static analysis of src/analysis and the deploy-time checks of
// config/deploy-checks.ts on one configuration (files, or a plan's after side), printed for people (one line a finding, its place
// first, its witness packet below), as JSON, SARIF or GitHub annotations, with a job summary; or
// one rule's overlaps (--explain).
import { explain, type Explanation } from '../../../analysis/index.js';
import { placeText } from '../../../config/location.js';
import { createListRegistry } from '../../../data/lists.js';
import { attachSource, UsageError } from '../../../errors.js';
import { annotationLines } from '../../../review/annotations.js';
import { appendJobSummary, summaryFile } from '../../../review/job-summary.js';
import { collectDeployChecks, failsAt, findingJson, lintFindings, type ReviewFinding } from '../../../review/lint-findings.js';
import { lintSummary } from '../../../review/lint-summary.js';
import { sarifLog } from '../../../review/sarif.js';
import { printable } from '../../../terminal-text.js';
import { STDIN_NAME } from '../../../capture/source.js';
import { VERSION } from '../../about.js';
import { loadConfiguration, sampleListSaid } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';
import { warn, warnIf, writeOutput } from '../../output.js';
import { writes } from '../../paths.js';

type Format = 'text' | 'json' | 'sarif' | 'github';

export interface LintFlags extends Pick<ConfigFlags, 'config' | 'plan' | 'configFormat' | 'tfDir' | 'account'> {
  format?: Format;
  json?: boolean;
  out?: string;
  summary?: string;
  failOn: 'error' | 'warning';
  maxRules: number;
  explain?: string;
  lists?: string;
}

const packet = (w: object): string => printable(JSON.stringify(w));

function formatFindings(findings: readonly ReviewFinding[]): string {
  if (findings.length === 0) return 'no findings\n';
  const lines = findings.map((r) => {
    const { finding: f } = r;
    const subject = f.rule === null ? f.ruleset : `${f.ruleset} ${f.rule}`;
    const head = printable(`${placeText(r.location)}: ${r.severity}: ${subject}: ${f.kind}: ${f.message}`);
    return f.witness === null ? head : `${head}\n  packet: ${packet(f.witness)}`;
  });
  return `${lines.join('\n')}\n`;
}

function formatExplanation(e: Explanation): string {
  const lines = [`${printable(`rule ${e.rule} of ${e.ruleset} (${e.action}): ${e.status}`)}${e.witness === null ? '' : `\n  packet: ${packet(e.witness)}`}`];
  if (e.overlaps.length === 0) lines.push('no earlier enabled rule shares a packet with it');
  for (const o of e.overlaps) {
    lines.push(`overlaps ${printable(o.rule)} (${o.action})${o.covers ? ', which covers all of it' : ''}${o.certain ? '' : ' (possibly: unmodelled parts decide)'}\n  packet: ${packet(o.witness)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** --format, with --json as its alias. */
function formatOf(flags: LintFlags): Format {
  if (flags.json === true && flags.format !== undefined && flags.format !== 'json') throw new UsageError(`--json is --format json: give one of --json and --format ${flags.format}`);
  return flags.json === true ? 'json' : (flags.format ?? 'text');
}

function rendered(format: Format, findings: readonly ReviewFinding[]): string {
  if (format === 'json') return `${JSON.stringify({ findings: findings.map(findingJson) }, null, 2)}\n`;
  if (format === 'sarif') return `${JSON.stringify(sarifLog(findings, { name: 'edgesim', version: VERSION, informationUri: 'https://www.npmjs.com/package/edgesim' }, { notFiles: [STDIN_NAME] }), null, 2)}\n`;
  if (format === 'github') return annotationLines(findings, [STDIN_NAME]).map((line) => `${line}\n`).join('');
  return formatFindings(findings);
}

export async function run(file: string | undefined, flags: LintFlags): Promise<void> {
  const format = formatOf(flags);
  const summary = summaryFile(flags.summary);
  if (flags.explain !== undefined && (format === 'sarif' || format === 'github')) throw new UsageError(`--explain prints text or JSON, not --format ${format}`);
  const files = [...(file === undefined ? [] : [file]), ...(flags.config ?? [])];
  if (files.length === 0 && flags.plan === undefined) throw new UsageError('lint takes a configuration: edgesim lint FILE, --config FILE or --plan PLAN.json');
  const read = [...files, ...(flags.plan === undefined ? [] : [flags.plan])];
  // --out and --summary are checked against the files read before the action (paths.ts); the job summary GitHub names, here
  if (flags.summary === undefined) writes('$GITHUB_STEP_SUMMARY', summary);
  // the deploy-time checks look at the document as the file has it, before the schema (of several
  // files, the one that holds the rulesets)
  const checks = collectDeployChecks(flags.maxRules);
  const { snapshot, source, locate } = await loadConfiguration({ ...flags, config: files.length === 0 ? undefined : files }, { unknownLists: 'allow', side: 'after', prepare: checks.prepare, places: true });
  const where = locate(0)?.file ?? read[0]!;
  try {
    const registry = createListRegistry({ dir: flags.lists, accountLists: snapshot.lists, onSample: sampleListSaid });
    const options = { lists: (name: string) => registry.resolve(name) };
    if (flags.explain !== undefined) {
      const e = explain(snapshot, flags.explain, options);
      writeOutput(flags.out, format === 'json' ? `${JSON.stringify(e, null, 2)}\n` : formatExplanation(e));
      return;
    }
    const findings = lintFindings({ snapshot, model: options, deploy: checks.deploy!, document: checks.document, file: where, locate });
    if (format === 'sarif' && findings.some((r) => r.location.file === STDIN_NAME)) {
      warn('--format sarif: the configuration came from standard input, which is no file: its findings have no place in the repository for code scanning to show them at');
    }
    writeOutput(flags.out, rendered(format, findings));
    warnIf(appendJobSummary(lintSummary(read.join(', '), findings), summary));
    process.exitCode = failsAt(findings, flags.failOn) ? 1 : 0;
  } catch (err) {
    throw attachSource(err, source);
  }
}
