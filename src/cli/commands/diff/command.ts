// `edgesim diff`: what a configuration change does to a capture's verdicts, or (--static) to every
// possible packet. Options and help only; the work is in action.ts (which picks capture.ts or static.ts),
// loaded when the command runs.
import { Option, type Command } from 'commander';
import { accountOption, addAtpOptions, addDataOptions, configFormatOption, configOption, errorsExitWith, planOption, readOption, tfDirOption } from '../../options.js';
import type { DiffFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('diff')
    .description('show the packets of a capture (or, with --static, the classes of all packets) that two configurations decide differently (exit 1 when any)')
    .argument('[capture...]', 'the capture file ("-" reads standard input, e.g. from edgesim synth --out -), or several, merged by time (frames are then named FILE:FRAME, and ndjson lines have "file"); with --static: BEFORE.json AFTER.json')
    .addOption(readOption())
    .addOption(configOption('-c, --config <before.json>', 'the configuration before the change (any format --config reads elsewhere; repeat to merge files; with --plan: files added to both sides)'))
    .addOption(configOption('--against <after.json>', 'the configuration after the change (repeat to merge files)'))
    .addOption(planOption("compare its changes' before and after sides, instead of --config and --against"))
    .addOption(configFormatOption())
    .addOption(tfDirOption())
    .addOption(accountOption())
    .option('--static', 'compare the two snapshots\' firewalls over every possible packet, without a capture')
    .addOption(new Option('-f, --format <format>', 'output format: text (table is the same), json, ndjson, or markdown (a pull-request comment, under 65,000 characters)').choices(['text', 'table', 'json', 'ndjson', 'markdown']).default('text'))
    .addOption(new Option('--fail-on <change>', 'what makes the exit status 1: decision (a packet decided differently: its verdict, or only its deciding rule or stage) or verdict (a verdict changes)').choices(['decision', 'verdict']).default('decision'))
    .option('-o, --out <file>', 'write the output here instead of stdout')
    .option('--summary <file>', 'append the markdown report to this file (default: $GITHUB_STEP_SUMMARY when set)')
    .option('--write-changed <file.pcap>', 'write the changed frames to this pcap file')
    .option('--fields <names>', "with ndjson: each changed frame's own fields after its decisions, as edgesim inspect prints them (comma-separated, e.g. ip.src,ip.dst,ip.proto,tcp.dstport; as tshark -T fields -e)");
  addDataOptions(cmd);
  addAtpOptions(cmd);
  errorsExitWith(cmd, 2);
  cmd.addHelpText(
    'after',
    `
A packet counts as changed when its verdict, its deciding rule or its deciding stage differs.
ndjson: one line per changed frame, {"frame", "time", "before": {"verdict", "rule", "stage"}, "after": {...}}.
markdown: verdict changes first, then changes of the deciding rule or stage only; each group with its
packets, its share of the capture, the changed rule's file:line and its first frames' 5-tuples. Whole
groups are cut from the end to stay under 65,000 characters (a pull-request comment), saying so.
Exit status: 0 nothing changed; 1 some packet is decided differently — its verdict, or only its deciding
rule or stage (the report's two sections tell which); 2 error (as diff(1)). With --fail-on verdict, 1 means
a verdict changes, and a change of deciding rule or stage alone exits 0.

Examples:
  edgesim diff examples/demo.pcap --config before.json --against after.json
  edgesim diff big.pcap -c before.json --against after.json --format ndjson --write-changed changed.pcap
  edgesim diff big.pcap -c before.json --against after.json --format ndjson --fields ip.src,ip.dst,ip.proto,tcp.dstport
  edgesim synth mixed --out - | edgesim diff - -c before.json --against after.json
  edgesim diff --static before.json after.json --format json
  edgesim diff capture.pcap -c main.json --against pr.json --format markdown --out comment.md
  terraform show -json plan.out > plan.json && edgesim diff capture.pcap --plan plan.json --config atp.json

--static: each class of packets decided differently (verdict or deciding rule, firewall stage only),
with a witness packet and the deciding rule on each side, or the statement that they are equivalent.
A pair of rules that reaches the analysis's work limit (10,000 steps a pair; 4,000,000 and 1 GiB of heap
for the whole run, pairs that change a verdict settled first) is listed as indeterminate with the reason
("indeterminate" in JSON) and counts as a change for the exit status. JSON:
{"same_verdicts", "same_deciding_rules", "differences", "indeterminate"}: same_verdicts is proved of every
packet (differences may then still change the deciding rule); same_deciding_rules implies it.`,
  );
  cmd.action(async (inputs: string[], flags: DiffFlags) => (await import('./action.js')).run(inputs, flags));
}
