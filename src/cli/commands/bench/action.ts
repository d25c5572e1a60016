// `edgesim bench`, run: hold the packets in memory (a capture, or a generated scenario), measure
// (profile/benchmark.ts), run the peers on a capture file, print the report or JSON, save or compare
// the figures, or measure --against's configuration alternately with --config's and compare them.
// The figures kept or judged are measured in --processes processes a configuration (this one and
// samplers running the same command line: samplers.ts), each process's median kept
// (profile/pooled-figures.ts): the process is the unit compare.ts tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { attachSource, InputError, OutputError, UsageError, UserError } from '../../../errors.js';
import { benchmark } from '../../../profile/benchmark.js';
import { compareFigures, formatComparison, MIN_PROCESSES, type Figure, type RowComparison } from '../../../profile/compare.js';
import { poolFigures } from '../../../profile/pooled-figures.js';
import { loadCapture, loadScenario } from '../../../profile/frames.js';
import { fromFile, runPeers } from '../../../profile/peers.js';
import { figuresOf, formatReport, type FullReport } from '../../../profile/report.js';
import { dataOptions, loadConfiguration } from '../../configuration.js';
import type { ConfigFlags, DataFlags } from '../../options.js';
import { printWarnings, writeOutput } from '../../output.js';
import { distinctCaptures } from '../../paths.js';
import { figuresOfSamplers, samplerSide, type Side } from './samplers.js';

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
  against?: string[];
  threshold?: number;
  processes?: number;
  peers: boolean;
}

/**
 * What --save writes. Version 2 keeps each process's median of a figure (`processes`); files without
 * a version pooled the processes' samples, which the comparison no longer reads.
 */
interface SavedFigures {
  version: 2;
  date: string;
  input: string;
  figures: Figure[];
}
function readSaved(file: string): SavedFigures {
  let saved: SavedFigures;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as SavedFigures;
  } catch (err) {
    throw new InputError(file, err, 'cannot read the saved figures');
  }
  if (!Array.isArray(saved?.figures)) throw new InputError(file, new Error('not a file written by edgesim bench --save (no "figures")'), 'cannot read the saved figures');
  if (saved.version !== 2) throw new InputError(file, new Error('saved by an older edgesim, without each process\'s figures: save the baseline again with --save'), 'cannot compare with the saved figures');
  return saved;
}

