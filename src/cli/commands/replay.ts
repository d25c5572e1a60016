import { Command, Option } from 'commander';
import type { Firewall } from '../../firewall/firewall.js';
import { replay } from '../../sim/replay.js';
import { NdjsonSink, CsvSink, PcapVerdictSink, type PacketSink } from '../../sim/outputs/packet-sinks.js';
import { TextSink } from '../../sim/outputs/text-sink.js';
import { formatSummary } from '../../sim/outputs/summary-table.js';
import { loadConfiguration, addConfigOptions, addDataOptions, asCliError, dataOptions, type ConfigFlags, type DataFlags } from '../config-options.js';
import { progressReporter } from '../progress.js';
import { writeFileSync } from 'node:fs';

interface ReplayFlags extends ConfigFlags, DataFlags {
  format: 'table' | 'json' | 'ndjson' | 'csv';
  out?: string;
  writePassed?: string;
  writeDropped?: string;
  labels: boolean;
  progress: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('replay')
    .description('replay a capture (pcap, pcapng, optionally gzipped) through a configuration and report what passes, what drops, and why')
    .argument('<capture>', 'the capture file')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['table', 'json', 'ndjson', 'csv']).default('table'))
    .option('-o, --out <file>', 'write the output here instead of stdout')
    .option('--write-passed <file>', 'write the packets that pass to this pcap file')
    .option('--write-dropped <file>', 'write the packets that drop to this pcap file')
    .option('--no-labels', "ignore the capture's label sidecar (<capture>.labels.ndjson)")
    .option('--no-progress', 'no progress bar on a terminal');
  addConfigOptions(cmd);
  addDataOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Formats: table (a summary for people), json (the summary as one JSON object), ndjson (one object per
packet: frame, time, verdict, stage, rule, matched, monitor, reason), csv (one row per packet).
With ndjson or csv a one-line summary goes to stderr.

Examples:
  edgesim replay examples/demo.pcap --config examples/demo-snapshot.json
  edgesim replay attack.pcapng --api http://127.0.0.1:8787/client/v4 --account acc1 --format ndjson | jq 'select(.verdict=="drop")'
  edgesim replay big.pcap.gz --config snap.json --write-dropped dropped.pcap`,
  );
  cmd.action(async (capture: string, flags: ReplayFlags) => {
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
        for (const w of warnings) process.stderr.write(`edgesim: warning: ${w}\n`);
        process.stderr.write(`edgesim: ${report.packets} packets: ${report.passed} passed, ${report.dropped} dropped\n`);
      }
    } catch (err) {
      progress?.stop();
      throw asCliError(err, flags);
    }
  });
}

function writeOutput(out: string | undefined, text: string): void {
  if (out === undefined || out === '-') process.stdout.write(text);
  else writeFileSync(out, text);
}
