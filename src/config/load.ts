// Reading a snapshot file: a missing file, bad JSON and invalid content all become one clear
// SnapshotError/CliError whose message starts with the file name.
import { readFile } from 'node:fs/promises';
import { CliError } from '../cli/errors.js';
import { parseJson } from './json.js';
import type { Snapshot } from './snapshot.js';
import { validateSnapshot } from './validate.js';

/** Loads, validates and normalises a snapshot JSON file; errors name the file and the JSON path. */
export async function loadSnapshotFile(path: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new CliError(`${path}: cannot read the snapshot: ${why}`);
  }
  let value: unknown;
  try {
    value = parseJson(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CliError(`${path}: ${(err as Error).message}`);
  }
  return validateSnapshot(value, path);
}