export async function run(captures: string[], flags: BenchFlags): Promise<void> {
  // several captures are measured merged by time, as one
  const capture = captures.length === 0 ? undefined : captures.join(' + ');
  distinctCaptures(captures);
  if ((capture === undefined) === (flags.scenario === undefined)) throw new UsageError('give a capture file or --scenario NAME (one of them)');
  if (flags.runs === 0) throw new UsageError('--runs must be at least 1');
  if (flags.minTime === 0) throw new UsageError('--min-time must be at least 1 (ms)');
  if (flags.limit === 0) throw new UsageError('--limit must be at least 1');
  if (flags.compare !== undefined && flags.against !== undefined) throw new UsageError('give --compare FILE (saved figures) or --against AFTER (a configuration measured now), not both');
  const judged = flags.save !== undefined || flags.compare !== undefined || flags.against !== undefined;
  const processes = flags.processes ?? MIN_PROCESSES;
  if (judged && processes < MIN_PROCESSES) throw new UsageError(`--processes must be at least ${MIN_PROCESSES}: with fewer, no difference can be told from noise at p < 0.01`);
  if (judged && [...captures, ...(flags.config ?? []), ...(flags.against ?? [])].includes('-')) throw new UsageError('--save, --compare and --against measure in several processes: give files, not standard input (read once)');
  const sampler = samplerSide();
  const baseline = flags.compare === undefined || sampler !== undefined ? undefined : readSaved(flags.compare);
  // --against names files, whatever names --config's side (files, or --api)
  const config = await loadConfiguration(sampler === 'against' ? { ...flags, config: flags.against, api: undefined } : flags);
  const store =
    capture !== undefined
      ? await loadCapture(captures, flags.limit ?? 300_000)
      : loadScenario(flags.scenario!, { packets: flags.packets ?? 100_000, seed: flags.seed });
  if (store.count === 0) throw new UserError('no packets to measure', { source: capture ?? `--scenario ${flags.scenario}` });
  const runs = flags.runs ?? 5;
  const report = await benchmark(store, config.snapshot, { ...dataOptions(flags), runs, minTimeMs: flags.minTime }).catch((err: unknown) => {
    throw attachSource(err, config.source);
  });
  if (sampler !== undefined) {
    process.stdout.write(JSON.stringify(figuresOf({ input: '', ...report, from_file_packets_per_second: null, peers: [] })));
    return;
  }
  const expressions = (config.snapshot.rulesets ?? []).flatMap((rs) => (rs.rules ?? []).filter((r) => r.enabled !== false).map((r) => r.expression));
  const withPeers = capture !== undefined && flags.peers;
  const peerRuns = Math.min(runs, 3);
  // the peers read the whole file, so edgesim's figure against them does too (whatever --limit says)
  const ours = withPeers ? await fromFile(captures, config.snapshot, dataOptions(flags), peerRuns) : null;
  const peers = ours !== null ? runPeers(captures, expressions, ours.packets, peerRuns) : [];
  const full: FullReport = { input: capture ?? `scenario ${flags.scenario}`, ...report, from_file_packets_per_second: ours?.packets_per_second ?? null, peers };

  writeOutput(flags.out, flags.json ? `${JSON.stringify(full, null, 2)}\n` : formatReport(full));
  printWarnings(captures.length > 1 ? undefined : capture, report.warnings);

  if (!judged) return;
  // samples of one process share its state: figures kept or judged are each process's median, from
  // several; with --against the two configurations' processes alternate, so the machine's load
  // changes hit both alike
  const sides: Side[] = flags.against === undefined ? Array(processes - 1).fill('config') : Array.from({ length: 2 * processes - 1 }, (_, i) => (i % 2 === 0 ? 'against' : 'config'));
  const measured = figuresOfSamplers(sides);
  const ofSide = (side: Side) => measured.filter((_, i) => sides[i] === side);
  const figures = poolFigures([figuresOf(full), ...ofSide('config')]);
  if (flags.save !== undefined) {
    const saved: SavedFigures = { version: 2, date: new Date().toISOString(), input: full.input, figures };
    try {
      writeFileSync(flags.save, `${JSON.stringify(saved, null, 2)}\n`);
    } catch (err) {
      throw new OutputError(flags.save, err);
    }
  }
  const threshold = (flags.threshold ?? 10) / 100;
  if (baseline !== undefined) {
    const rows = compareFigures(baseline.figures, figures, threshold, { apart: true });
    process.stderr.write(`compared with ${flags.compare} (${baseline.date}, ${baseline.input}):\n${formatComparison(rows)}`);
    reportRegressions(rows, flags.compare!, flags.threshold);
  }
  if (flags.against !== undefined) {
    const after = flags.against.join(' + ');
    const rows = compareFigures(figures, poolFigures(ofSide('against')), threshold, { apart: false });
    process.stderr.write(`${after} against ${config.source ?? '--config'} (${processes} processes each, alternating):\n${formatComparison(rows)}`);
    reportRegressions(rows, config.source ?? '--config', flags.threshold);
  }
}

/** Says how many rows are regressions, and exits 1 when there are some. */
function reportRegressions(rows: readonly RowComparison[], baseline: string, threshold: number | undefined): void {
  const slower = rows.filter((r) => r.regression);
  if (slower.length === 0) return;
  process.stderr.write(`edgesim: ${slower.length} row(s) significantly slower than ${baseline} by more than ${threshold ?? 10}%\n`);
  process.exitCode = 1;
}
