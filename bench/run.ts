// `npm run bench [name...]`: runs the suites (all, or those named), prints a table, and writes the
// rows as JSON to bench/results/latest.json so two versions can be compared.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suites } from './suites.js';
import type { BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function fmt(v: number): string {
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return v.toPrecision(3);
}

async function run(): Promise<void> {
  const wanted = process.argv.slice(2);
  const rows: BenchRow[] = [];
  for (const [name, load] of suites) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    process.stderr.write(`bench: ${name}...\n`);
    const { suite } = await load();
    for (const row of await suite()) {
      rows.push(row);
      process.stdout.write(`${row.suite.padEnd(10)} ${row.name.padEnd(58)} ${fmt(row.value).padStart(14)} ${row.unit}${row.note ? `  (${row.note})` : ''}\n`);
    }
  }
  const out = path.join(here, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2)}\n`);
}

run().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exitCode = 1;
});
