// Temporary folders for tests, removed when no longer needed so that test runs leave nothing in
// the system's temporary folder (some tests write captures of several MB).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';

// Folders made outside a test (at collection time or in beforeAll) serve every test of the file.
// Vitest ignores an afterAll registered while hooks run, so one afterAll is registered here, when
// the test file imports this module. After-hooks run in reverse order of registration, so this one
// runs after the file's own afterAll hooks (a server using a folder is closed before it is removed).
const forFile = new Set<string>();
afterAll(() => {
  for (const dir of forFile) rmSync(dir, { recursive: true, force: true });
  forFile.clear();
});

/**
 * A fresh folder under the system's temporary folder, named `prefix` and random characters.
 * Made inside a test (or its beforeEach), it is removed when that test finishes; made anywhere
 * else, when the file's tests are done.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (TestRunner.getCurrentTest()) onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  else forFile.add(dir);
  return dir;
}
