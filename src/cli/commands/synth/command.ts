// `edgesim synth SCENARIO|SPEC.json --out FILE`: options and help; the generator runs in action.ts.
// The scenario names are listed here so that help loads no capture code; a test keeps them equal to
// the generator's own list.
import type { Command } from 'commander';
import { addConfigOptions } from '../../options.js';
import type { SynthFlags } from './action.js';

export const SCENARIO_NAMES = ['handshakes', 'syn-flood', 'ack-flood', 'mixed', 'geo'] as const;

export function register(program: Command): void {
  const cmd = program
    .command('synth')
    .description('write a synthetic capture (pcap) and its labels from a scenario or a JSON flow spec')
    .argument('<scenario>', `a scenario (${SCENARIO_NAMES.join(', ')}) or a flow spec file (.json)`)
    .option('-o, --out <file>', 'the pcap to write (- for stdout); labels go to <file>.labels.ndjson')
    .option('--seed <n>', 'random seed: the same seed gives the same bytes (default 1)')
    .option('--packets <n>', 'packets in all (default 10000); in a flow spec, what its share-sized parts divide')
    .option('--duration <seconds>', 'length of the capture (default 60)')
    .option('--start <time>', 'time of the first second: ISO 8601 or seconds since the epoch (default 2024-01-01T00:00:00Z)')
    .option('--countries <codes>', 'source countries of the legitimate traffic, e.g. US,DE,BR (geo default: US,DE,BR)')
    .option('--servers <cidrs>', "where a scenario's traffic goes, attacks included: addresses or CIDRs, e.g. 192.0.2.0/24,2001:db8::/48 (default: the demo's 203.0.113.0/24 and 2001:db8:ffff::/48 hosts)")
    .option('--labels <file>', 'write the labels here instead of <out>.labels.ndjson')
    .option('--no-labels', 'write no label sidecar')
    .option('--nanosecond', 'write a nanosecond pcap (default microsecond)')
    .option('--print-spec', 'print the scenario as a JSON flow spec (every default filled in, with its description) and exit');
  addConfigOptions(cmd);
  cmd
    .addHelpText(
      'after',
      `
A flow spec lists parts, e.g.
  {"packets": 5000, "parts": [{"kind": "handshake", "share": 0.9}, {"kind": "dns"}, {"kind": "syn-flood", "rate": 500, "start": 10, "duration": 5}]}
Shares are of --packets and add up to 1; a part without a size takes what they leave (dns here).
Run with --print-spec on a scenario to see what it holds and every key.
With --config (or --api), synth warns when the capture's traffic, or an attack part of it, goes to
no protected prefix of that configuration: Advanced TCP Protection would never see it.

Examples:
  edgesim synth syn-flood --out flood.pcap --packets 50000
  edgesim synth syn-flood --servers 192.0.2.0/24 --config my-snapshot.json --out flood.pcap
  edgesim synth mixed --out - | edgesim replay - --config examples/demo-snapshot.json`,
    )
    .action(async (source: string, flags: SynthFlags) => (await import('./action.js')).run(source, flags));
}
