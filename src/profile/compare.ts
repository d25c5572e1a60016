// Comparing two benchmark results, row by row, for CI: each figure of the current run against the
// same-named figure of a saved baseline, said as faster or slower by how much, and the rows slower
// than the threshold flagged so the caller can exit 1. Used by `edgesim bench --compare` and by the
// project's own `npm run bench --compare`, so both read a slowdown the same way.
//
// A gate that flags noise gets switched off, so when both sides kept their samples a row is called
// faster or slower only when the samples differ significantly (Mann–Whitney U, p < ALPHA,
// significance.ts), and a regression also needs the medians' ratio past the threshold, as criterion
// and pyperf decide; a difference the samples cannot tell from noise is "inconclusive". A figure
// without samples (one value, as `npm run bench` rows are) is judged on its value alone.
//
// A figure knows which way is better (packets/s: higher; ns/packet, ms: lower). A row present on one
// side only is reported as added or missing, never as a slowdown.

import { groupDigits } from '../numbers.js';
import { mannWhitneyP } from './significance.js';

/**
 * the significance level: a difference whose p-value is at least this is inconclusive. 1%, not the
 * usual 5%: a CI gate that cries wolf gets switched off, and a real slowdown past the threshold
 * separates the samples so clearly that its p-value is far below either (a self-comparison in CI
 * was seen at p = 0.036-0.045).
 */
export const ALPHA = 0.01;

export type Better = 'higher' | 'lower';

export interface Figure {
  /** unique within a result: what was measured */
  name: string;
  value: number;
  unit: string;
  better: Better;
  /** the samples `value` is the median of, in the same unit, when kept */
  samples?: number[];
}

export interface RowComparison {
  name: string;
  unit: string;
  baseline: number | null;
  current: number | null;
  /** how much faster (> 0) or slower (< 0) the current run is, as a fraction of the baseline's speed; null when a side is missing */
  change: number | null;
  status: 'faster' | 'slower' | 'same' | 'inconclusive' | 'added' | 'missing';
  /** the significance test's p-value; null when a side has no samples (the values alone decide) */
  p: number | null;
  /** slower, and by more than the threshold */
  regression: boolean;
}

/**
 * Speed change from `baseline` to `current`: +0.25 means 25% faster, -0.10 means 10% slower. For a
 * higher-is-better figure it is current/baseline - 1; for a lower-is-better one (a time), baseline/current - 1,
 * so that a time that doubles reads as -50% (half the speed), the same as a rate that halves.
 */
export function speedChange(baseline: number, current: number, better: Better): number {
  if (baseline === current) return 0;
  if (better === 'higher') return baseline === 0 ? Infinity : current / baseline - 1;
  return current === 0 ? Infinity : baseline / current - 1;
}

/** Compares every row; `threshold` is a fraction (0.1 = a row significantly slower by more than 10% is a regression). */
export function compareFigures(baseline: readonly Figure[], current: readonly Figure[], threshold: number): RowComparison[] {
  const before = new Map(baseline.map((f) => [f.name, f]));
  const out: RowComparison[] = [];
  for (const f of current) {
    const b = before.get(f.name);
    if (b === undefined) {
      out.push({ name: f.name, unit: f.unit, baseline: null, current: f.value, change: null, status: 'added', p: null, regression: false });
      continue;
    }
    before.delete(f.name);
    const change = speedChange(b.value, f.value, f.better);
    const p = b.samples === undefined || f.samples === undefined ? null : mannWhitneyP(b.samples, f.samples);
    const status = change === 0 ? 'same' : p !== null && p >= ALPHA ? 'inconclusive' : change > 0 ? 'faster' : 'slower';
    out.push({ name: f.name, unit: f.unit, baseline: b.value, current: f.value, change, status, p, regression: status === 'slower' && change < -threshold });
  }
  for (const b of before.values()) out.push({ name: b.name, unit: b.unit, baseline: b.value, current: null, change: null, status: 'missing', p: null, regression: false });
  return out;
}

function num(v: number | null): string {
  if (v === null) return '-';
  if (Math.abs(v) >= 1000) return groupDigits(Math.round(v));
  return v.toPrecision(3);
}

function percent(change: number, signed: boolean): string {
  if (change === Infinity) return '';
  const text = `${Math.abs(change * 100).toFixed(1)}%`;
  return signed ? `${change < 0 ? '-' : '+'}${text}` : text;
}

/**
 * One line per row: name, baseline -> current, and faster/slower by how much with the test's
 * p-value (REGRESSION when past the threshold), or inconclusive with the difference measured.
 */
export function formatComparison(rows: readonly RowComparison[]): string {
  const width = Math.min(70, Math.max(10, ...rows.map((r) => r.name.length)));
  return rows
    .map((r) => {
      const p = r.p === null ? '' : ` (p = ${r.p < 0.001 ? '< 0.001' : r.p.toFixed(3)})`;
      const said = r.change === null ? r.status : `${r.status} ${percent(r.change, r.status === 'inconclusive')}`.trimEnd() + p;
      return `${r.name.padEnd(width)} ${num(r.baseline).padStart(14)} -> ${num(r.current).padStart(14)} ${r.unit.padEnd(10)} ${said}${r.regression ? '  REGRESSION' : ''}`;
    })
    .join('\n')
    .concat(rows.length > 0 ? '\n' : '');
}
