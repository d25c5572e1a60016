// Reading a snapshot file: a missing file, bad JSON and invalid content all become one clear
// SnapshotError/UserError whose message starts with the file name.
import { readFile } from 'node:fs/promises';
import { InputError, UserError } from '../errors.js';
import { parseJson } from './json.js';
import type { Snapshot } from './snapshot.js';
import { validateSnapshot, type SnapshotOptions } from './validate.js';

/** Loads, validates and normalises a snapshot JSON file; errors name the file and the JSON path. */
export async function loadSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(path, err, 'cannot read the snapshot');
  }
  let value: unknown;
  try {
    value = parseJson(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UserError((err as Error).message, { source: path });
  }
  return validateSnapshot(value, path, options);
}
