// A setup file of `npm run mutation`'s vitest runs (bench/vitest-mutation.config.ts), Stryker's and the
// recheck's alike: every property test draws the same cases in every run, so that a mutant one run
// kills, a rerun kills too, and a committed report can be checked against a fresh run. `npm test`
// keeps fast-check's random seed: there each run tries new cases, and a failure prints its seed.
import fc from 'fast-check';

export const MUTATION_SEED = 36;

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: MUTATION_SEED });
