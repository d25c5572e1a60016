// `edgesim lint`: the static analysis of src/analysis on one configuration (files, or a plan's after side), printed for people
// (one line a finding, its witness packet below) or as JSON, or one rule's overlaps (--explain).
import { ERROR_KINDS, WARNING_KINDS, explain, lint, type Explanation, type Finding } from '../../../analysis/index.js';
import { createListRegistry } from '../../../data/lists.js';
import { attachSource, UsageError } from '../../../errors.js';
import { printable } from '../../../terminal-text.js';
import { loadConfiguration } from '../../configuration.js';
import type { ConfigFlags } from '../../options.js';
import { writeOutput } from '../../output.js';

export interface LintFlags extends Pick<ConfigFlags, 'config' | 'plan' | 'configFormat'> {
  json?: boolean;
  failOn: 'error' | 'warning';
  explain?: string;
  lists?: string;
}

const packet = (w: object): string => printable(JSON.stringify(w));

function levelOf(f: Finding): string {
  return ERROR_KINDS.has(f.kind) ? 'error' : WARNING_KINDS.has(f.kind) ? 'warning' : 'note';
}

function formatFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'no findings\n';
  const lines = findings.map((f) => {
    const head = printable(`${levelOf(f)}: ${f.ruleset} ${f.rule}: ${f.kind}: ${f.message}`);
    return f.witness === null ? head : `${head}\n  packet: ${packet(f.witness)}`;
  });
  return `${lines.join('\n')}\n`;
}

function formatExplanation(e: Explanation): string {
  const lines = [`${printable(`${e.ruleset} ${e.rule} (${e.action}): ${e.status}`)}${e.witness === null ? '' : `\n  packet: ${packet(e.witness)}`}`];
  if (e.overlaps.length === 0) lines.push('no earlier enabled rule shares a packet with it');
  for (const o of e.overlaps) {
    lines.push(`overlaps ${printable(o.rule)} (${o.action})${o.covers ? ', which covers all of it' : ''}${o.certain ? '' : ' (possibly: unmodelled parts decide)'}\n  packet: ${packet(o.witness)}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function run(file: string | undefined, flags: LintFlags): Promise<void> {
  const files = [...(file === undefined ? [] : [file]), ...(flags.config ?? [])];
  if (files.length === 0 && flags.plan === undefined) throw new UsageError('lint takes a configuration: edgesim lint FILE, --config FILE or --plan PLAN.json');
  const { snapshot, source } = await loadConfiguration({ ...flags, config: files.length === 0 ? undefined : files }, { unknownLists: 'allow', side: 'after' });
  try {
    const registry = createListRegistry({ dir: flags.lists, accountLists: snapshot.lists });
    const options = { lists: (name: string) => registry.resolve(name) };
    if (flags.explain !== undefined) {
      const e = explain(snapshot, flags.explain, options);
      writeOutput(undefined, flags.json === true ? `${JSON.stringify(e, null, 2)}\n` : formatExplanation(e));
      return;
    }
    const findings = lint(snapshot, options);
    writeOutput(undefined, flags.json === true ? `${JSON.stringify({ findings }, null, 2)}\n` : formatFindings(findings));
    const failing = findings.some((f) => ERROR_KINDS.has(f.kind) || (flags.failOn === 'warning' && WARNING_KINDS.has(f.kind)));
    process.exitCode = failing ? 1 : 0;
  } catch (err) {
    throw attachSource(err, source);
  }
}
