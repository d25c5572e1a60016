import type { Command } from 'commander';
import { addConfigOptions, addDataOptions, type ConfigFlags, type DataFlags } from '../config-options.js';

export interface MatchFlags extends ConfigFlags, DataFlags {
  count?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('match')
    .description('print the frame numbers of the packets a Rules-language expression matches, one a line')
    .argument('<capture>', 'the capture file')
    .argument('<expression>', 'a firewall-phase Rules-language expression')
    .option('--count', 'print only how many packets matched');
  addConfigOptions(cmd);
  addDataOptions(cmd);
  cmd.addHelpText('after', `\nAccount lists ($name) come from --config or --api; managed lists ($svc.*) from the bundled samples or --lists.\n\nExample:\n  edgesim match examples/demo.pcap 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport == 80' --count`);
  cmd.action(async (capture: string, expression: string, flags: MatchFlags) => (await import('../actions/match.js')).runMatch(capture, expression, flags));
}
