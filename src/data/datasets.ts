// Where the bundled data lives: datasets/ at the package root, two levels above both src/data/
// (tests, tsx) and dist/data/ (the installed command).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DataError } from './errors.js';
import { systemErrorText } from '../errors.js';

/** Absolute path of a file under datasets/. */
export function datasetPath(relative: string): string {
  return fileURLToPath(new URL(`../../datasets/${relative}`, import.meta.url));
}

/**
 * The text of a file under datasets/ that edgesim's installation ships; throws DataError naming it
 * when it cannot be read (a damaged installation), never a bare ENOENT.
 */
export function readDataset(relative: string): string {
  const file = datasetPath(relative);
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new DataError(`${file}: cannot read edgesim's bundled dataset (${systemErrorText(err)}); reinstall edgesim`);
  }
}
