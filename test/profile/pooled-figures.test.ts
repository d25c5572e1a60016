import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Figure } from '../../src/profile/compare.js';
import { poolFigures } from '../../src/profile/pooled-figures.js';
import { median } from '../../src/profile/throughput.js';

const figure = (name: string, samples?: number[]): Figure => ({ name, value: samples === undefined ? 7 : median(samples), unit: 'ns', better: 'lower', samples });

describe('poolFigures', () => {
  it("pools each figure's samples over the processes, its value their median, in the first process's order", () => {
    const sample = fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(sample, sample), { minLength: 1, maxLength: 4 }), (processes) => {
        const runs = processes.map(([a, b]) => [figure('a', a), figure('b', b)]);
        const pooled = poolFigures(runs);
        expect(pooled.map((f) => f.name)).toEqual(['a', 'b']);
        const all = processes.map(([a]) => a).flat();
        expect(pooled[0]!.samples).toEqual(all);
        expect(pooled[0]!.value).toBe(median(all));
        expect(pooled[1]!.samples).toHaveLength(processes.reduce((n, [, b]) => n + b.length, 0));
      }),
    );
  });

  it('keeps a figure as the first process has it when another process has no samples of it, and nothing from nothing', () => {
    const first = [figure('x', [1, 2, 3]), figure('y')];
    expect(poolFigures([first, [figure('y')]])).toEqual(first);
    expect(poolFigures([first, [figure('x', [10])]])[0]).toEqual(figure('x', [1, 2, 3, 10]));
    expect(poolFigures([])).toEqual([]);
  });
});
