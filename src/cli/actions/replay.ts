// `edgesim replay`, run: load the configuration, replay the capture, print the chosen output.
import { writeFileSync } from 'node:fs';
import type { Firewall } from '../../firewall/firewall.js';
import { CsvSink, NdjsonSink, PcapVerdictSink, type PacketSink } from '../../sim/outputs/packet-sinks.js';
import { formatSummary } from '../../sim/outputs/summary-table.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import { replay } from '../../sim/replay.js';
import type { ReplayFlags } from '../commands/replay.js';
import { CliError } from '../errors.js';
import { progressReporter } from '../progress.js';
import { asCliError, dataOptions, loadConfiguration, printWarnings } from './configuration.js';

export async function runReplay(capture: string, flags: ReplayFlags): Promise<void> {
  const snapshot = await loadConfiguration(flags);
  const progress = flags.progress ? progressReporter(capture) : undefined;
  const sinks = (firewall: Firewall): PacketSink[] => {
    const list: PacketSink[] = [];
    if (flags.format === 'ndjson') list.push(new NdjsonSink(new TextSink(flags.out), firewall));
    if (flags.format === 'csv') list.push(new CsvSink(new TextSink(flags.out), firewall));
    if (flags.writePassed) list.push(new PcapVerdictSink(flags.writePassed, false));
    if (flags.writeDropped) list.push(new PcapVerdictSink(flags.writeDropped, true));
    return list;
  };
  try {
    const { report, warnings } = await replay({ capture, snapshot, sinks, useLabels: flags.labels, onProgress: progress?.update, ...dataOptions(flags) });
    progress?.stop();
    if (flags.format === 'table') writeOutput(flags.out, formatSummary(report, warnings));
    else if (flags.format === 'json') writeOutput(flags.out, `${JSON.stringify({ ...report, warnings }, null, 2)}\n`);
    else {
      printWarnings(undefined, warnings);
      printWarnings(capture, report.capture.warnings);
      process.stderr.write(`edgesim: ${report.packets} packets: ${report.passed} passed, ${report.dropped} dropped\n`);
    }
  } catch (err) {
    progress?.stop();
    throw asCliError(err, flags);
  }
}

function writeOutput(out: string | undefined, text: string): void {
  if (out === undefined || out === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(out, text);
  } catch (err) {
    throw new CliError(`${out}: cannot write: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
