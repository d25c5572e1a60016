// Vitest's settings for `npm run mutation` (bench/mutation.ts): the project's, with only the tests
// related to the file mutated (EDGESIM_MUTATION_TESTS, comma-separated). They are named here, not
// given to Stryker as `testFiles`: given test files, Stryker 9.6.1 runs a static mutant (module-level
// code) with the mutant switched on only once the modules are loaded, so it never acts; with the tests
// named by vitest, it switches a static mutant on before the modules load and runs every related test.
//
// The project's global setup builds dist/ and the CLI bundle (tens of seconds). Tests that import the
// sources do not need it: it runs only when one of the related test files, or a file of test/ it
// imports (followed through relative imports), names the build's outputs (`dist/`, `bin/edgesim`)
// or one of the tools the setup installs; then, in a Stryker sandbox, once per sandbox, when the
// config loads (bench/mutation-setup.ts says why), and as vitest's global setup elsewhere.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import project from '../vitest.config.js';
import { inSandbox, setupSandboxOnce } from './mutation-setup.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tests = process.env.EDGESIM_MUTATION_TESTS?.split(',').filter((t) => t !== '') ?? [];
if (tests.length === 0) throw new Error('bench/vitest-mutation.config.ts: EDGESIM_MUTATION_TESTS names no test file (npm run mutation sets it)');

// what test/global-setup.ts provides: the build's outputs, the oracle tools (tshark and the Wireshark
// tools that come with it) run by name, the browser, GNU time (a false match only costs the build)
const NEEDS_SETUP =
  /(?<![\w@.-])dist\/|bin\/edgesim|runTool\(|(?:spawn|execFile)(?:Sync)?\(\s*['"](?:tshark|tcpdump|capinfos|mergecap|editcap|text2pcap)\b|\/usr\/bin\/(?:time|chromium)\b/;

/** Whether `file` (relative to the root) or a file of test/ it imports needs the global setup. */
export function needsGlobalSetup(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(path.join(root, file), 'utf8');
  if (NEEDS_SETUP.test(text)) return true;
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.\.?\/[^'"]+)['"]/g)) {
    let target = path.join(path.dirname(file), m[1]!);
    if (!existsSync(path.join(root, target)) && target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
    if (!target.startsWith(`test${path.sep}`) || !existsSync(path.join(root, target))) continue;
    if (needsGlobalSetup(target, seen)) return true;
  }
  return false;
}

const needed = tests.some((t) => needsGlobalSetup(t));
if (needed && inSandbox) setupSandboxOnce();
const globalSetup = needed && !inSandbox ? project.test?.globalSetup : [];

export default defineConfig({ ...project, test: { ...project.test, include: tests, globalSetup } });
