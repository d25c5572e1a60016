// The numbers the page's charts draw, prepared from the summary so the browser script stays small:
// x in seconds since the capture's first packet for every chart (ATP's timelines count from the
// first packet ATP saw, so they are shifted onto the same axis), rates in packets per second.
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import type { TimelinePoint } from '../atp/rate-meter.js';
import { scopeName } from '../atp/report.js';
import { SERIES_COLUMNS, type SeriesColumn } from '../sim/verdict-series.js';
import { largest } from './html.js';
import type { ReportData } from './report-data.js';

export interface VerdictChart {
  /** bucket start times */
  x: number[];
  /** packets per second in each bucket, by column; drop columns with no packet are left out */
  columns: Array<{ name: SeriesColumn; values: number[] }>;
  bucketSeconds: number;
}

export interface AtpChart {
  /** the element id the chart is mounted in */
  id: string;
  title: string;
  x: number[];
  rate: number[];
  burst: number[];
  rateThreshold: Array<number | null>;
  burstThreshold: Array<number | null>;
  /** mitigation periods; end null: on until the end of the capture */
  mitigations: Array<[number, number | null]>;
  /** where the x axis ends (the capture's length) */
  end: number;
}

export interface ChartData {
  verdicts: VerdictChart;
  atp: AtpChart[];
}


const round = (v: number): number => Math.round(v * 1e6) / 1e6;

/** At most this many bars in the verdicts chart (three to four pixels each on a laptop screen). */
const CHART_POINTS = 300;
/** At most this many points in an ATP chart; an hour-long capture has a timeline point a second. */
const ATP_POINTS = 1000;

export function chartData(r: ReportData): ChartData {
  const s = r.series;
  const n = s.counts.pass.length;
  // a bar narrower than ~2 pixels shows noise, not shape: merge buckets for the picture
  const merge = Math.max(1, Math.ceil(n / CHART_POINTS));
  const x: number[] = [];
  for (let k = 0; k < n; k += merge) x.push(round(k * s.bucketSeconds));
  const columns = SERIES_COLUMNS.filter((name) => name === 'pass' || s.counts[name].some((v) => v > 0)).map((name) => ({
    name,
    values: x.map((_, g) => {
      const from = g * merge;
      const to = Math.min(n, from + merge);
      let sum = 0;
      for (let k = from; k < to; k++) sum += s.counts[name][k];
      return round(sum / ((to - from) * s.bucketSeconds));
    }),
  }));
  const start = s.start ?? 0;
  const end = r.firstTime !== null && r.lastTime !== null ? r.lastTime - r.firstTime : 0;
  const atp: AtpChart[] = [];
  if (r.atp !== null && r.atp.captureStart !== null) {
    const shift = r.atp.captureStart - start;
    for (const { name: stage, title } of PROTECTION_COMPONENTS) {
      r.atp.components[stage].scopes.forEach((scope, i) => {
        if (scope.timeline.length === 0) return;
        const t = thin(scope.timeline);
        atp.push({
          id: `atp-${stage}-${i}`,
          title: `${title[0]!.toUpperCase()}${title.slice(1)} — ${scopeName(scope)}`,
          x: t.map((p) => round(p.time + shift)),
          rate: t.map((p) => p.ratePps),
          burst: t.map((p) => p.burstPps),
          rateThreshold: t.map((p) => p.rateThresholdPps),
          burstThreshold: t.map((p) => p.burstThresholdPps),
          mitigations: scope.mitigations.map((m) => [round(m.start + shift), m.end === null ? null : round(m.end + shift)]),
          end: Math.max(end, round(t[t.length - 1].time + shift)),
        });
      });
    }
  }
  return { verdicts: { x, columns, bucketSeconds: s.bucketSeconds * merge }, atp };
}

// Merges runs of consecutive timeline points so at most ATP_POINTS remain: the highest rates of a
// run (a peak stays visible) and the thresholds in force at its end.
function thin(timeline: TimelinePoint[]): TimelinePoint[] {
  const size = Math.ceil(timeline.length / ATP_POINTS);
  if (size <= 1) return timeline;
  const out: TimelinePoint[] = [];
  for (let k = 0; k < timeline.length; k += size) {
    const run = timeline.slice(k, k + size);
    const last = run[run.length - 1];
    out.push({
      ...last,
      time: run[0].time,
      packets: run.reduce((a, p) => a + p.packets, 0),
      ratePps: largest(run.map((p) => p.ratePps)),
      burstPps: largest(run.map((p) => p.burstPps)),
      mitigating: run.some((p) => p.mitigating),
    });
  }
  return out;
}
