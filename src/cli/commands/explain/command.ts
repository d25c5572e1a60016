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
      `
A translation selects exactly the packets the expression matches, or is refused with the reason.
The display filter follows IPv6 extension headers as edgesim does, and is exact with IP reassembly
off (tshark -o ip.defragment:FALSE -o ipv6.defragment:FALSE): edgesim reads each frame alone. BPF
cannot follow them: it translates addresses and the TTL; ip.proto, ports, TCP flags and ICMP fields
are refused.

Examples:
  edgesim explain 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {80 443}'
  edgesim explain --bpf 'ip.src in {10.0.0.0/8} and ip.ttl < 64'
  tcpdump -r capture.pcap "$(edgesim explain --bpf 'ip.dst == 203.0.113.10')"
  tshark -o ip.defragment:FALSE -o ipv6.defragment:FALSE -r capture.pcap -Y "$(edgesim explain --display-filter 'tcp.dstport == 22')"
  edgesim explain --display-filter 'ip.src.country == "CN"'   # no equivalent: says why, exit 1`,
    )
    .action(async (arg: string | undefined, flags: ExplainFlags) => (await import('./action.js')).run(arg, flags));
}
