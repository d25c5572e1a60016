// `npm run bench [name...] [--save FILE] [--compare FILE] [--threshold PCT]`: runs the suites (all,
// or those named), prints a table, and writes the rows as JSON to bench/results/latest.json.
// --save also writes them to FILE with the date and the machine they were measured on (the committed
// baseline is bench/results/baseline.json); --compare reads such a file and prints each row as faster
// or slower than it, exiting 1 when a row is slower by more than the threshold (default 10%). Rows
// measured on another machine compare only roughly: the file names the machine so a reader can tell.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareFigures, formatComparison, type Figure } from '../src/profile/compare.js';
import { suites } from './suites.js';
import type { BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface ResultFile {
  date: string;
  /** the commit measured (git rev-parse HEAD), with -dirty when the tree had changes */
  commit: string;
  node: string;
  machine: { cpu: string; cores: number; memoryGb: number; platform: string };
  rows: BenchRow[];
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return v.toPrecision(3);
}

function figure(row: BenchRow): Figure {
  return { name: `${row.suite}: ${row.name}`, value: row.value, unit: row.unit, better: row.better ?? (row.unit.endsWith('/s') ? 'higher' : 'lower') };
}

function commit(): string {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: here, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: here, encoding: 'utf8' });
  return head.status === 0 ? `${head.stdout.trim()}${dirty.stdout.trim() === '' ? '' : '-dirty'}` : 'unknown';
}

function machine(): ResultFile['machine'] {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length, memoryGb: Math.round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()} ${os.arch()}` };
}

async function run(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { save: { type: 'string' }, compare: { type: 'string' }, threshold: { type: 'string', default: '10' } },
  });
  const threshold = Number(values.threshold) / 100;
  if (!Number.isFinite(threshold) || threshold < 0) throw new Error(`--threshold must be a percentage, not "${values.threshold}"`);
  const baseline = values.compare === undefined ? undefined : (JSON.parse(readFileSync(values.compare, 'utf8')) as ResultFile);

  process.stderr.write(`bench: on Node ${process.version}\n`);
  const rows: BenchRow[] = [];
  for (const [name, load] of suites) {
    if (positionals.length > 0 && !positionals.includes(name)) continue;
    process.stderr.write(`bench: ${name}...\n`);
    const { suite } = await load();
    for (const row of await suite()) {
      rows.push(row);
      process.stdout.write(`${row.suite.padEnd(10)} ${row.name.padEnd(58)} ${fmt(row.value).padStart(14)} ${row.unit}${row.note ? `  (${row.note})` : ''}\n`);
    }
  }
  const result: ResultFile = { date: new Date().toISOString(), commit: commit(), node: process.version, machine: machine(), rows };
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const out = path.join(here, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'latest.json'), text);
  if (values.save !== undefined) writeFileSync(values.save, text);

  if (baseline !== undefined) {
    const suitesRun = new Set(rows.map((r) => r.suite));
    const compared = compareFigures(baseline.rows.filter((r) => suitesRun.has(r.suite)).map(figure), rows.map(figure), threshold);
    process.stdout.write(`\ncompared with ${values.compare} (${baseline.date}, Node ${baseline.node}, ${baseline.machine?.cpu ?? 'unknown machine'}):\n`);
    if (baseline.node !== process.version) process.stdout.write(`(measured on Node ${baseline.node}, this run on ${process.version}: the differences include the runtime's)\n`);
    process.stdout.write(formatComparison(compared));
    const slower = compared.filter((c) => c.regression);
    if (slower.length > 0) {
      process.stderr.write(`bench: ${slower.length} row(s) slower than the baseline by more than ${values.threshold}%\n`);
      process.exitCode = 1;
    }
  }
}

run().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exitCode = 1;
});
