// Vitest's settings for `npm run mutation` (bench/mutation.ts): the project's, with only the tests
// related to the file mutated (EDGESIM_MUTATION_TESTS, comma-separated). They are named here, not
// given to Stryker as `testFiles`: given test files, Stryker 9.6.1 runs a static mutant (module-level
// code) with the mutant switched on only once the modules are loaded, so it never acts; with the tests
// named by vitest, it switches a static mutant on before the modules load and runs every related test.
import { defineConfig } from 'vitest/config';
import project from '../vitest.config.js';

const tests = process.env.EDGESIM_MUTATION_TESTS?.split(',').filter((t) => t !== '') ?? [];
if (tests.length === 0) throw new Error('bench/vitest-mutation.config.ts: EDGESIM_MUTATION_TESTS names no test file (npm run mutation sets it)');

export default defineConfig({ ...project, test: { ...project.test, include: tests } });
