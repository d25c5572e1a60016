// Saved results against current ones: which way is faster for rates and for times, the threshold,
// and rows on one side only.
import { describe, expect, it } from 'vitest';
import { compareFigures, speedChange } from '../../src/profile/compare.js';

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
