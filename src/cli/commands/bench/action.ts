// `edgesim bench`, run: hold the packets in memory (a capture, or a generated scenario), measure
// (profile/benchmark.ts), run the peers on a capture file, print the report or JSON, save or compare
// the figures. The figures that --save keeps and --compare judges are pooled from PROCESSES
// processes (this one and fresh ones running the same command line as samplers: profile/pooled-figures.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { attachSource, InputError, OutputError, UsageError, UserError } from '../../../errors.js';
import { benchmark } from '../../../profile/benchmark.js';
import { compareFigures, formatComparison, type Figure } from '../../../profile/compare.js';
import { poolFigures } from '../../../profile/pooled-figures.js';
import { loadCapture, loadScenario } from '../../../profile/frames.js';
import { fromFile, runPeers } from '../../../profile/peers.js';
import { figuresOf, formatReport, type FullReport } from '../../../profile/report.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings, writeOutput } from '../../output.js';

export interface BenchFlags extends ConfigFlags, DataFlags {
  scenario?: string;
  packets?: number;
  seed?: number;
  limit?: number;
  runs?: number;
  minTime?: number;
  json?: boolean;
  out?: string;
  save?: string;
  compare?: string;
  threshold?: number;
  peers: boolean;
}

interface SavedFigures {
  date: string;
  input: string;
  figures: Figure[];
}

/** How many processes measure the figures --save keeps and --compare judges. */
const PROCESSES = 3;
/** Set in a process that only measures the figures for its parent, and prints them as JSON. */
const SAMPLER = 'EDGESIM_BENCH_SAMPLER';

/** The figures of `count` fresh processes running this command line as samplers. */
function figuresOfOtherProcesses(count: number): Figure[][] {
  const runs: Figure[][] = [];
  for (let i = 0; i < count; i++) {
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
      env: { ...process.env, [SAMPLER]: '1' },
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    if (r.status !== 0) throw new UserError(`a measuring process failed: ${(r.stderr ?? '').trim().split('\n')[0] || `exit code ${r.status}`}`);
    runs.push(JSON.parse(r.stdout) as Figure[]);
  }
  return runs;
}

function readSaved(file: string): SavedFigures {
  let saved: SavedFigures;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as SavedFigures;
  } catch (err) {
    throw new InputError(file, err, 'cannot read the saved figures');
  }
  if (!Array.isArray(saved?.figures)) throw new InputError(file, new Error('not a file written by edgesim bench --save (no "figures")'), 'cannot read the saved figures');
  return saved;
}

export async function run(capture: string | undefined, flags: BenchFlags): Promise<void> {
  if ((capture === undefined) === (flags.scenario === undefined)) throw new UsageError('give a capture file or --scenario NAME (one of them)');
  if (flags.runs === 0) throw new UsageError('--runs must be at least 1');
  if (flags.minTime === 0) throw new UsageError('--min-time must be at least 1 (ms)');
  if (flags.limit === 0) throw new UsageError('--limit must be at least 1');
  const sampler = process.env[SAMPLER] === '1';
  const baseline = flags.compare === undefined || sampler ? undefined : readSaved(flags.compare);
  const config = await loadConfiguration(flags);
  const store =
    capture !== undefined
      ? await loadCapture(capture, flags.limit ?? 300_000)
      : loadScenario(flags.scenario!, { packets: flags.packets ?? 100_000, seed: flags.seed });
  if (store.count === 0) throw new UserError('no packets to measure', { source: capture ?? `--scenario ${flags.scenario}` });
  const runs = flags.runs ?? 5;
  const report = await benchmark(store, config.snapshot, { ...dataOptions(flags), runs, minTimeMs: flags.minTime }).catch((err: unknown) => {
    throw attachSource(err, config.source);
  });
  if (sampler) {
    process.stdout.write(JSON.stringify(figuresOf({ input: '', ...report, from_file_packets_per_second: null, peers: [] })));
    return;
  }
  const expressions = (config.snapshot.rulesets ?? []).flatMap((rs) => (rs.rules ?? []).filter((r) => r.enabled !== false).map((r) => r.expression));
  const withPeers = capture !== undefined && flags.peers;
  const peerRuns = Math.min(runs, 3);
  // the peers read the whole file, so edgesim's figure against them does too (whatever --limit says)
  const ours = withPeers ? await fromFile(capture, config.snapshot, dataOptions(flags), peerRuns) : null;
  const peers = ours !== null ? runPeers(capture!, expressions, ours.packets, peerRuns) : [];
  const full: FullReport = { input: capture ?? `scenario ${flags.scenario}`, ...report, from_file_packets_per_second: ours?.packets_per_second ?? null, peers };

  writeOutput(flags.out, flags.json ? `${JSON.stringify(full, null, 2)}\n` : formatReport(full));
  printWarnings(capture, report.warnings);

  // samples of one process share its state: figures kept or judged are pooled from several (not from standard input, read once)
  const pooled = (flags.save !== undefined || baseline !== undefined) && capture !== '-';
  const figures = pooled ? poolFigures([figuresOf(full), ...figuresOfOtherProcesses(PROCESSES - 1)]) : figuresOf(full);
  if (flags.save !== undefined) {
    const saved: SavedFigures = { date: new Date().toISOString(), input: full.input, figures };
    try {
      writeFileSync(flags.save, `${JSON.stringify(saved, null, 2)}\n`);
    } catch (err) {
      throw new OutputError(flags.save, err);
    }
  }
  if (baseline !== undefined) {
    const threshold = (flags.threshold ?? 10) / 100;
    const rows = compareFigures(baseline.figures, figures, threshold);
    process.stderr.write(`compared with ${flags.compare} (${baseline.date}, ${baseline.input}):\n${formatComparison(rows)}`);
    const slower = rows.filter((r) => r.regression);
    if (slower.length > 0) {
      process.stderr.write(`edgesim: ${slower.length} row(s) significantly slower than ${flags.compare} by more than ${flags.threshold ?? 10}%\n`);
      process.exitCode = 1;
    }
  }
}
