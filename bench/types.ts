import type { Better } from '../src/profile/compare.js';

/** One measured figure. Prefer ratios measured in one run (edgesim vs a peer on the same input). */
export interface BenchRow {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** which way is faster; by default 'higher' for rates (unit ending in /s) and 'lower' for everything else (times, sizes, slowdown ratios) */
  better?: Better;
  /** what was compared, the input's size, the peer's figure: whatever a reader needs to trust it */
  note?: string;
}

/** A benchmark suite: runs its measurements and returns the rows. Must finish in under ~60 s. */
export type BenchSuite = () => Promise<BenchRow[]>;
