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
//
// fast-check's seed is fixed (bench/mutation-seed.ts), so that a run's kills do not hang on luck. A probed
// run (`--recheck`'s first, bench/mutation-reach.ts) also says which test file each process runs.
import { defineConfig } from 'vitest/config';
import project from '../vitest.config.js';
import { exitWhenGone, inSandbox, needsGlobalSetup, REACH_FILE_VARIABLE, RECHECK_PARENT_VARIABLE, setupSandboxOnce } from './mutation-setup.js';

const tests = process.env.EDGESIM_MUTATION_TESTS?.split(',').filter((t) => t !== '') ?? [];
if (tests.length === 0) throw new Error('bench/vitest-mutation.config.ts: EDGESIM_MUTATION_TESTS names no test file (npm run mutation sets it)');

// a recheck's run ends with the recheck, however the recheck was stopped (its test processes too:
// bench/mutation-recheck-setup.ts)
const recheck = Number(process.env[RECHECK_PARENT_VARIABLE] ?? 0);
if (recheck > 0) exitWhenGone(recheck);

const needed = tests.some((t) => needsGlobalSetup(t));
if (needed && inSandbox) setupSandboxOnce();
const globalSetup = needed && !inSandbox ? project.test?.globalSetup : [];

export default defineConfig({ ...project, test: { ...project.test, include: tests, globalSetup, setupFiles: ['bench/mutation-seed.ts', ...(process.env[REACH_FILE_VARIABLE] !== undefined ? ['bench/mutation-reach-setup.ts'] : []), ...(recheck > 0 ? ['bench/mutation-recheck-setup.ts'] : [])] } });
