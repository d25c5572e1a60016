// `edgesim trace`: options and help; the work is in action.ts, loaded when the command runs.
import type { Command } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, wholeNumberOf, readOption } from '../../options.js';
import type { TraceFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('trace')
    .description('follow one packet through the packet path: each stage, and each firewall rule in order (matched, action, decided)')
    .argument('[input...]', 'field=value assignments (Rules-language names), or a capture with --frame')
    .addOption(readOption())
    .option('--packet <file>', 'a packet (or a list of packets, the last one traced) as a suite writes it, in YAML or JSON')
    .option('--frame <n>', 'trace frame N of the capture given as the argument (earlier frames are replayed first)', wholeNumberOf('frames'))
    .option('--json', 'JSON output (the default when stdout is not a terminal)')
    .option('--table', 'table output (the default on a terminal)');
  addConfigOptions(cmd);
  addDataOptions(cmd);
  addAtpOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Fields not given take the defaults of a typical packet (see \`edgesim test --help\`): a TCP SYN from
198.51.100.20:49152 to 203.0.113.10:80, ttl 64. Values are written as in a suite: numbers, true/false,
addresses and names as text. Looked-up fields (ip.src.country, cf.colo.name, ...) override the lookups.

JSON output: {frame, time, verdict, stage, rule, reason, matched, monitor, fields, steps: [{step_name,
type: "stage", reached, decided, action, detail, trace: [{step_name, type: "rule", action, expression,
enabled, tried, matched, decided}]}]}.

Examples:
  edgesim trace --config examples/demo-snapshot.json ip.src=192.0.2.1 tcp.dstport=22
  edgesim trace --config examples/demo-snapshot.json ip.src=198.51.100.7 ip.proto=udp udp.dstport=53 --json
  edgesim trace --config examples/demo-snapshot.json --packet handshake.yaml
  edgesim trace --config examples/demo-snapshot.json examples/demo.pcap --frame 17`,
  );
  cmd.action(async (input: string[], flags: TraceFlags) => (await import('./action.js')).run(input, flags));
}
