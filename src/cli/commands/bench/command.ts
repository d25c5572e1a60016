// `edgesim bench CAPTURE --config C.json`: what a ruleset costs on a capture (or on synthetic
// traffic), and which rules cost most; options and help here, the work in action.ts.
import type { Command } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, configOption, wholeNumberOf, errorsExitWith, readOption } from '../../options.js';
import type { BenchFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('bench')
    .description("measure a ruleset on a capture: packets/s of the whole path and of the firewall alone, each rule's cost, never-hit rules, reordering advice")
    .argument('[capture...]', 'the capture file (pcap, pcapng, optionally gzipped), or several, merged by time (tcpdump and tshark read them one after the other); or use --scenario')
    .addOption(readOption())
    .option('--scenario <name>', 'synthetic traffic instead of a capture (a scenario of `edgesim synth`, or a flow spec .json)')
    .option('--packets <n>', 'packets to generate with --scenario (default 100000)', wholeNumberOf('packets'))
    .option('--seed <n>', 'seed of the generated traffic', wholeNumberOf('seed'))
    .option('--limit <n>', 'hold at most this many packets of the capture in memory (default 300000; about 1.5 KB each)', wholeNumberOf('packets'))
    .option('--runs <n>', 'at least this many timed samples per figure; the median is reported with the spread (default 5)', wholeNumberOf('runs'))
    .option('--min-time <ms>', 'and at least this much CPU time measured per figure, in milliseconds (default 50)', wholeNumberOf('ms'))
    .option('--json', 'print the report as one JSON object')
    .option('-o, --out <file>', 'write the report here instead of stdout')
    .option('--save <file>', 'save the figures (throughput and each rule) for a later --compare')
    .option('--compare <file>', 'compare with figures saved by --save: each row faster, slower or inconclusive (within its noise); exit 1 when one is significantly slower than --threshold')
    .addOption(configOption('--against <after.json>', "measure this configuration too, in processes alternating with --config's, and compare it with --config's figures; exit 1 when a row is significantly slower than --threshold (repeat to merge files)"))
    .option('--threshold <percent>', 'with --compare or --against: how much slower (median against median) a row may be (default 10)', wholeNumberOf('percent'))
    .option('--processes <n>', 'with --save, --compare or --against: measure each configuration in this many processes, each a unit of the comparison (default and least 5)', wholeNumberOf('processes'))
    .option('--no-peers', 'do not run tcpdump and tshark beside edgesim');
  addConfigOptions(cmd);
  addDataOptions(cmd);
  addAtpOptions(cmd);
  errorsExitWith(cmd, 2);
  cmd.addHelpText(
    'after',
    `
The capture is read into memory once; each figure is the median of its timed samples (min - max
shown): at least --runs of them and at least --min-time of the process's CPU time (not the wall
clock, so other programs on the machine do not slow the figures). The figures --save keeps and
--compare judges are measured in --processes processes (this one and more running the same command),
each keeping its median: one process's samples move together with its state, so the process is the
unit. --compare calls a row slower only when the processes' medians differ from the saved ones
(Mann-Whitney U test, p < 0.01) by a ratio beyond their spread on either side (max / min: the
machine's load scales CPU time between runs) and by more than --threshold; a difference within the noise is
"inconclusive", shown with the spread. --against measures both configurations now, their processes
alternating, so the load's changes hit both alike and the test and --threshold decide: the gate to
use on a shared machine.
Per rule, in evaluation order: evaluations (packets that reached it), matches (as replay counts
hits: a packet protection drops never reaches the firewall), ns per evaluation, total, share of the
firewall's time; the table lists the costliest rules first. With tcpdump and
tshark installed and a ruleset that translates (see \`edgesim explain --bpf\`), they run on the same
file with the equivalent filter, as ratios.

Examples:
  edgesim bench examples/demo.pcap --config examples/demo-snapshot.json
  edgesim bench --scenario mixed --packets 200000 --config snap.json --json
  edgesim bench big.pcap --config snap.json --save before.json
  edgesim bench big.pcap --config snap.json --compare before.json --threshold 15   # exit 1 if slower
  edgesim bench big.pcap --config main.json --against pr.json --threshold 25 --no-peers`,
  );
  cmd.action(async (captures: string[], flags: BenchFlags) => (await import('./action.js')).run(captures, flags));
}
