// The library's configuration: a snapshot file (what --config reads) or a snapshot object, checked
// as the CLI checks it, kept with the name errors give it.
import { loadSnapshotFile } from '../config/load.js';
import type { Snapshot } from '../config/snapshot.js';
import { validateSnapshot } from '../config/validate.js';

/** A checked configuration snapshot and where it came from. */
export interface Config {
  readonly snapshot: Snapshot;
  /** the snapshot file, to name in errors; undefined for an object */
  readonly source: string | undefined;
}

/** Reads and checks a snapshot file (JSON), or checks a snapshot object; throws SnapshotError naming every problem and its JSON path. */
export async function loadConfig(input: string | object): Promise<Config> {
  if (typeof input === 'string') return { snapshot: await loadSnapshotFile(input), source: input };
  return { snapshot: validateSnapshot(input), source: undefined };
}
