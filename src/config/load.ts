// Reading one configuration file, in any format src/config/inputs reads: a missing file, bad JSON or
// YAML and invalid content all become one clear UserError whose message starts with the file name.
import type { RuleLocator } from './location.js';
import { readConfiguration } from './inputs/index.js';
import type { Snapshot } from './snapshot.js';
import type { SnapshotOptions } from './validate.js';

/** A checked snapshot read from a file, with where its rules are written there. */
export interface SnapshotFile {
  snapshot: Snapshot;
  locate: RuleLocator;
}

/** Loads, validates and normalises a configuration file; errors name the file and the place in it. */
export async function loadSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  return (await readSnapshotFile(path, options)).snapshot;
}

/** As loadSnapshotFile, keeping the rules' places for reports that point into the file. */
export async function readSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<SnapshotFile> {
  const { snapshot, locate } = await readConfiguration([{ file: path }], options);
  return { snapshot, locate };
}
