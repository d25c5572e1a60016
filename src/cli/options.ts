// The flags several commands share, as option definitions only: where the configuration comes from
// (a snapshot file or a running API), the data for lookups, the ATP model's options, the API's
// address and credentials, and the Rules-language scheme. Command files import this and commander,
// nothing else, so `edgesim --help` loads neither the rule engine nor the capture code.
import { COMPONENT_NAMES } from '../protection-components.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CONFIG_FORMATS, type ConfigFormat } from '../config/inputs/document.js';

export interface ConfigFlags {
  /** configuration files, merged by resource */
  config?: string[];
  configFormat?: ConfigFormat;
  /** a Terraform plan (terraform show -json PLANFILE), read on one side of its changes */
  plan?: string;
  /** the folder of the root module's .tf files, where Terraform JSON's rules are placed (default: beside the JSON file) */
  tfDir?: string;
  api?: string;
  account?: string;
  token?: string;
  key?: string;
  email?: string;
}

export interface DataFlags {
  geoip?: string;
  asn?: string;
  lists?: string;
  colo?: string;
  region?: string;
  atpOptions?: string;
  baselinePps?: string;
  bidirectional?: boolean;
}

/** The flags of `export` and `import`, which always talk to an API. */
export interface ApiFlags {
  api: string;
  account: string;
  token?: string;
  key?: string;
  email?: string;
}

/** `--config FILE`, repeatable: each file is added to the ones before it. */
export function configOption(flags = '-c, --config <file>', description = CONFIG_HELP): Option {
  return new Option(flags, description).argParser((file: string, before: string[] | undefined) => [...(before ?? []), file]);
}

const CONFIG_HELP =
  'configuration file: a snapshot (see `edgesim export`), Terraform JSON (terraform show -json), a vendor API ruleset response or octorules YAML, detected by content; repeat to merge files (e.g. Terraform rulesets and an ATP snapshot); - reads one from standard input';

/** `--config-format`: read every configuration file in this format instead of detecting it. */
export function configFormatOption(): Option {
  return new Option('--config-format <format>', 'read the configuration files in this format instead of detecting it').choices(CONFIG_FORMATS);
}

/** `--plan PLAN.json`: a Terraform plan, `what` says which side of its changes the command reads. */
export function planOption(what: string): Option {
  return new Option('--plan <plan.json>', `a Terraform plan (terraform show -json PLANFILE): ${what}`);
}

/** `--tf-dir DIR`: where the .tf files of Terraform JSON's root module are, for reports that point at rules. */
export function tfDirOption(): Option {
  return new Option('--tf-dir <dir>', "the folder of the root module's .tf files, where findings and reports place Terraform JSON's rules (default: the JSON file's folder)");
}

/** `--account ID`: the account of a Terraform file that holds several (or, with --api, the account to read). */
export function accountOption(): Option {
  return new Option('--account <id>', 'the account to read: with --api, or of a Terraform state or plan that holds several (one root ruleset per account through for_each)');
}

export function addConfigOptions(cmd: Command): Command {
  return cmd
    .addOption(configOption())
    .addOption(configFormatOption())
    .option('--api <url>', 'read the configuration from a running API, e.g. http://127.0.0.1:8787/client/v4')
    .addOption(accountOption())
    .option('--token <token>', 'API token, with --api (default: $EDGESIM_API_TOKEN)')
    .option('--key <key>', 'API key, with --api and --email')
    .option('--email <email>', 'the e-mail that goes with --key');
}

export function addDataOptions(cmd: Command): Command {
  return cmd
    .option('--geoip <file>', 'MaxMind-format country database (default: the bundled geo-whois-asn-country)')
    .option('--asn <file>', 'MaxMind-format ASN database (for ip.src.asnum / ip.dst.asnum)')
    .option('--lists <dir>', 'managed-list feeds (<name>.txt, one address or CIDR a line) replacing the bundled samples')
    .option('--colo <name>', 'treat every packet as arriving at this data center')
    .option('--region <name>', 'treat every packet as arriving in this region');
}

