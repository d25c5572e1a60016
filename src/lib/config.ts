// The library's configuration: files in any format --config reads (several merged by resource), or
// a snapshot object, checked as the CLI checks them, kept with the name errors give them.
import { readConfiguration } from '../config/inputs/index.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { validateSnapshot } from '../config/validate.js';
import { stringArgument } from './arguments.js';

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

/**
 * Reads and checks a configuration file — a snapshot, Terraform JSON, a vendor API response or
 * octorules YAML — or several merged by resource, or checks a snapshot object; throws a UserError
 * (SnapshotError for invalid content) naming the file and every problem's place.
 */
export async function loadConfig(input: string | readonly string[] | object): Promise<Config> {
  if (typeof input === 'string' || Array.isArray(input)) {
    const files: readonly string[] = typeof input === 'string' ? [input] : (input as readonly unknown[]).map((file, i) => stringArgument('loadConfig', `file ${i + 1}`, file));
    const { snapshot, notes, locate } = await readConfiguration(files.map((file) => ({ file })));
    return { snapshot, source: files.join(', '), notes, locate };
  }
  return { snapshot: validateSnapshot(input), source: undefined, notes: [], locate: NOWHERE };
}
