// Figures measured in several processes, as one. Samples taken in one process share its state (what
// the JIT compiled, where the heap lies, the machine's load while it ran), which can shift every
// sample of a figure together by more than the noise within it: they are not independent, and a
// test that counts them as such reads one process's luck as a difference. So, as in a hierarchical
// test, the process is the unit: each figure keeps the median of each process's samples, and its
// value is the median of those (compare.ts tests the processes' medians). pyperf measures in
// several processes for this reason; `bench --save` and `--compare` do the same.
import { median } from './throughput.js';
import type { Figure } from './compare.js';

/** A figure as measured in one process: its samples, when it has them (one value otherwise). */
export interface SampledFigure extends Figure {
  samples?: number[];
}

/**
 * The figures of several processes as one, in the first process's order: each figure's processes'
 * medians, its value their median; a figure some process measured without samples is kept as the
 * first process's value alone.
 */
export function poolFigures(runs: ReadonlyArray<readonly SampledFigure[]>): Figure[] {
  const [first, ...others] = runs;
  if (first === undefined) return [];
  return first.map(({ samples, ...f }) => {
    const same = others.map((r) => r.find((g) => g.name === f.name)?.samples);
    if (samples === undefined || same.some((s) => s === undefined)) return f;
    const processes = [samples, ...(same as number[][])].map((s) => median(s));
    return { ...f, value: median(processes), processes };
  });
}
