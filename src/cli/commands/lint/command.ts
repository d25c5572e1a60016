// `edgesim lint CONFIG` (or --config FILE..., --plan PLAN.json): options and help; the work is in action.ts, loaded when run.
import { Option, type Command } from 'commander';
import { configFormatOption, configOption, errorsExitWith, planOption } from '../../options.js';
import type { LintFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('lint')
    .description('find firewall rules that match nothing or are never reached, proved over every possible packet')
    .argument('[config]', 'the configuration file (as --config)')
    .addOption(configOption())
    .addOption(planOption('lint the configuration after its changes'))
    .addOption(configFormatOption())
    .option('--json', 'print {"findings": [...]} as JSON')
    .addOption(new Option('--fail-on <level>', 'exit 1 on findings of this level or worse').choices(['error', 'warning']).default('error'))
    .option('--explain <ref>', "show how one rule overlaps the rules before it, with a witness packet for each overlap")
    .option('--lists <dir>', 'managed-list feeds (<name>.txt, one address or CIDR a line) replacing the bundled samples')
    .addHelpText(
      'after',
      `
Findings (errors): unmatchable (the rule matches no packet at all), unreachable (earlier enabled block/skip
rules decide every packet it matches; blocked_by names a smallest such set, different_action says whether
one of them acts otherwise). Warnings: negated_protocol_field, impossible_comparison, empty_list,
unknown_list, atp_filter_never_applies. indeterminate: regular expressions, byte strings or functions
decide the answer and the analysis does not model them, or the rule reached the analysis's work limit
(10,000 steps a rule); the message says which. It never guesses.
Exit status: 1 when there is an error finding (or a warning, with --fail-on warning), 0 otherwise.

Examples:
  edgesim lint config.json
  edgesim lint config.json --json --fail-on warning
  edgesim lint config.json --explain allow-web
  edgesim lint --plan plan.json          (terraform show -json plan.out > plan.json)`,
    );
  errorsExitWith(cmd, 2);
  cmd.action(async (file: string | undefined, flags: LintFlags) => (await import('./action.js')).run(file, flags));
}
