// Comparing two benchmark results, row by row, for CI: each figure of the current run against the
// same-named figure of a saved baseline, said as faster or slower by how much, and the rows slower
// than the threshold flagged so the caller can exit 1. Used by `edgesim bench --compare` and by the
// project's own `npm run bench --compare`, so both read a slowdown the same way.
//
// A gate that flags noise gets switched off. Samples taken in one process move together (what V8
// compiled, where the heap lies, the machine's load while it ran), so they are not independent and
// a test over them reads one process's luck as a real difference. The unit is the process, as in a
// hierarchical test: a figure measured in several processes keeps each process's median, and a row
// is called faster or slower only when (1) those medians differ significantly (Mann–Whitney U,
// p < ALPHA, significance.ts; with 5 processes a side only a complete separation reaches it) and
// (2), when the two sides were measured apart in time (a saved baseline, then the current run), the
// medians' ratio is further from 1 than the spread of the processes' medians on each side (the noise
// floor: max / min, compared as ratios because load scales a time rather than adding to it, so a
// run whose processes all fall within the other's range never differs from it, and a side 100x the
// other is told apart even when one of its processes ran at half speed): the machine's load changes CPU time itself (seen at 25-58% on a shared 2-core machine between
// two runs a minute apart), and the spread within a run is the only measure of it a side has. Sides
// measured in alternating processes (`bench --against`) share the load's changes, so the test alone
// decides. A regression also needs the difference past the threshold, as criterion and pyperf
// decide. A difference within the noise is "inconclusive", said with the spread. A figure measured once (one value, as `npm run bench` rows are) is judged on its
// value alone.
//
// A figure knows which way is better (packets/s: higher; ns/packet, ms: lower). A row present on one
// side only is reported as added or missing, never as a slowdown.

import { printable } from '../terminal-text.js';
import { groupDigits } from '../numbers.js';
import { mannWhitneyP } from './significance.js';

/**
 * the significance level: a difference whose p-value is at least this is inconclusive. 1%, not the
 * usual 5%: a CI gate that cries wolf gets switched off. Reaching it takes at least MIN_PROCESSES
 * processes a side (the exact test's smallest p-value for 5 and 5 is 2/252 = 0.008).
 */
export const ALPHA = 0.01;
/** the fewest processes a side for which a row can be found significantly different at ALPHA */
export const MIN_PROCESSES = 5;

export type Better = 'higher' | 'lower';

export interface Figure {
  /** unique within a result: what was measured */
  name: string;
  value: number;
  unit: string;
  better: Better;
  /** the median of each process that measured the figure, in the same unit; `value` is their median */
  processes?: number[];
}

export interface RowComparison {
  name: string;
  unit: string;
  baseline: number | null;
  current: number | null;
  /** how much faster (> 0) or slower (< 0) the current run is, as a fraction of the baseline's speed; null when a side is missing */
  change: number | null;
  status: 'faster' | 'slower' | 'same' | 'inconclusive' | 'added' | 'missing';
  /** the significance test's p-value over the processes' medians; null when a side has none (the values alone decide) */
  p: number | null;
  /** the noise floor: the larger side's spread of its processes' medians, max / min - 1; null with p */
  spread: number | null;
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

/** How the two sides were measured: apart in time (a saved baseline), or in alternating processes. */
export interface Measured {
  apart: boolean;
}

/**
 * Compares every row; `threshold` is a fraction (0.1 = a row significantly slower by more than 10% is
 * a regression). Sides measured `apart` must also differ by more than their processes' spread.
 */
export function compareFigures(baseline: readonly Figure[], current: readonly Figure[], threshold: number, { apart }: Measured = { apart: true }): RowComparison[] {
  const before = new Map(baseline.map((f) => [f.name, f]));
  const out: RowComparison[] = [];
  for (const f of current) {
    const b = before.get(f.name);
    if (b === undefined) {
      out.push({ name: f.name, unit: f.unit, baseline: null, current: f.value, change: null, status: 'added', p: null, spread: null, regression: false });
      continue;
    }
    before.delete(f.name);
    const change = speedChange(b.value, f.value, f.better);
    const measured = b.processes !== undefined && f.processes !== undefined;
    const p = measured ? mannWhitneyP(b.processes!, f.processes!) : null;
    const noise = measured ? Math.max(logSpread(b.processes!), logSpread(f.processes!)) : 0;
    const spread = measured ? Math.expm1(noise) : null;
    const withinNoise = p !== null && (p >= ALPHA || (apart && !(Math.abs(Math.log(f.value / b.value)) > noise)));
    const status = change === 0 ? 'same' : withinNoise ? 'inconclusive' : change > 0 ? 'faster' : 'slower';
    out.push({ name: f.name, unit: f.unit, baseline: b.value, current: f.value, change, status, p, spread, regression: status === 'slower' && change < -threshold });
  }
  for (const b of before.values()) out.push({ name: b.name, unit: b.unit, baseline: b.value, current: null, change: null, status: 'missing', p: null, spread: null, regression: false });
  return out;
}

/** ln(max / min) of positive figures (Infinity when one is 0: no ratio is beyond it) */
function logSpread(xs: readonly number[]): number {
  return Math.log(Math.max(...xs) / Math.min(...xs));
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
 * p-value and the spread (REGRESSION when past the threshold), or inconclusive with the difference
 * measured, the p-value and the spread it did not clear.
 */
export function formatComparison(rows: readonly RowComparison[]): string {
  const named = rows.map((r) => ({ ...r, name: printable(r.name) }));
  const width = Math.min(70, Math.max(10, ...named.map((r) => r.name.length)));
  return named
    .map((r) => {
      const p = r.p === null ? '' : ` (p = ${r.p < 0.001 ? '< 0.001' : r.p.toFixed(3)}, spread ${percent(r.spread!, false)})`;
      const said = r.change === null ? r.status : `${r.status} ${percent(r.change, r.status === 'inconclusive')}`.trimEnd() + p;
      return `${r.name.padEnd(width)} ${num(r.baseline).padStart(14)} -> ${num(r.current).padStart(14)} ${r.unit.padEnd(10)} ${said}${r.regression ? '  REGRESSION' : ''}`;
    })
    .join('\n')
    .concat(rows.length > 0 ? '\n' : '');
}
