// `edgesim match CAPTURE EXPR`: options and help; the work is in action.ts, loaded when run.
import type { Command } from 'commander';
import { addConfigOptions, addDataOptions, jobsOption, readOption } from '../../options.js';
import type { MatchFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('match')
    .description('print the frame numbers of the packets a Rules-language expression matches, one a line')
    .usage('[options] <capture...> <expression>')
    .argument('<capture...>', 'the capture file ("-" reads standard input), or several, merged by time (frames are then printed as FILE:FRAME); then, last, the expression: a firewall-phase Rules-language expression')
    .addOption(readOption())
    .option('--count', 'print only how many packets matched')
    .addOption(jobsOption('count'));
  addConfigOptions(cmd);
  addDataOptions(cmd);
  cmd.addHelpText(
    'after',
    `\nAccount lists ($name) come from --config or --api; managed lists ($svc.*) from the bundled samples or --lists.\n\nWith --count, a classic pcap file is counted in byte ranges on several threads (--jobs), as replay\ndoes, and the count is the one-thread count; the frames themselves are printed in order, on one thread.\n\nExample:\n  edgesim match examples/demo.pcap 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport == 80' --count`,
  );
  cmd.action(async (args: string[], flags: MatchFlags) => {
    // the expression is the last argument (only the last argument of a command can take several values)
    if (args.length < 2) cmd.error("error: missing required argument 'expression'", { exitCode: 2, code: 'commander.missingArgument' });
    return (await import('./action.js')).run(args.slice(0, -1), args.at(-1)!, flags);
  });
}
