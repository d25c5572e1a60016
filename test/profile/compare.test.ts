// Saved results against current ones: which way is faster for rates and for times, the threshold,
// rows on one side only, and with samples the significance test: a real slowdown flagged, noise not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHA, compareFigures, formatComparison, speedChange, type Figure } from '../../src/profile/compare.js';
import { mannWhitneyP } from '../../src/profile/significance.js';
import { median } from '../../src/profile/throughput.js';

describe('comparing benchmark results', () => {
  it('reads a rate that halves and a time that doubles as the same slowdown', () => {
    expect(speedChange(100, 50, 'higher')).toBeCloseTo(-0.5);
    expect(speedChange(10, 20, 'lower')).toBeCloseTo(-0.5);
    expect(speedChange(10, 5, 'lower')).toBeCloseTo(1);
  });

  it('flags only rows slower than the threshold, and reports added and missing rows without failing', () => {
    const rows = compareFigures(
      [
        { name: 'fw', value: 1000, unit: 'packets/s', better: 'higher' },
        { name: 'ns', value: 100, unit: 'ns/packet', better: 'lower' },
        { name: 'gone', value: 1, unit: 'ms', better: 'lower' },
      ],
      [
        { name: 'fw', value: 950, unit: 'packets/s', better: 'higher' },
        { name: 'ns', value: 125, unit: 'ns/packet', better: 'lower' },
        { name: 'new', value: 1, unit: 'ms', better: 'lower' },
      ],
      0.1,
    );
    expect(rows.map((r) => [r.name, r.status, r.regression])).toEqual([
      ['fw', 'slower', false],
      ['ns', 'slower', true],
      ['new', 'added', false],
      ['gone', 'missing', false],
    ]);
    expect(rows[1]!.change).toBeCloseTo(-0.2);
  });
});

describe('comparing benchmark samples', () => {
  const sample = fc.array(fc.double({ min: 100, max: 110, noNaN: true }), { minLength: 5, maxLength: 40 });

  it('flags a real 2x slowdown of a time or a rate, however the samples scatter', () => {
    fc.assert(
      fc.property(sample, sample, (before, after) => {
        const times = compareFigures([timeFigure(before)], [timeFigure(after.map((t) => 2 * t))], 0.25);
        const rates = compareFigures([rateFigure(before)], [rateFigure(after.map((t) => t / 2))], 0.25);
        for (const [row] of [times, rates]) {
          expect(row!.status).toBe('slower');
          expect(row!.p).toBeLessThan(ALPHA);
          expect(row!.regression).toBe(true);
        }
      }),
    );
  });

  it('flags nothing when the samples are the same, in any order', () => {
    fc.assert(
      fc.property(sample, fc.integer(), fc.double({ min: 0, max: 0.5, noNaN: true }), (before, seed, threshold) => {
        const after = [...before].sort(() => (seed = Math.imul(seed, 48271) | 0) & 1 ? 1 : -1);
        const [row] = compareFigures([timeFigure(before)], [timeFigure(after)], threshold);
        expect(row!.regression).toBe(false);
        expect(row!.status).toBe('same');
      }),
    );
  });

  it('calls a difference of the medians that the samples cannot tell from noise inconclusive, not a regression', () => {
    const [row] = compareFigures([timeFigure([10, 12, 14, 40, 42])], [timeFigure([11, 13, 38, 41, 43])], 0.25);
    expect(row!.change).toBeCloseTo(14 / 38 - 1);
    expect(row!.status).toBe('inconclusive');
    expect(row!.regression).toBe(false);
    expect(formatComparison([row!])).toMatch(/inconclusive -63\.2% \(p = 0\.\d+\)\n$/);
  });

  it('does not flag a significant slowdown smaller than the threshold', () => {
    const [row] = compareFigures([timeFigure([100, 101, 102, 103, 104])], [timeFigure([110, 111, 112, 113, 114])], 0.25);
    expect(row!.status).toBe('slower');
    expect(row!.regression).toBe(false);
  });
});

describe('the Mann-Whitney U test', () => {
  it('gives the exact two-sided p-values of small samples', () => {
    // as scipy.stats.mannwhitneyu(a, b, method='exact') gives them
    expect(mannWhitneyP([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toBeCloseTo(2 / 252, 10);
    expect(mannWhitneyP([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.1, 10);
    expect(mannWhitneyP([1, 3, 5, 7], [2, 4, 6, 8])).toBeCloseTo(0.6857142857, 8);
  });

  it('is symmetric, a probability, and 1 for a side with no samples', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }), (a, b) => {
        const p = mannWhitneyP(a, b);
        expect(p).toBeCloseTo(mannWhitneyP(b, a), 12);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        if (a.length === 0 || b.length === 0) expect(p).toBe(1);
      }),
    );
  });

  it('agrees with the exact p-value through the normal approximation for larger samples', () => {
    const a = Array.from({ length: 20 }, (_, i) => i * 2);
    const b = Array.from({ length: 20 }, (_, i) => i * 2 + 7);
    // exact for 20 and 20; the same samples plus one more each go through the approximation
    expect(mannWhitneyP([...a, 100.5], [...b, 101.5])).toBeCloseTo(mannWhitneyP(a, b), 1);
  });
});

function timeFigure(samples: number[]): Figure {
  return { name: 'rule r', value: median(samples), unit: 'ns/eval', better: 'lower', samples };
}

function rateFigure(samples: number[]): Figure {
  return { name: 'firewall alone', value: median(samples), unit: 'packets/s', better: 'higher', samples };
}
