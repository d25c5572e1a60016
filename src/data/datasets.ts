// Where the bundled data lives: datasets/ at the package root, two levels above both src/data/
// (tests, tsx) and dist/data/ (the installed command).
import { fileURLToPath } from 'node:url';

/** Absolute path of a file under datasets/. */
export function datasetPath(relative: string): string {
  return fileURLToPath(new URL(`../../datasets/${relative}`, import.meta.url));
}
