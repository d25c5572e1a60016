// Comparing two benchmark results, row by row, for CI: each figure of the current run against the
// same-named figure of a saved baseline, said as faster or slower by how much, and the rows slower
// than the threshold flagged so the caller can exit 1. Used by `edgesim bench --compare` and by the
// project's own `npm run bench --compare`, so both read a slowdown the same way.
//
// A figure knows which way is better (packets/s: higher; ns/packet, ms: lower). A row present on one
// side only is reported as added or missing, never as a slowdown.

import { groupDigits } from '../numbers.js';

export type Better = 'higher' | 'lower';

export interface Figure {
  /** unique within a result: what was measured */
  name: string;
  value: number;
  unit: string;
  better: Better;
}

export interface RowComparison {
  name: string;
  unit: string;
  baseline: number | null;
  current: number | null;
  /** how much faster (> 0) or slower (< 0) the current run is, as a fraction of the baseline's speed; null when a side is missing */
  change: number | null;
  status: 'faster' | 'slower' | 'same' | 'added' | 'missing';
  /** slower by more than the threshold */
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

/** Compares every row; `threshold` is a fraction (0.1 = a row more than 10% slower is a regression). */
export function compareFigures(baseline: readonly Figure[], current: readonly Figure[], threshold: number): RowComparison[] {
  const before = new Map(baseline.map((f) => [f.name, f]));
  const out: RowComparison[] = [];
  for (const f of current) {
    const b = before.get(f.name);
    if (b === undefined) {
      out.push({ name: f.name, unit: f.unit, baseline: null, current: f.value, change: null, status: 'added', regression: false });
      continue;
    }
    before.delete(f.name);
    const change = speedChange(b.value, f.value, f.better);
    const status = change > 0 ? 'faster' : change < 0 ? 'slower' : 'same';
    out.push({ name: f.name, unit: f.unit, baseline: b.value, current: f.value, change, status, regression: change < -threshold });
  }
  for (const b of before.values()) out.push({ name: b.name, unit: b.unit, baseline: b.value, current: null, change: null, status: 'missing', regression: false });
  return out;
}

function num(v: number | null): string {
  if (v === null) return '-';
  if (Math.abs(v) >= 1000) return groupDigits(Math.round(v));
  return v.toPrecision(3);
}

/** One line per row: name, baseline -> current, and faster/slower by how much (REGRESSION when past the threshold). */
export function formatComparison(rows: readonly RowComparison[]): string {
  const width = Math.min(70, Math.max(10, ...rows.map((r) => r.name.length)));
  return rows
    .map((r) => {
      const said = r.change === null ? r.status : `${r.status} ${r.change === Infinity ? '' : `${Math.abs(r.change * 100).toFixed(1)}%`}`.trimEnd();
      return `${r.name.padEnd(width)} ${num(r.baseline).padStart(14)} -> ${num(r.current).padStart(14)} ${r.unit.padEnd(10)} ${said}${r.regression ? '  REGRESSION' : ''}`;
    })
    .join('\n')
    .concat(rows.length > 0 ? '\n' : '');
}
