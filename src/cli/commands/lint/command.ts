// `edgesim lint CONFIG` (or --config FILE..., --plan PLAN.json): options and help; the work is in action.ts, loaded when run.
import { Option, type Command } from 'commander';
import { accountOption, configFormatOption, configOption, errorsExitWith, planOption, tfDirOption, wholeNumberOf } from '../../options.js';
import type { LintFlags } from './action.js';

export function register(program: Command): void {
  const cmd = program
    .command('lint')
    .description('find firewall rules that match nothing or are never reached, proved over every possible packet, and what the API refuses only at deploy time')
    .argument('[config]', 'the configuration file (as --config)')
    .addOption(configOption())
    .addOption(planOption('lint the configuration after its changes'))
    .addOption(configFormatOption())
    .addOption(tfDirOption())
    .addOption(accountOption())
    .addOption(new Option('--format <format>', 'text (for people), json, sarif (SARIF 2.1.0, for GitHub code scanning) or github (workflow-command annotations)').choices(['text', 'json', 'sarif', 'github']))
    .option('--json', 'the same as --format json: print {"findings": [...]}')
    .option('-o, --out <file>', 'write the findings here instead of stdout')
    .option('--summary <file>', 'append a Markdown table of the findings to this file (default: $GITHUB_STEP_SUMMARY when set)')
    .addOption(new Option('--fail-on <level>', 'exit 1 on findings of this level or worse').choices(['error', 'warning']).default('error'))
    .option('--max-rules <n>', "rules per ruleset the account may hold (too_many_rules past it)", wholeNumberOf('rules'), 200)
    .option('--explain <ref>', "show how one rule overlaps the rules before it, with a witness packet for each overlap")
    .option('--lists <dir>', 'managed-list feeds (<name>.txt, one address or CIDR a line) replacing the bundled samples')
    .addHelpText(
      'after',
      `
Findings (errors): unmatchable (the rule matches no packet at all), unreachable (earlier enabled block/skip
rules decide every packet it matches; blocked_by names a smallest such set, different_action says whether
one of them acts otherwise). Warnings: negated_protocol_field, impossible_comparison, empty_list,
unknown_list, atp_filter_never_applies. Notes: indeterminate: regular expressions, byte strings or functions
decide the answer and the analysis does not model them, or the rule reached the analysis's work limit
(10,000 steps a rule, 4,000,000 and 1 GiB of heap for the whole run); the message says which. It never guesses.
Deploy-time checks (errors: the API accepts the configuration but refuses it when it is deployed):
expression_too_long, logging_not_on_skip, allow_action, ruleset_at_zone_level, ruleset_kind_not_root,
field_of_other_phase, too_many_rules. A rule or ruleset the API would refuse is reported and left out of
the analysis.
Every finding has a severity and a location (file, line and column of the rule). In SARIF each kind is
the rule edgesim/<kind>; --format github prints at most 10 annotations of a level, errors first.
Exit status: 1 when there is an error finding (or a warning, with --fail-on warning), 0 otherwise.

Examples:
  edgesim lint config.json
  edgesim lint config.json --json --fail-on warning
  edgesim lint config.json --format sarif --out edgesim.sarif
  edgesim lint config.json --format github --summary summary.md
  edgesim lint config.json --explain allow-web
  edgesim lint --plan plan.json          (terraform show -json plan.out > plan.json)`,
    );
  errorsExitWith(cmd, 2);
  cmd.action(async (file: string | undefined, flags: LintFlags) => (await import('./action.js')).run(file, flags));
}
