import { Command, Option } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, type ConfigFlags, type DataFlags } from '../config-options.js';

export interface ReplayFlags extends ConfigFlags, DataFlags {
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
  addAtpOptions(cmd);
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
  cmd.action(async (capture: string, flags: ReplayFlags) => (await import('../actions/replay.js')).runReplay(capture, flags));
}
