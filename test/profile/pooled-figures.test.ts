// Figures of several processes as one: each process's median kept, the figure's value their median,
// and compared so that the process, not the sample, is the unit: one process whose samples all
// moved together is not a difference.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFigures } from '../../src/profile/compare.js';
import { poolFigures, type SampledFigure } from '../../src/profile/pooled-figures.js';
import { median } from '../../src/profile/throughput.js';

const figure = (name: string, samples?: number[]): SampledFigure => ({ name, value: samples === undefined ? 7 : median(samples), unit: 'ns', better: 'lower', samples });

describe('poolFigures', () => {
  it("keeps each process's median of each figure, its value their median, in the first process's order", () => {
    const sample = fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(sample, sample), { minLength: 1, maxLength: 6 }), (processes) => {
        const runs = processes.map(([a, b]) => [figure('a', a), figure('b', b)]);
        const pooled = poolFigures(runs);
        expect(pooled.map((f) => f.name)).toEqual(['a', 'b']);
        const medians = processes.map(([a]) => median(a));
        expect(pooled[0]!.processes).toEqual(medians);
        expect(pooled[0]!.value).toBe(median(medians));
        expect(pooled[1]!.processes).toHaveLength(processes.length);
        expect(pooled[0]).not.toHaveProperty('samples');
      }),
    );
  });

  it("keeps a figure as the first process's value alone when another process has no samples of it, and nothing from nothing", () => {
    const first = [figure('x', [1, 2, 3]), figure('y')];
    const { samples: _, ...x } = first[0]!;
    expect(poolFigures([first, [figure('y')]])).toEqual([x, { name: 'y', value: 7, unit: 'ns', better: 'lower' }]);
    expect(poolFigures([first, [figure('x', [10])]])[0]).toEqual({ ...x, value: 6, processes: [2, 10] });
    expect(poolFigures([])).toEqual([]);
  });

  it('does not call a run slower because one process of each side drew a slower state, however tight its samples', () => {
    // five processes a side; within a process the samples agree to 1%, but one process of the
    // baseline and three of the current one run 40% slower (a different JIT outcome, say): pooled as
    // independent samples these differ at p < 0.001 by 29%, yet the processes are the same population
    const process = (ns: number, k: number) => [figure('rule r', Array.from({ length: 12 }, (_, i) => ns * (1 + ((i * 7 + k) % 10) / 1000)))];
    const before = poolFigures([100, 100, 140, 100, 100].map(process));
    const after = poolFigures([140, 100, 140, 140, 100].map(process));
    const [row] = compareFigures(before, after, 0.25);
    expect(row!.change).toBeLessThan(-0.28);
    expect(row!.status).toBe('inconclusive');
    expect(row!.regression).toBe(false);
  });
});
