// What the report costs: the per-packet counters the replay summary keeps for it (verdicts over
// time, top addresses among drops) against a baseline loop that only counts, measured in one run;
// the top-address counter both when a few sources send everything and under a flood of spoofed,
// all-distinct sources (every packet takes over a counter); and rendering the demo's page.
import { loadSnapshotFile } from '../src/config/load.js';
import { renderHtmlReport } from '../src/report/render.js';
import { HeavyHitters } from '../src/sim/heavy-hitters.js';
import { replayFile } from '../src/sim/replay.js';
import { VerdictSeries } from '../src/sim/verdict-series.js';
import type { BenchRow, BenchSuite } from './types.js';

const N = 5_000_000;

function nsPerOp(body: () => void): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const t = process.hrtime.bigint();
    body();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / N);
  }
  return best;
}

export const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const counts = new Float64Array(4);
  const baseline = nsPerOp(() => {
    for (let i = 0; i < N; i++) counts[i & 3]++;
  });
  const series = nsPerOp(() => {
    const s = new VerdictSeries();
    // ten hours at 140 packets/s: the width doubles as it goes
    for (let i = 0; i < N; i++) s.add(1_700_000_000 + Math.floor(i / 140), (i % 140) * 7_000_000, i & 3);
  });
  const few = nsPerOp(() => {
    const h = new HeavyHitters();
    for (let i = 0; i < N; i++) h.add(0, 0, 0xffff, 0xc0000200 + (i % 100));
  });
  const flood = nsPerOp(() => {
    const h = new HeavyHitters();
    let x = 1;
    for (let i = 0; i < N; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      h.add(0, 0, 0xffff, x);
    }
  });
  rows.push({ suite: 'report', name: 'verdicts over time: ns per packet / counting loop', value: series / baseline, unit: 'x', note: `${series.toFixed(1)} ns vs ${baseline.toFixed(1)} ns, ${N} packets` });
  rows.push({ suite: 'report', name: 'top addresses, 100 sources: ns per drop', value: few, unit: 'ns' });
  rows.push({ suite: 'report', name: 'top addresses, spoofed flood: ns per drop / 100 sources', value: flood / few, unit: 'x', note: `${flood.toFixed(1)} ns vs ${few.toFixed(1)} ns` });

  const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
  const t = process.hrtime.bigint();
  const html = renderHtmlReport({ ...report, warnings });
  rows.push({ suite: 'report', name: 'render the demo page', value: Number(process.hrtime.bigint() - t) / 1e6, unit: 'ms', note: `${Math.round(html.length / 1024)} KB` });
  return rows;
};
