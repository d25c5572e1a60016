// Saved results against current ones: which way is faster for rates and for times, the threshold,
// rows on one side only, and with each process's median the significance test and the noise floor:
// a real slowdown flagged, noise not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHA, compareFigures, formatComparison, MIN_PROCESSES, speedChange, type Figure } from '../../src/profile/compare.js';
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

describe("comparing figures measured in several processes (each process's median a unit)", () => {
  const medians = fc.array(fc.double({ min: 100, max: 110, noNaN: true }), { minLength: MIN_PROCESSES, maxLength: 12 });

  it('flags a real 2x slowdown of a time or a rate, however the processes scatter', () => {
    fc.assert(
      fc.property(medians, medians, (before, after) => {
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

  it('flags nothing when the processes measured the same, in any order', () => {
    fc.assert(
      fc.property(medians, fc.integer(), fc.double({ min: 0, max: 0.5, noNaN: true }), (before, seed, threshold) => {
        const after = [...before].sort(() => (seed = Math.imul(seed, 48271) | 0) & 1 ? 1 : -1);
        const [row] = compareFigures([timeFigure(before)], [timeFigure(after)], threshold);
        expect(row!.regression).toBe(false);
        expect(row!.status).toBe('same');
      }),
    );
  });

  it("never calls a run different when its processes all fall within the baseline's range (the noise floor)", () => {
    const spread = fc.array(fc.double({ min: 1, max: 1000, noNaN: true }), { minLength: MIN_PROCESSES, maxLength: 12 });
    const within = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: MIN_PROCESSES, maxLength: 12 });
    fc.assert(
      fc.property(spread, within, fc.boolean(), (before, at, rate) => {
        const low = Math.min(...before);
        const high = Math.max(...before);
        const after = at.map((x) => low + x * (high - low));
        const figure = rate ? rateFigure : timeFigure;
        const [row] = compareFigures([figure(before)], [figure(after)], 0);
        expect(['same', 'inconclusive']).toContain(row!.status);
        expect(row!.regression).toBe(false);
      }),
    );
  });

  it('calls a difference within the spread inconclusive even when every process of one side is slower', () => {
    // 5 against 5 fully separated (p = 0.008), but the baseline's processes alone spread over 30% (130 / 100)
    const [row] = compareFigures([timeFigure([100, 104, 108, 112, 130])], [timeFigure([131, 132, 133, 134, 135])], 0.1);
    expect(row!.p).toBeLessThan(ALPHA);
    expect(row!.spread).toBeCloseTo(0.3);
    expect(row!.status).toBe('inconclusive');
    expect(row!.regression).toBe(false);
    expect(formatComparison([row!])).toMatch(/inconclusive -18\.8% \(p = 0\.008, spread 30\.0%\)\n$/);
  });

  it('tells apart a side 100 times slower even when one process of the baseline ran at half speed', () => {
    // the noise is a ratio: a spread of 2.2x does not hide a 100x difference (as a difference of
    // times, 99% of the baseline, it would: the range of its times is 120% of its median)
    const [row] = compareFigures([timeFigure([100, 104, 108, 112, 220])], [timeFigure([10_000, 10_400, 10_800, 11_200, 12_000])], 0.1);
    expect(row!.spread).toBeCloseTo(1.2);
    expect(row!.status).toBe('slower');
    expect(row!.regression).toBe(true);
  });

  it('lets the test alone decide for sides measured in alternating processes, which share the load', () => {
    const [row] = compareFigures([timeFigure([100, 104, 108, 112, 130])], [timeFigure([131, 132, 133, 134, 135])], 0.1, { apart: false });
    expect(row!.status).toBe('slower');
    expect(row!.regression).toBe(true);
    expect(formatComparison([row!])).toMatch(/slower 18\.8% \(p = 0\.008, spread 30\.0%\)  REGRESSION\n$/);
  });

  it('cannot find a difference with fewer than 5 processes a side: inconclusive, with the p-value', () => {
    const [row] = compareFigures([timeFigure([100, 101, 102, 103])], [timeFigure([200, 201, 202, 203])], 0.25);
    expect(row!.p).toBeGreaterThan(ALPHA);
    expect(row!.status).toBe('inconclusive');
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

  it('stays exact when values tie within one side only (they leave U as it is)', () => {
    expect(mannWhitneyP([100, 100, 100, 101, 101], [200, 200, 200, 202, 202])).toBeCloseTo(2 / 252, 10);
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

function timeFigure(processes: number[]): Figure {
  return { name: 'rule r', value: median(processes), unit: 'ns/eval', better: 'lower', processes };
}

function rateFigure(processes: number[]): Figure {
  return { name: 'firewall alone', value: median(processes), unit: 'packets/s', better: 'higher', processes };
}
