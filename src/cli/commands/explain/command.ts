// `edgesim explain EXPR`: like Wireshark's dftest — the tokens with byte offsets, the typed syntax
// tree, and what each comparison compiles to. An invalid expression prints the engine's error
// message on stdout and exits 1, as `validate` does. --bpf and --display-filter print the
// expression's exact equivalent for tcpdump and tshark -Y instead, or say why there is none.
import type { Command } from 'commander';
import { schemeOption } from '../../options.js';
import type { ExplainFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('explain')
    .description('show the tokens, typed syntax tree and compiled plan of a Rules-language expression')
    .argument('[expression]', 'the expression; "-" or nothing reads it from stdin')
    .addOption(schemeOption())
    .option('--bpf', 'print the equivalent tcpdump (BPF) filter, or why there is none')
    .option('--display-filter', 'print the equivalent Wireshark display filter (tshark -Y), or why there is none')
    .addHelpText(
      'after',
      `\nExamples:\n  edgesim explain 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {80 443}'\n  edgesim explain --bpf 'udp.dstport == 53 and ip.src in {10.0.0.0/8}'\n  tcpdump -r capture.pcap "$(edgesim explain --bpf 'tcp.dstport == 22')"\n  edgesim explain --display-filter 'ip.src.country == "CN"'   # no equivalent: says why, exit 1`,
    )
    .action(async (arg: string | undefined, flags: ExplainFlags) => (await import('./action.js')).run(arg, flags));
}
