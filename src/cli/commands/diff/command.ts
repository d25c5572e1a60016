// `edgesim diff`: what a configuration change does to a capture's verdicts. Options and help only;
// the work is in capture.ts, loaded when the command runs.
import { Option, type Command } from 'commander';
import { addAtpOptions, addDataOptions } from '../../options.js';
import type { CaptureDiffFlags } from './capture.js';

export function register(program: Command): void {
  const cmd = program
    .command('diff')
    .description('show the packets of a capture that two configurations decide differently (exit 1 when any)')
    .argument('<capture>', 'the capture file ("-" reads standard input, e.g. from edgesim synth --out -)')
    .requiredOption('-c, --config <before.json>', 'the configuration before the change')
    .requiredOption('--against <after.json>', 'the configuration after the change')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['table', 'json', 'ndjson']).default('table'))
    .option('-o, --out <file>', 'write the output here instead of stdout')
    .option('--write-changed <file.pcap>', 'write the changed frames to this pcap file');
  addDataOptions(cmd);
  addAtpOptions(cmd);
  cmd.addHelpText(
    'after',
    `
A packet counts as changed when its verdict, its deciding rule or its deciding stage differs.
ndjson: one line per changed frame, {"frame", "time", "before": {"verdict", "rule", "stage"}, "after": {...}}.
Exit status: 0 nothing changed, 1 something changed, 2 error (as diff(1)).

Examples:
  edgesim diff examples/demo.pcap --config before.json --against after.json
  edgesim diff big.pcap -c before.json --against after.json --format ndjson --write-changed changed.pcap
  edgesim synth mixed --out - | edgesim diff - -c before.json --against after.json`,
  );
  cmd.action(async (capture: string, flags: CaptureDiffFlags & { config: string; against: string }) =>
    (await import('./capture.js')).runCaptureDiff(capture, flags.config, flags.against, flags),
  );
}