export function addAtpOptions(cmd: Command): Command {
  return cmd
    .option('--atp-options <file.json>', 'override parameters of the Advanced TCP Protection model (thresholds, windows, timeouts: see src/atp/README.md)')
    .option(
      '--baseline-pps <pps>',
      `the normal packet rate ATP's thresholds are set from, instead of learning it from the capture's first seconds (needed when a capture starts during an attack): PPS for ${COMPONENT_NAMES.length === 2 ? 'both components' : 'every component'}, or ${COMPONENT_NAMES.map((c) => `${c}=PPS`).join(',')}`,
    )
    .option('--bidirectional', 'the capture holds both directions: track connections from the server side too');
}

/** Adds --api, --account, --token, --key and --email, the first two required. */
export function addApiOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--api <url>', 'the API base URL, e.g. http://127.0.0.1:8787/client/v4')
    .requiredOption('--account <id>', 'account id')
    .option('--token <token>', 'API token (default: $EDGESIM_API_TOKEN)')
    .option('--key <key>', 'API key, with --email')
    .option('--email <email>', 'the e-mail that goes with --key');
}

/** The Rules-language schemes by their command-line names. */
export const SCHEMES = { firewall: 'rule', filter: 'filter' } as const;
export type SchemeName = keyof typeof SCHEMES;

export function schemeOption(): Option {
  return new Option('--scheme <scheme>', 'firewall (rule expressions) or filter (ATP filter expressions)').choices(Object.keys(SCHEMES)).default('firewall');
}

/** A commander parser for a whole number of `things` (packets, runs...). */
export function wholeNumberOf(things: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number of ${things}`);
    return Number(value);
  };
}

/** `--jobs`: how many threads a replay runs on, a number from 1 or `auto`; `what` the command does on them. */
export function jobsOption(what = 'replay'): Option {
  return new Option('-j, --jobs <n>', `threads to ${what} on: a number, or auto (for captures from 256 MB the processors idle when it starts, up to 4; else 1)`)
    .default('auto')
    .argParser((value: string): number | 'auto' => {
      if (value === 'auto') return value;
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) throw new InvalidArgumentError('expected auto or a number of threads from 1 to 64');
      return Number(value);
    });
}

/** `-r FILE`: tcpdump's way to name the capture, for the commands that take one (readAsArgument puts it where the argument goes). */
export function readOption(): Option {
  return new Option('-r, --read <capture>', 'the capture, as tcpdump -r takes it (instead of the capture argument)');
}

const READ = /^(?:-r|--read)(?:=?(.+))?$/;

/**
 * The command line (node, script, command, ...) with each `-r FILE` (`-rFILE`, `--read FILE`,
 * `--read=FILE`) of a command that has readOption made the command's first argument, where its
 * capture goes; commander then parses it as if the capture had been given there.
 */
export function readAsArgument(program: Command, argv: readonly string[]): string[] {
  const [node, script, name, ...rest] = argv;
  const cmd = program.commands.find((c) => c.name() === name || c.aliases().includes(name!));
  if (cmd === undefined || !cmd.options.some((o) => o.long === '--read')) return [...argv];
  const captures: string[] = [];
  const others: string[] = [];
  const optionsEnd = rest.includes('--') ? rest.indexOf('--') : rest.length;
  for (let i = 0; i < rest.length; i++) {
    const m = i < optionsEnd ? READ.exec(rest[i]!) : null;
    if (m === null) others.push(rest[i]!);
    else if (m[1] !== undefined) captures.push(m[1]);
    else if (i + 1 < rest.length) captures.push(rest[++i]!);
    else others.push(rest[i]!); // no value: commander says so
  }
  return [node!, script!, name!, ...captures, ...others];
}

/** Where `edgesim serve` keeps the configuration unless told otherwise. */
export const DEFAULT_DATA = './.edgesim-data';

const ERROR_EXIT = new WeakMap<Command, number>();

/**
 * Makes the command's user errors exit with `code` instead of 1: for diff and lint, whose exit 1
 * means "a difference" or "a finding", an error must be told apart (2, as diff(1) does).
 */
export function errorsExitWith(cmd: Command, code: number): Command {
  ERROR_EXIT.set(cmd, code);
  return cmd;
}

/** The exit code the command's user errors take, when it is not 1. */
export function errorExitOf(cmd: Command | undefined): number | undefined {
  return cmd === undefined ? undefined : ERROR_EXIT.get(cmd);
}

/** The stages a verdict names, for help: `firewall|syn_protection|tcp_flow_protection`. */
export const STAGE_CHOICES = ['firewall', ...COMPONENT_NAMES].join('|');
