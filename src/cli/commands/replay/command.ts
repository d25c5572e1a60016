// `edgesim replay CAPTURE`: options and help; the replay itself is in action.ts, loaded when run.
import { Option, type Command } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, jobsOption, readOption } from '../../options.js';
import type { ReplayFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('replay')
    .description('replay a capture (pcap, pcapng, optionally gzipped) through a configuration and report what passes, what drops, and why')
    .argument('<capture...>', 'the capture file ("-" reads standard input), or several, merged by time as mergecap merges them (per-packet records then name their file)')
    .addOption(readOption())
    .addOption(new Option('-f, --format <format>', 'output format').choices(['table', 'json', 'ndjson', 'csv', 'html']).default('table'))
    .option('-o, --out <file>', 'write the output here instead of stdout')
    .option('--fields <names>', "with ndjson or csv: the packet's own fields after the verdict's, as edgesim inspect prints them (comma-separated, e.g. ip.src,ip.dst,ip.proto,tcp.dstport)")
    .option('--write-passed <file>', 'write the packets that pass to this pcap file')
    .option('--write-dropped <file>', 'write the packets that drop to this pcap file')
    .option('--no-labels', "ignore the capture's label sidecar (<capture>.labels.ndjson)")
    .option('--no-progress', 'no progress bar on a terminal')
    .addOption(jobsOption());
  addConfigOptions(cmd);
  addDataOptions(cmd);
  addAtpOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Formats: table (a summary for people), json (the summary as one JSON object), ndjson (one object per
packet: frame, time, verdict, stage, rule, matched, monitor, reason), csv (one row per packet),
html (one self-contained page of charts and tables; needs --out or a redirect; \`edgesim report\`
renders the same page from a saved json summary).
With ndjson or csv a one-line summary goes to stderr; --fields adds keys (columns) named by the
fields, null (empty) when a packet lacks one, as \`tshark -T fields -e\` does.

Threads (--jobs): a classic pcap file is cut into byte ranges replayed side by side, each thread
reading its own range; the report is the one a single thread gives (each range's start is checked,
and a range that does not line up is replayed by the main thread). A replay runs on one thread with
protection on (Advanced TCP Protection's state depends on the order of packets), with per-packet
outputs (ndjson, csv, --write-passed, --write-dropped), with a label sidecar, for pcapng, gzip or
standard input, and for several captures.

Several captures (one file per server, or one capture cut in parts) are replayed as one stream,
merged by timestamp as \`mergecap\` merges them (on equal times, the file given first goes first), so
protection sees them in time order. Each ndjson line and csv row then names its file ("file") and
its frame number in that file; the summary counts each file's packets, passes and drops. Label
sidecars are not read for merged captures.

Ctrl-C (SIGINT) or SIGTERM stops the replay: the outputs are finished whole and the summary of the
packets replayed so far is printed, saying it was interrupted; the exit code is then 130 (SIGINT) or
143 (SIGTERM). A second signal ends it at once.

Examples:
  edgesim replay examples/demo.pcap --config examples/demo-snapshot.json
  edgesim replay attack.pcapng --api http://127.0.0.1:8787/client/v4 --account acc1 --format ndjson | jq 'select(.verdict=="drop")'
  edgesim replay big.pcap.gz --config snap.json --write-dropped dropped.pcap
  edgesim replay 10M-packets.pcap --config snap.json --jobs 2 --format json
  edgesim replay examples/demo.pcap --config examples/demo-snapshot.json --format html --out report.html
  edgesim replay server1.pcapng server2.pcapng server3.pcapng --config snap.json --format ndjson
  edgesim synth syn-flood --out - | edgesim replay - --config snap.json`,
  );
  cmd.action(async (captures: string[], flags: ReplayFlags) => (await import('./action.js')).run(captures, flags));
}
