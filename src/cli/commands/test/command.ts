// `edgesim test SUITE...`: options and help (with the suite format and the packet defaults); the run
// is in action.ts, loaded when the command runs.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { addAtpOptions, addConfigOptions, addDataOptions, planOption, STAGE_CHOICES, tfDirOption } from '../../options.js';
import type { TestFlags } from './action.js';

function percentage(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return n;
}

export function register(program: Command): void {
  const cmd = program
    .command('test')
    .description('run regression suites (YAML or JSON) of packets, captures, scenarios and header spaces against a configuration; exit 0 all passed, 1 a case failed, 2 a suite is invalid (the other suites still run)')
    .argument('<suite...>', 'suite files (.yaml, .yml or .json); - reads one from standard input (its paths relative to the working folder)')
    .addOption(new Option('-f, --format <format>', 'standard output: text (a line a case, then failures), json (the --json report) or github (an error annotation, a workflow command, at the line of each case that did not pass, the first 10)').choices(['text', 'json', 'github']).default('text'))
    .addOption(tfDirOption())
    .addOption(new Option('--fail-on <level>', 'exit 1 on cases of this level or worse: error (a case failed or could not run) or warning (also a case that raised a warning)').choices(['error', 'warning']).default('error'))
    .option('--summary <file>', 'append a Markdown summary (a table of the cases that did not pass) to this file (default: $GITHUB_STEP_SUMMARY when set)')
    .option('--json <file>', 'write the results as JSON: {passed, failed, errors, cases: [{name, status, message}]} (not over a file the suite reads or a golden file)')
    .option('--junit <file>', 'write the results as JUnit XML (one testcase per case) for CI (not over a file the suite reads or a golden file)')
    .option('--update', "rewrite golden files from the current results (and nothing else; each under the suite's folder, replaced whole); prints how many frames changed and which files it rewrote; not the golden of a case that fails for another reason")
    .option('--force', 'with --update: rewrite the golden of a case that fails for another reason too')
    .option('--strict', 'warnings (truncated capture, undecodable frames, missing lists or ASN data, labels that do not fit) fail the case')
    .option('--coverage', "after the totals, a table of the firewall rules the cases matched and of their conditions (each operand of and/or/xor/not) seen true and false; in --json as coverage (disabled, unreachable and unmatchable rules are listed apart, not counted)")
    .option('--min-coverage <pct>', 'implies --coverage; exit 1, as a failed case does, when fewer than PCT percent (0-100) of the counted rules are matched by a case', percentage);
  addConfigOptions(cmd);
  cmd.addOption(planOption("run every suite against the configuration after its changes (a suite pinned from the state runs against the plan; rules without ref are matched across the plan by content)"));
  addDataOptions(cmd);
  addAtpOptions(cmd);
  cmd.addHelpText(
    'after',
    `
A suite (every path relative to the suite's folder; the whole suite is checked before any case runs):
  config: firewall.json                  # a file in any --config format (or a list), or an inline snapshot;
                                         # --config FILE, --plan PLAN.json or --api URL replaces it for every suite
  cases:
    - name: office SSH passes            # unique in the suite
      packet: {ip.src: 10.1.2.3, ip.dst: 203.0.113.5, tcp.dstport: 22, tcp.flags.syn: true}
      expect: {verdict: pass, rule: null}
    - name: handshake to the web server  # a timed sequence; expect applies to the last packet
      packets:                           # (or to expect.packet: N)
        - {tcp.dstport: 443, tcp.flags.syn: true}
        - {tcp.dstport: 443, tcp.flags.ack: true, time: 0.05}
      expect: {verdict: pass, rule: allow-web}
    - name: demo capture
      capture: demo.pcap
      expect:
        totals: {pass: 3148, drop: 1378}           # and packets
        frames: {5: drop, 57: {verdict: pass, rule: allow-web}}
        by_rule: {allow-web: 1261}                 # packets each rule decided
        golden: demo.verdicts.ndjson               # replay's NDJSON, under the suite's folder; create it with --update
    - name: SYN flood is stopped
      scenario: syn-flood                # a synth scenario or a flow-spec file (labels = ground truth)
      synth: {packets: 20000, seed: 1}
      expect: {attack_dropped_min: 0.99, legit_flows_harmed_max: 0}
    - name: SSH to the servers is closed # holds for EVERY packet of the space, proved (firewall stage)
      space: {ip.dst: [203.0.113.0/24], ip.src: [198.51.100.0/24], tcp.dstport: [22, 2222-2223]}
      expect: {verdict: drop}            # a failure shows a witness packet; {not: [values]}: all values but those

Packet and frame expectations: verdict (pass|drop), rule (the deciding rule's ref, null: none; a ref
no rule has fails the case, with the nearest one),
stage (${STAGE_CHOICES}|null), reason (ATP's reason), matched (refs of
every matching rule, log rules included). A key that is absent is not checked.

Packet fields are written as the Rules language writes them. Defaults of a typical packet:
  ip.src 198.51.100.20, ip.dst 203.0.113.10 (2001:db8::20 -> 2001:db8:ffff::10 when either is IPv6),
  ip.ttl 64, ip.proto from the transport fields given (tcp when none), tcp.srcport 49152,
  tcp.dstport 80, tcp.flags SYN unless tcp.flags or flag booleans are given (booleans set exactly the
  flags that are true), tcp.seq the connection's next sequence number (1000 first), tcp.ack 0,
  tcp.window 64240, udp.srcport 49152, udp.dstport 53, icmp.type 8 (128 for ICMPv6), icmp.code 0,
  ip.hdr_len 5 (more, or ip.opt.type: IPv4 options), no payload (payload: text, or bytes as aa:bb:..;
  ip.len pads it, or cuts an ICMP error's quoted packet short), sip false, time 1 ms after the
  previous packet. A line of \`edgesim inspect\` pasted as a packet works: its ip/tcp/udp/icmp bytes
  are the packet's own, as captured (the other fields must agree).
Looked-up fields (ip.src.country, ip.dst.country, ip.geoip.country, ip.src.asnum, ip.dst.asnum,
cf.colo.name, cf.colo.region) replace what the lookups would say.

Examples:
  edgesim test examples/demo-suite.yaml
  edgesim test suites/*.yaml --junit results.xml --json results.json --strict
  edgesim test suites/*.yaml --format github --junit results.xml   # in GitHub Actions (summary to $GITHUB_STEP_SUMMARY)
  edgesim test examples/demo-suite.yaml --update      # rewrite golden files after an intended change
  edgesim test suites/*.yaml --min-coverage 90        # and fail when a case matches fewer than 90% of the rules`,
  );
  cmd.action(async (suites: string[], flags: TestFlags) => (await import('./action.js')).run(suites, flags));
}
