// Figures measured in several processes, pooled. Samples taken in one process share its state (what
// the JIT compiled, where the heap lies), which can shift every sample of a figure together by more
// than the noise within it: a saved baseline from one process then differs "significantly" from a
// later process of the very same build. pyperf measures in several processes and pools their samples
// for this reason; `bench --save` and `--compare` do the same, so the significance test sees the
// spread between processes too.
import { median } from './throughput.js';
import type { Figure } from './compare.js';

/** The figures of several processes as one: each figure's samples pooled, its value their median. */
export function poolFigures(runs: ReadonlyArray<readonly Figure[]>): Figure[] {
  const [first, ...others] = runs;
  if (first === undefined) return [];
  return first.map((f) => {
    const same = others.map((r) => r.find((g) => g.name === f.name));
    if (f.samples === undefined || same.some((g) => g?.samples === undefined)) return f;
    const samples = [...f.samples, ...same.flatMap((g) => g!.samples!)];
    return { ...f, value: median(samples), samples };
  });
}
