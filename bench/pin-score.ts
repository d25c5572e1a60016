// How many of a ruleset's proved single edits its pinned suite catches (issue 33), through the
// library: `tsx bench/pin-score.ts SHAPE|FILE [--rules N] [--reverse] [--sample N] [--seed S]`.
// SHAPE is prefix-port (bench/analysis-shapes.ts prefixPortTerms) or overlap
// (overlappingPrefixPortTerms), FILE a snapshot (JSON) or any configuration `--config` reads; the
// first N rules of its first ruleset are kept, in reverse order with --reverse. The edits are
// test/suite/pin-mutants.ts's, a sample of --sample (default all) drawn from --seed (default 12345).
// Prints the pin's CPU time and cases, the proved edits, the caught ones and each miss.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSnapshotFile } from '../src/config/load.js';
import type { Snapshot } from '../src/config/snapshot.js';
import { missedEdits, mutants, pinInto, sampled, suiteFails } from '../test/suite/pin-mutants.js';
import { overlappingPrefixPortTerms, prefixPortTerms, reversed } from './analysis-shapes.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rules: { type: 'string' }, reverse: { type: 'boolean' }, sample: { type: 'string' }, seed: { type: 'string', default: '12345' } },
});
const what = positionals[0] ?? 'prefix-port';
const count = values.rules === undefined ? undefined : Number(values.rules);

async function original(): Promise<Snapshot> {
  if (what === 'prefix-port') return prefixPortTerms(count ?? 40);
  if (what === 'overlap') return overlappingPrefixPortTerms(count ?? 40);
  const s = structuredClone((await loadSnapshotFile(path.resolve(what))) as Snapshot);
  if (count !== undefined) s.rulesets![0]!.rules = s.rulesets![0]!.rules!.slice(0, count);
  return s;
}

let snapshot = await original();
if (values.reverse === true) snapshot = reversed(snapshot);
const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-pin-score-'));
try {
  const t = process.cpuUsage();
  const suite = await pinInto(snapshot, dir);
  const pinCpu = process.cpuUsage(t);
  const passes = !(await suiteFails(suite));
  const all = mutants(snapshot);
  const edits = values.sample === undefined ? all : sampled(all, Number(values.sample), Number(values.seed));
  const { proved, missed } = await missedEdits(snapshot, edits, dir, suite);
  const cases = readFileSync(suite, 'utf8').match(/^ {2}- name: /gm)?.length ?? 0;
  console.log(`${what}${count === undefined ? '' : ` (${count} rules)`}${values.reverse === true ? ' reversed' : ''}: pin ${((pinCpu.user + pinCpu.system) / 1e6).toFixed(2)} s CPU, ${cases} cases, the original ${passes ? 'passes' : 'FAILS'}`);
  console.log(`edits ${all.length}, sampled ${edits.length}, proved ${proved}, caught ${proved - missed.length} (${proved === 0 ? '-' : Math.round((100 * (proved - missed.length)) / proved)}%)`);
  for (const m of missed) console.log(`  missed: ${m}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
