// The library's configuration: files in any format --config reads (several merged by resource), or
// a parsed object in any of those formats, checked as the CLI checks them, kept with the name errors
// give them; and the two sides of a Terraform plan, read as `diff --plan` reads them (rules without
// ref paired across the sides by content, so `diff(before, after)` is `edgesim diff --static --plan`).
import { detectValueFormat } from '../config/inputs/detect.js';
import { readConfiguration, readConfigurationValue } from '../config/inputs/index.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { validateSnapshot } from '../config/validate.js';
import { optionsArgument, stringArgument } from './arguments.js';

/** A checked configuration snapshot and where it came from. */
export interface Config {
  readonly snapshot: Snapshot;
  /** the configuration files, to name in errors; undefined for an object */
  readonly source: string | undefined;
  /** what reading the files found worth saying that is not an error (a phase not simulated, `allow` read as `skip`) */
  readonly notes: readonly string[];
  /** where each rule is written in the files (nowhere for an object) */
  readonly locate: RuleLocator;
}

/** How errors name a configuration given as an object in a format other than the snapshot's. */
const OBJECT_NAMES = { terraform: 'the Terraform JSON object', vendor: 'the API response object', octorules: 'the octorules account object' } as const;

/**
 * Reads and checks a configuration file — a snapshot, Terraform JSON, a vendor API response or
 * octorules YAML — or several merged by resource, or an object in any of these formats as parsed
 * from such a file (detected by content as a file's is: `JSON.parse(await readFile('state.json'))`,
 * the SDK's ruleset, `yaml.parse(account)`); throws a UserError (SnapshotError for invalid content)
 * naming the file and every problem's place. An object has no file to place findings in.
 */
export async function loadConfig(input: string | readonly string[] | object): Promise<Config> {
  if (typeof input === 'string' || Array.isArray(input)) {
    const files: readonly string[] = typeof input === 'string' ? [input] : (input as readonly unknown[]).map((file, i) => stringArgument('loadConfig', `file ${i + 1}`, file));
    const { snapshot, notes, locate } = await readConfiguration(files.map((file) => ({ file })));
    return { snapshot, source: files.join(', '), notes, locate };
  }
  const format = await detectValueFormat(input);
  if (format === 'snapshot') return { snapshot: validateSnapshot(input), source: undefined, notes: [], locate: NOWHERE };
  const { snapshot, notes } = await readConfigurationValue(input, format, OBJECT_NAMES[format]);
  return { snapshot, source: undefined, notes, locate: NOWHERE };
}

export interface PlanOptions {
  /** files added to both sides (an ATP snapshot beside the Terraform rulesets), as `diff --plan --config` */
  config?: string | readonly string[];
  /** the account to read where the plan holds several (`--account`) */
  account?: string;
}

/** The configurations before and after a Terraform plan (`terraform show -json PLANFILE`). */
export interface Plan {
  readonly before: Config;
  readonly after: Config;
}

/**
 * Reads both sides of a Terraform plan as `edgesim diff --plan` reads them: each rule keeps one name
 * on both sides (its ref, else its address and description, the rules without ref paired by content
 * and order). Throws a UserError naming the file and the place.
 */
export async function loadPlan(plan: string, options: PlanOptions = {}): Promise<Plan> {
  stringArgument('loadPlan', 'the plan', plan);
  options = optionsArgument('loadPlan', options);
  const given: unknown = options.config;
  const files: readonly string[] = given === undefined ? [] : typeof given === 'string' ? [given] : Array.isArray(given) ? given.map((file, i) => stringArgument('loadPlan', `config file ${i + 1}`, file)) : [stringArgument('loadPlan', 'config', given)];
  const side = async (which: 'before' | 'after'): Promise<Config> => {
    const { snapshot, notes, locate } = await readConfiguration([{ file: plan, plan: which }, ...files.map((file) => ({ file }))], { account: options.account });
    return { snapshot, source: [plan, ...files].join(', '), notes, locate };
  };
  return { before: await side('before'), after: await side('after') };
}
