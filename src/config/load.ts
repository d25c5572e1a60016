// Reading a snapshot file: a missing file, bad JSON and invalid content all become one clear
// SnapshotError/UserError whose message starts with the file name.
import { readFile } from 'node:fs/promises';
import { InputError, UserError } from '../errors.js';
import { parseJson } from './json.js';
import { jsonRuleLocator, type RuleLocator } from './location.js';
import type { Snapshot } from './snapshot.js';
import { validateSnapshot, type SnapshotOptions } from './validate.js';

/** A checked snapshot read from a file, with where its rules are written there. */
export interface SnapshotFile {
  snapshot: Snapshot;
  locate: RuleLocator;
}

/** Loads, validates and normalises a snapshot JSON file; errors name the file and the JSON path. */
export async function loadSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  return (await readSnapshotFile(path, options)).snapshot;
}

/** As loadSnapshotFile, keeping the rules' lines and columns for reports that point into the file. */
export async function readSnapshotFile(path: string, options: SnapshotOptions = {}): Promise<SnapshotFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(path, err, 'cannot read the snapshot');
  }
  return readSnapshotText(text, path, options);
}

/** A snapshot from its text (a file's, or standard input's), named `name` in errors. */
export function readSnapshotText(text: string, name: string, options: SnapshotOptions = {}): SnapshotFile {
  text = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw new UserError((err as Error).message, { source: name });
  }
  return { snapshot: validateSnapshot(value, name, options), locate: jsonRuleLocator(text, name) };
}
