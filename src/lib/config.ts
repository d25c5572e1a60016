// The library's configuration: files in any format --config reads (several merged by resource), or
// a snapshot object, checked as the CLI checks them, kept with the name errors give them.
import { detectValueFormat } from '../config/inputs/detect.js';
import { readConfiguration, readConfigurationValue } from '../config/inputs/index.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { validateSnapshot } from '../config/validate.js';

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
    const files: readonly string[] = typeof input === 'string' ? [input] : (input as readonly string[]);
    const { snapshot, notes, locate } = await readConfiguration(files.map((file) => ({ file })));
    return { snapshot, source: files.join(', '), notes, locate };
  }
  const format = await detectValueFormat(input);
  if (format === 'snapshot') return { snapshot: validateSnapshot(input), source: undefined, notes: [], locate: NOWHERE };
  const { snapshot, notes } = await readConfigurationValue(input, format, OBJECT_NAMES[format]);
  return { snapshot, source: undefined, notes, locate: NOWHERE };
}
