// Suites written to a temporary folder beside copies of nothing: config and capture paths point at
// the project's examples by absolute path, so each test states only its cases.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { tempDir as cleanedTempDir } from '../helpers/temp-dir.js';

export const DEMO_CONFIG = path.join(ROOT, 'examples/demo-snapshot.json');
export const DEMO_PCAP = path.join(ROOT, 'examples/demo.pcap');

/** A fresh folder for one test's files, removed after that test (or after the file's tests when made outside a test). */
export function tempDir(): string {
  return cleanedTempDir('edgesim-suite-test-');
}

/** Writes `text` as `name` in a fresh folder; returns its path. */
export function writeSuite(text: string, name = 'suite.yaml', dir = tempDir()): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}
