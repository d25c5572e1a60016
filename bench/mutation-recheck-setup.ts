// A setup file of a recheck's runs (bench/mutation-recheck.ts), added only then: a test process ends
// once the recheck is gone, as vitest's own process does (bench/vitest-mutation.config.ts): a test
// process outlives vitest's when vitest's exits, and would run its tests on to their own time limit.
import { exitWhenGone, RECHECK_PARENT_VARIABLE } from './mutation-setup.js';

const recheck = Number(process.env[RECHECK_PARENT_VARIABLE] ?? 0);
if (recheck > 0) exitWhenGone(recheck);
