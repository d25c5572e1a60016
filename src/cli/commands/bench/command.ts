// `edgesim bench CAPTURE --config C.json`: what a ruleset costs on a capture (or on synthetic
// traffic), and which rules cost most; options and help here, the work in action.ts.
import type { Command } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, wholeNumberOf, errorsExitWith, readOption } from '../../options.js';
import type { BenchFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('bench')
    .description("measure a ruleset on a capture: packets/s of the whole path and of the firewall alone, each rule's cost, never-hit rules, reordering advice")
    .argument('[capture]', 'the capture file (pcap, pcapng, optionally gzipped); or use --scenario')
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
    .option('--threshold <percent>', 'with --compare: how much slower (median against median) a row may be (default 10)', wholeNumberOf('percent'))
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
clock, so other programs on the machine do not slow the figures). --compare calls a row slower only
when its samples differ from the saved ones by more than their noise (Mann-Whitney U test, p < 0.01)
and its median by more than --threshold; a difference within the noise is "inconclusive". The figures
--save keeps and --compare judges are pooled from 3 processes (this one and two more running the same
command), since one process's samples move together with its state.
Per rule, in evaluation order: evaluations (packets that reached it), matches (as replay counts
hits: a packet protection drops never reaches the firewall), ns per evaluation, total, share of the
firewall's time; the table lists the costliest rules first. With tcpdump and
tshark installed and a ruleset that translates (see \`edgesim explain --bpf\`), they run on the same
file with the equivalent filter, as ratios.

Examples:
  edgesim bench examples/demo.pcap --config examples/demo-snapshot.json
  edgesim bench --scenario mixed --packets 200000 --config snap.json --json
  edgesim bench big.pcap --config snap.json --save before.json
  edgesim bench big.pcap --config snap.json --compare before.json --threshold 15   # exit 1 if slower`,
  );
  cmd.action(async (capture: string | undefined, flags: BenchFlags) => (await import('./action.js')).run(capture, flags));
}
