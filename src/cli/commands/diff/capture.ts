// `edgesim diff CAPTURE --config A --against B` (or --plan PLAN.json): the capture decided by both
// configurations, the frames decided differently reported as a table, JSON, NDJSON or a
// pull-request report (markdown, which also goes to the job summary), optionally written to a pcap.
// Exit 0 when nothing changed, 1 when a packet is decided differently (as diff(1)) — with --fail-on
// verdict, only when a verdict changes; errors exit 2 through main.
import { attachSource, UsageError } from '../../../errors.js';
import { diffMarkdown } from '../../../review/diff-report.js';
import { appendJobSummary, summaryFile } from '../../../review/job-summary.js';
import { compilePath } from '../../../sim/build.js';
import type { CompiledPath } from '../../../sim/compiled-path.js';
import { diffCapture } from '../../../sim/diff.js';
import { diffJson, diffLine, fieldKeys, formatDiff } from '../../../sim/outputs/diff-report.js';
import { FramePcap } from '../../../sim/outputs/packet-sinks.js';
import { TextSink } from '../../../sim/outputs/text-sink.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import { refLocator, ruleLabels, type RefLocator, type RuleLabel } from '../../../sim/rule-places.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { DataFlags } from '../../options.js';
import { failed, type DiffSide, type FailOn } from './sides.js';
import { printWarnings, warnIf, writeOutput } from '../../output.js';
import { distinctCaptures } from '../../paths.js';
import { counted, groupDigits } from '../../../numbers.js';

export interface CaptureDiffFlags extends DataFlags {
  format: 'text' | 'json' | 'ndjson' | 'markdown';
  failOn: FailOn;
  out?: string;
  summary?: string;
  writeChanged?: string;
  /** with ndjson: the packet's own fields after the decisions, comma-separated */
  fields?: string;
}

/** One side of the diff: its compiled path, and where its rules are written. */
async function sideFor(side: DiffSide, flags: CaptureDiffFlags): Promise<{ path: CompiledPath; locate: RefLocator; label: RuleLabel; notes: readonly string[] }> {
  const config = await loadConfiguration(side.flags, { ...side.options, places: side.options.places === true && reportsPlaces(flags) });
  const path = await compilePath(config.snapshot, dataOptions(flags)).catch((err: unknown) => {
    throw attachSource(err, config.source);
  });
  return { path, locate: refLocator(config.snapshot, config.locate), label: ruleLabels(config.snapshot), notes: config.notes ?? [] };
}

/** Whether the output names rules' places (the markdown report, as output or job summary), so that they are worth reading .tf files for. */
const reportsPlaces = (flags: CaptureDiffFlags): boolean => flags.format === 'markdown' || summaryFile(flags.summary) !== undefined;

export async function runCaptureDiff(captures: string[], before: DiffSide, after: DiffSide, flags: CaptureDiffFlags): Promise<void> {
  distinctCaptures(captures);
  const sideA = await sideFor(before, flags);
  const sideB = await sideFor(after, flags);
  const [a, b] = [sideA.path, sideB.path];
  const input = await OpenCapture.open(captures);
  const files = input.fileNames;
  if (flags.fields !== undefined && flags.format !== 'ndjson') throw new UsageError('--fields goes with --format ndjson');
  const fields = flags.fields === undefined ? undefined : fieldKeys(flags.fields.split(',').map((name) => name.trim()));
  const lines = flags.format === 'ndjson' ? new TextSink(flags.out) : undefined;
  const pcap = flags.writeChanged === undefined ? undefined : new FramePcap(flags.writeChanged);
  let result;
  try {
    result = await diffCapture(input, a, b, {
      onChange: (v, x, y) => {
        lines?.write(diffLine(v, x, y, fields?.(v), files));
        pcap?.write(v.record);
      },
    });
  } finally {
    lines?.close();
    await pcap?.close();
  }
  const warnings = [...a.warnings, ...b.warnings.filter((w) => !a.warnings.includes(w)), ...(pcap?.warnings() ?? [])];
  const sides = { before: { name: before.name, locate: sideA.locate, label: sideA.label }, after: { name: after.name, locate: sideB.locate, label: sideB.label } };
  // the pull-request comment stands alone: it says what reading the configurations said on standard error
  const notes = [...new Set([...sideA.notes, ...sideB.notes])];
  const markdown = (): string => diffMarkdown(result, sides, [...notes, ...warnings, ...result.info.warnings]);
  if (flags.format === 'text') writeOutput(flags.out, formatDiff(result, [...warnings, ...result.info.warnings], { before: sideA.label, after: sideB.label }));
  else if (flags.format === 'json') writeOutput(flags.out, diffJson(result, warnings));
  else if (flags.format === 'markdown') writeOutput(flags.out, markdown());
  else {
    printWarnings(undefined, warnings);
    printWarnings(input.warningSource, result.info.warnings);
    process.stderr.write(`edgesim: ${groupDigits(result.changed)} of ${counted(result.packets, 'packet')} decided differently\n`);
  }
  const summary = summaryFile(flags.summary);
  if (summary !== undefined) warnIf(appendJobSummary(markdown(), summary));
  process.exitCode = failed(flags.failOn, { decision: result.changed > 0, verdict: result.groups.some((g) => g.before.verdict !== g.after.verdict) }) ? 1 : 0;
}
