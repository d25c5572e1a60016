// The committed mutation reports (mutation/*.json, written by `npm run mutation`), as read by the tests
// that hold them against the judgements of docs/mutation.md and against the recheck's probes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Report } from '../../bench/mutation-recheck.js';
import { ROOT } from './cli.js';

/** Every committed report, in file-name order. */
export function committedReports(): Report[] {
  return readdirSync(path.join(ROOT, 'mutation'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(ROOT, 'mutation', f), 'utf8')) as Report);
}
