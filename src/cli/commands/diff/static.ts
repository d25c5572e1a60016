// `edgesim diff --static A.json B.json` (or --plan PLAN.json): the classes of packets the two configurations' firewalls decide
// differently, proved over every possible packet (src/analysis/compare.ts), each with a witness
// packet and the deciding rule on each side; or the statement that they are equivalent. Pairs of
// rules the work limit left unsettled are listed as indeterminate with the reason; as text, JSON,
// NDJSON or a pull-request report (markdown, which also goes to the job summary). Exit 1 when a
// class changes (or may change) its verdict or deciding rule — with --fail-on verdict, its verdict
// only —, 0 otherwise (as the capture mode).
import { checkExpressions, compareRulesets, type Comparison, type Difference, type ModelOptions } from '../../../analysis/index.js';
import { createListRegistry } from '../../../data/lists.js';
import { attachSource } from '../../../errors.js';
import { counted } from '../../../numbers.js';
import type { Snapshot } from '../../../config/snapshot.js';
import { appendJobSummary, summaryFile } from '../../../review/job-summary.js';
import { staticDiffMarkdown } from '../../../review/static-diff-report.js';
import { refLocator, ruleLabels, type RefLocator, type RuleLabel } from '../../../sim/rule-places.js';
import { printable } from '../../../terminal-text.js';
import { loadConfiguration, sampleListSaid } from '../../configuration.js';
import { warnIf, writeOutput } from '../../output.js';
import { failed, type DiffSide, type FailOn } from './sides.js';

export interface StaticDiffFlags {
  format: 'text' | 'json' | 'ndjson' | 'markdown';
  failOn: FailOn;
  out?: string;
  summary?: string;
  lists?: string;
}

const sideText = (s: Difference['before'], label: RuleLabel): string => (s.rule === null ? `${s.verdict} (no rule)` : `${s.verdict} by ${printable(label(s.rule))}`);
const classes = (n: number): string => `${counted(n, 'class', 'classes')} of packets`;

type Labels = { before: RuleLabel; after: RuleLabel };

function formatUnsettled(c: Comparison, labels: Labels): string[] {
  return c.indeterminate.map((u) => `${sideText(u.before, labels.before)} -> ${sideText(u.after, labels.after)}: indeterminate: ${u.reason}`);
}

function formatComparison(c: Comparison, before: string, after: string, labels: Labels): string {
  if (c.differences.length === 0) {
    if (c.indeterminate.length === 0) return `${before} and ${after} decide every packet the same way, by the same rules\n`;
    return `${[`no class of packets is proved to be decided differently, but ${counted(c.indeterminate.length, 'pair')} of rules could not be settled:`, ...formatUnsettled(c, labels)].join('\n')}\n`;
  }
  const changed = c.differences.filter((d) => d.verdict_changed).length;
  const moved = c.differences.length - changed;
  const lines = [
    changed === 0
      ? `the same verdicts; ${classes(moved)} ${moved === 1 ? 'is' : 'are'} decided by other rules:`
      : `${classes(changed)} change verdict${moved === 0 ? '' : `; ${classes(moved)} keep it but ${moved === 1 ? 'is' : 'are'} decided by other rules`}:`,
  ];
  for (const d of c.differences) {
    lines.push(`${sideText(d.before, labels.before)} -> ${sideText(d.after, labels.after)}${d.verdict_changed ? '' : ' (same verdict)'}${d.certain ? '' : ' (possibly: unmodelled parts decide)'}`);
    lines.push(`  packet: ${printable(JSON.stringify(d.witness))}`);
  }
  return `${[...lines, ...formatUnsettled(c, labels)].join('\n')}\n`;
}

async function load(side: DiffSide, lists: string | undefined, places: boolean): Promise<{ snapshot: Snapshot; options: ModelOptions; locate: RefLocator; label: RuleLabel; notes: readonly string[] }> {
  const { snapshot, source, locate, notes } = await loadConfiguration(side.flags, { ...side.options, places: side.options.places === true && places });
  try {
    checkExpressions(snapshot);
    const registry = createListRegistry({ dir: lists, accountLists: snapshot.lists, onSample: sampleListSaid });
    return { snapshot, options: { lists: (n) => registry.resolve(n) }, locate: refLocator(snapshot, locate), label: ruleLabels(snapshot), notes: notes ?? [] };
  } catch (err) {
    throw attachSource(err, source);
  }
}

export async function runStaticDiff(before: DiffSide, after: DiffSide, flags: StaticDiffFlags): Promise<void> {
  // rules' places are in the markdown report only (as output or job summary)
  const places = flags.format === 'markdown' || summaryFile(flags.summary) !== undefined;
  const a = await load(before, flags.lists, places);
  const b = await load(after, flags.lists, places);
  const c = compareRulesets(a.snapshot, b.snapshot, { a: a.options, b: b.options });
  const notes = [...new Set([...a.notes, ...b.notes])];
  const markdown = (): string => staticDiffMarkdown(c, { before: { name: before.name, locate: a.locate, label: a.label }, after: { name: after.name, locate: b.locate, label: b.label } }, notes);
  if (flags.format === 'markdown') writeOutput(flags.out, markdown());
  else if (flags.format === 'json') writeOutput(flags.out, `${JSON.stringify(c, null, 2)}\n`);
  else if (flags.format === 'ndjson') writeOutput(flags.out, [...c.differences, ...c.indeterminate].map((d) => `${JSON.stringify(d)}\n`).join(''));
  else writeOutput(flags.out, formatComparison(c, before.name, after.name, { before: a.label, after: b.label }));
  const summary = summaryFile(flags.summary);
  if (summary !== undefined) warnIf(appendJobSummary(markdown(), summary));
  process.exitCode = failed(flags.failOn, { decision: !c.same_deciding_rules, verdict: !c.same_verdicts }) ? 1 : 0;
}
