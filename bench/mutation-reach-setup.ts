// A setup file of a probed run (bench/mutation-reach.ts), added only then: says which test file this
// process runs (`pid file path`), so that the probes' hits (`pid ppid probe`) can be told apart by test file.
import { appendFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { REACH_FILE_VARIABLE } from './mutation-setup.js';

const reachFile = process.env[REACH_FILE_VARIABLE];
if (reachFile !== undefined) {
  beforeAll(() => {
    appendFileSync(reachFile, `${process.pid} file ${expect.getState().testPath ?? ''}\n`);
  });
}
