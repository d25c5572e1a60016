// Whether `edgesim bench --compare` cries wolf: ten comparisons of the demo configuration with
// itself at the README's recommended threshold (25%), each run compared with a baseline saved just
// before it, as CI compares a change with its base. A row flagged here is noise called a
// regression. Measured here rather than in `npm test`: the verdict depends on the machine's load
// staying steady for the seconds between a save and its compare, which a test run sharing the
// machine with other test files does not give (there it flagged rows at 28-43% while the same
// comparisons flagged nothing on a quiet machine).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPARISONS = 10;

export const suite: BenchSuite = async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-compare-noise-'));
  const bench = [path.join(root, 'bin/edgesim.js'), 'bench', path.join(root, 'examples/demo.pcap'), '--config', path.join(root, 'examples/demo-snapshot.json'), '--no-peers', '--runs', '6', '--min-time', '30'];
  let flaggedRuns = 0;
  let flaggedRows = 0;
  let judged = 0;
  for (let i = 0; i < COMPARISONS; i++) {
    const base = path.join(dir, `self-${i}.json`);
    const saved = spawnSync(process.execPath, [...bench, '--save', base], { encoding: 'utf8' });
    if (saved.status !== 0) throw new Error(`edgesim bench --save failed: ${saved.stderr}`);
    const compared = spawnSync(process.execPath, [...bench, '--compare', base, '--threshold', '25'], { encoding: 'utf8' });
    if (compared.status !== 0 && compared.status !== 1) throw new Error(`edgesim bench --compare failed: ${compared.stderr}`);
    const rows = compared.stderr.split('\n').filter((line) => / -> /.test(line));
    const flagged = rows.filter((line) => line.includes('REGRESSION')).length;
    judged += rows.length;
    flaggedRows += flagged;
    if (flagged > 0) flaggedRuns++;
  }
  const note = `edgesim bench examples/demo.pcap --runs 6 --min-time 30, --save then --compare --threshold 25, ${COMPARISONS} times`;
  const rows: BenchRow[] = [
    { suite: 'compare', name: `self-comparisons flagging a regression (of ${COMPARISONS})`, value: flaggedRuns, unit: 'comparisons', better: 'lower', note },
    { suite: 'compare', name: `rows called a regression (of ${judged} judged)`, value: flaggedRows, unit: 'rows', better: 'lower', note },
  ];
  return rows;
};
