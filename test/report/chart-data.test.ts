import { beforeAll, describe, expect, it } from 'vitest';
import type { TimelinePoint } from '../../src/atp/rate-meter.js';
import { loadSnapshotFile } from '../../src/config/load.js';
import { chartData } from '../../src/report/chart-data.js';
import type { ReportData } from '../../src/report/report-data.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { replayFile } from '../../src/sim/replay.js';
import { MAX_BUCKETS } from '../../src/sim/verdict-series.js';

let demo: string;

beforeAll(async () => {
  const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
  demo = JSON.stringify({ ...report, warnings });
});

/** The demo's summary stretched to ten hours: full series buckets, a timeline point every second, one spike. */
function tenHours(): ReportData {
  const r = JSON.parse(demo) as ReportData;
  const seconds = 36_000;
  r.lastTime = (r.firstTime as number) + seconds;
  r.series.bucketSeconds = 32.768;
  for (const name of Object.keys(r.series.counts) as Array<keyof typeof r.series.counts>) {
    r.series.counts[name] = Array.from({ length: MAX_BUCKETS - 2 }, (_, k) => (name === 'pass' ? 1000 + (k % 7) : k % 3));
  }
  const scope = r.atp!.components.syn_protection.scopes[0];
  scope.timeline = Array.from({ length: seconds }, (_, t): TimelinePoint => ({
    time: t,
    packets: 10,
    ratePps: t === 20_001 ? 9_999 : 10 + (t % 5),
    burstPps: 12,
    rateThresholdPps: t < 10 ? null : 100,
    burstThresholdPps: t < 10 ? null : 500,
    mitigating: t > 20_000 && t < 20_060,
  }));
  return r;
}

describe('chart data for long captures', () => {
  it('stays small: a few hundred bars and at most a thousand ATP points, keeping the totals and the peak', () => {
    const r = tenHours();
    const charts = chartData(r);
    expect(charts.verdicts.x.length).toBeLessThanOrEqual(300);
    const seconds = (r.lastTime as number) - (r.firstTime as number);
    // rates times widths give back the packets of every column
    for (const column of charts.verdicts.columns) {
      const packets = column.values.reduce((a, v, g) => a + v * Math.min(charts.verdicts.bucketSeconds, r.series.counts.pass.length * r.series.bucketSeconds - charts.verdicts.x[g]), 0);
      const total = r.series.counts[column.name].reduce((a, b) => a + b, 0);
      expect(packets).toBeCloseTo(total, 0);
    }
    const syn = charts.atp.find((c) => c.id === 'atp-syn_protection-0')!;
    expect(syn.x.length).toBeLessThanOrEqual(1000);
    expect(Math.max(...syn.rate)).toBe(9_999);
    expect(syn.rateThreshold.at(-1)).toBe(100);
    expect(syn.end).toBeGreaterThanOrEqual(seconds - 1);
    const page = renderHtmlReport(r);
    expect(page.length).toBeLessThan(400_000);
  });

  it('leaves a short capture as it is', () => {
    const r = JSON.parse(demo) as ReportData;
    const charts = chartData(r);
    const scope = r.atp!.components.syn_protection.scopes[0];
    const syn = charts.atp.find((c) => c.id === 'atp-syn_protection-0')!;
    expect(syn.rate).toEqual(scope.timeline.map((p) => p.ratePps));
    expect(charts.verdicts.columns.map((c) => c.name)).toEqual(['pass', 'firewall', 'syn_protection']);
  });
});
