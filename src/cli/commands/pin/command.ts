// `edgesim pin CONFIG --out SUITE.yaml`: options and help; the work is in action.ts, loaded when run.
import type { Command } from 'commander';
import { accountOption, configFormatOption, configOption } from '../../options.js';
import type { PinFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('pin')
    .description("write a test suite that pins the configuration's behaviour today: a case for every rule the analysis can reach")
    .argument('[config]', 'the configuration file (as --config)')
    .addOption(configOption('-c, --config <file>', 'configuration file in any format --config reads elsewhere (a snapshot, Terraform JSON, a vendor API response, octorules YAML); repeat to merge files, e.g. a Terraform state and an ATP snapshot; the suite names the same files'))
    .addOption(configFormatOption())
    .addOption(accountOption())
    .option('-o, --out <suite.yaml>', 'the suite to write (default and -: standard output); never one of the inputs')
    .option('--capture <file>', 'also pin a capture (pcap or pcapng): a capture case whose golden file (<suite>.golden.ndjson, beside the suite) is written too; needs --out FILE')
    .addHelpText(
      'after',
      `
The suite (edgesim test SUITE runs it; it passes as written):
  - for every enabled rule the analysis reaches, a packet case with a witness packet that rule decides
    (a log rule: matches), named after the rule and its description, expecting its verdict and rule;
  - space: cases over the packets each rule decides and over those no rule decides, proved to hold:
    together they partition the packets by deciding rule, so a change that moves some of them fails;
  - packets inside the parts a space cannot say whole, and just outside each rule's region, so a change
    that narrows or widens a rule fails the suite;
  - a packet no rule decides (passed by default), and a packet case for each ATP filter and rule scope;
  - with --capture, a capture case checked against a golden file of every frame's verdict.
At most 24 cases a rule (its witness, one space for its whole region, then packets inside and outside in turns), within
the analysis' work limit (10,000 steps a question, 4,000,000 and 1 GiB of heap in all). Rules that are
disabled, unreachable, unmatchable or indeterminate, and what the bounds left out, are listed in a comment
at the end, with the reason. Paths in the suite are relative to its folder (to the current folder on
standard output).

Examples:
  edgesim pin examples/demo-snapshot.json --out pinned.yaml
  edgesim pin --config firewall.json --out suites/pinned.yaml --capture traffic.pcap
  terraform show -json > state.json && edgesim pin --config state.json --config atp.json --out pinned.yaml
  edgesim test pinned.yaml --plan plan.json --config atp.json   # what a Terraform plan changes
  edgesim test pinned.yaml`,
    );
  cmd.action(async (config: string | undefined, flags: PinFlags) => (await import('./action.js')).run(config, flags));
}
