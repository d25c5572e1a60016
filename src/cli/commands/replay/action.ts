// `edgesim replay`, run: load the configuration, build the path, open the capture, replay it into
// the chosen outputs, print the summary.
import { atpWarnings } from '../../../atp/index.js';
import { attachSource, UsageError } from '../../../errors.js';
import { counted, groupDigits } from '../../../numbers.js';
import type { Run } from '../../../sim/run.js';
import { compilePath } from '../../../sim/build.js';
import { engineWarnings } from '../../../sim/engine-counts.js';
import type { PacketSink } from '../../../sim/outputs/packet-sinks.js';
import { OpenCapture } from '../../../sim/packet-loop.js';
import type { Jobs } from '../../../sim/jobs/threads.js';
import { replay } from '../../../sim/replay.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import { Interrupts } from '../../interrupt.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings, refusePageOnTerminal, writeOutput } from '../../output.js';
import { distinctCaptures } from '../../paths.js';
import { progressReporter } from '../../progress.js';

export interface ReplayFlags extends ConfigFlags, DataFlags {
  format: 'table' | 'json' | 'ndjson' | 'csv' | 'html';
  out?: string;
  fields?: string;
  writePassed?: string;
  writeDropped?: string;
  labels: boolean;
  progress: boolean;
  jobs: Jobs;
}

export async function run(captures: string[], flags: ReplayFlags): Promise<void> {
  distinctCaptures(captures);
  if (flags.format === 'html') refusePageOnTerminal(flags.out);
  if (flags.fields !== undefined && flags.format !== 'ndjson' && flags.format !== 'csv') throw new UsageError('--fields goes with --format ndjson or csv');
  // the per-packet outputs' code is loaded only when one is asked for (start-up time)
  const perPacket = flags.format === 'ndjson' || flags.format === 'csv' || flags.writePassed !== undefined || flags.writeDropped !== undefined;
  const outputs = perPacket ? await perPacketOutputs() : null;
  const extra = outputs?.recordFieldColumns(flags.fields?.split(',').map((name) => name.trim()) ?? []) ?? [];
  const config = await loadConfiguration(flags);
  const path = await compilePath(config.snapshot, dataOptions(flags)).catch((err: unknown) => {
    throw attachSource(err, config.source);
  });
  const input = await OpenCapture.open(captures);
  const progress = flags.progress && !captures.includes('-') ? await progressReporter(input.merged ? `${captures.length} captures` : input.name) : undefined;
  const sinks = (run: Run): PacketSink[] => {
    const firewall = run.path.firewall;
    const list: PacketSink[] = [];
    if (outputs === null) return list;
    const { CsvSink, NdjsonSink, PcapVerdictSink, TextSink } = outputs;
    if (flags.format === 'ndjson') list.push(new NdjsonSink(new TextSink(flags.out), firewall, extra, input.fileNames));
    if (flags.format === 'csv') list.push(new CsvSink(new TextSink(flags.out), firewall, extra, input.fileNames));
    if (flags.writePassed) list.push(new PcapVerdictSink(flags.writePassed, false));
    if (flags.writeDropped) list.push(new PcapVerdictSink(flags.writeDropped, true));
    return list;
  };
  // Ctrl-C ends the read: the outputs are finished and the summary says what was replayed
  const interrupts = new Interrupts();
  try {
    // the compiled lane reads only the fields the rules use: --fields asks for every packet decoded
    const fastPath = extra.length === 0;
    const { report, warnings } = await replay(input, path, { sinks, fastPath, useLabels: flags.labels, onProgress: progress?.update, jobs: flags.jobs, interrupt: interrupts.signal });
    progress?.stop();
    // protection that did nothing for a reason the user can fix is said on stderr whatever the format,
    // unless the table that says it under its scope is on the same terminal
    const tableOnTerminal = flags.format === 'table' && flags.out === undefined && process.stdout.isTTY === true;
    if (report.atp !== null && !tableOnTerminal) printWarnings(undefined, atpWarnings(report.atp));
    // so is a ruleset that sends many frames back through the decoder and evaluator (engine counts)
    const lanes = engineWarnings(report.engine);
    if (tableOnTerminal) warnings.push(...lanes);
    else printWarnings(undefined, lanes);
    // each format's code is loaded only when it is asked for (start-up time)
    if (flags.format === 'table') writeOutput(flags.out, (await import('../../../sim/outputs/summary-table.js')).formatSummary(report, warnings));
    else if (flags.format === 'json') writeOutput(flags.out, `${JSON.stringify({ ...report, configuration: config.source ?? null, warnings }, null, 2)}\n`);
    else if (flags.format === 'html') writeOutput(flags.out, (await import('../../../report/render.js')).renderHtmlReport({ ...report, configuration: config.source ?? null, warnings }));
    else {
      printWarnings(undefined, warnings);
      printWarnings(input.warningSource, report.capture.warnings);
      process.stderr.write(`edgesim: ${counted(report.packets, 'packet')}: ${groupDigits(report.passed)} passed, ${groupDigits(report.dropped)} dropped\n`);
    }
  } finally {
    progress?.stop();
    const exitCode = interrupts.end();
    if (exitCode !== undefined) process.exitCode = exitCode;
  }
}

/** The code of the per-packet outputs (NDJSON, CSV, the pcap files of --write-passed and --write-dropped). */
async function perPacketOutputs() {
  const [fields, sinks, text] = await Promise.all([
    import('../../../sim/outputs/packet-fields.js'),
    import('../../../sim/outputs/packet-sinks.js'),
    import('../../../sim/outputs/text-sink.js'),
  ]);
  return { recordFieldColumns: fields.recordFieldColumns, CsvSink: sinks.CsvSink, NdjsonSink: sinks.NdjsonSink, PcapVerdictSink: sinks.PcapVerdictSink, TextSink: text.TextSink };
}
