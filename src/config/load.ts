// Reading one configuration file, in any format src/config/inputs reads: a missing file, bad JSON or
// YAML and invalid content all become one clear UserError whose message starts with the file name.
import { readConfiguration } from './inputs/index.js';
import type { Snapshot } from './snapshot.js';
import type { SnapshotOptions } from './validate.js';

/** Loads, validates and normalises a configuration file; errors name the file and the place in it. */
export async function loadSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  return (await readConfiguration([{ file: path }], options)).snapshot;
}
