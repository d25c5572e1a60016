import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERIES_COLUMNS, VerdictSeries } from '../../src/sim/verdict-series.js';

const COLS = SERIES_COLUMNS.length;

/** packets as (milliseconds after the first packet, column); the first packet is at t = 0 */
const packets = fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: COLS - 1 })), { minLength: 1, maxLength: 400 });

function feed(series: VerdictSeries, list: Array<[number, number]>, offsetMs = 0.3): void {
  const start = 1_700_000_000;
  series.add(start, 0, list[0][1]);
  for (const [ms, col] of list.slice(1)) {
    // a third of a millisecond past a whole millisecond: never on a bucket boundary, so the expected
    // bucket is the same whatever the rounding of t / width
    const ns = Math.round((ms + offsetMs) * 1e6);
    series.add(start + Math.floor(ns / 1e9), ns % 1e9, col);
  }
}

describe('verdicts over time (adaptive buckets)', () => {
  it('keeps every packet: each column sums to the packets counted in it, and never more than the bucket limit', () => {
    fc.assert(
      fc.property(packets, fc.integer({ min: 2, max: 64 }), (list, max) => {
        const series = new VerdictSeries(max);
        feed(series, list);
        const r = series.report();
        SERIES_COLUMNS.forEach((name, c) => {
          const sum = r.counts[name].reduce((a, b) => a + b, 0);
          expect(sum).toBe(list.filter(([, col]) => col === c).length);
          expect(r.counts[name].length).toBeLessThanOrEqual(max);
        });
      }),
    );
  });

  it('puts each packet in the bucket of its time, at the narrowest width (1 ms · 2^k) that fits the capture', () => {
    fc.assert(
      fc.property(packets, fc.integer({ min: 2, max: 64 }), (list, max) => {
        const series = new VerdictSeries(max);
        feed(series, list);
        const r = series.report();
        const last = Math.max(...list.slice(1).map(([ms]) => ms + 0.3), 0);
        let width = 1;
        while (Math.floor(last / width) >= max) width *= 2;
        expect(r.bucketSeconds * 1000).toBeCloseTo(width, 9);
        const expected = SERIES_COLUMNS.map(() => new Array<number>(Math.floor(last / width) + 1).fill(0));
        expected[list[0][1]][0]++;
        for (const [ms, col] of list.slice(1)) expected[col][Math.floor((ms + 0.3) / width)]++;
        SERIES_COLUMNS.forEach((name, c) => expect(r.counts[name]).toEqual(expected[c]));
      }),
    );
  });

  it('puts packets stamped on and next to bucket edges where floor(ns / width) says, at the width the capture needs', () => {
    // times in ns after the first packet: whole milliseconds (edges at every width), one ns either side
    const stamps = fc.array(fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom(-1, 0, 1), fc.integer({ min: 0, max: COLS - 1 })), { minLength: 50, maxLength: 300, size: 'max' });
    fc.assert(
      fc.property(stamps, fc.integer({ min: 2, max: 64 }), (list, max) => {
        const series = new VerdictSeries(max);
        const start = 1_700_000_000;
        // in time order, as captures mostly are (a packet then often falls just past its predecessor's bucket)
        list.sort((a, b) => a[0] * 1e6 + a[1] - (b[0] * 1e6 + b[1]));
        const times = list.map(([ms, d]) => Math.max(0, ms * 1e6 + d));
        series.add(start, 0, 0);
        list.forEach(([, , col], i) => series.add(start + Math.floor(times[i] / 1e9), times[i] % 1e9, col));
        // the reference: buckets per ns halved until the last packet's bucket fits
        let perNs = 1 / 1e6;
        const last = Math.max(0, ...times);
        while (Math.floor(last * perNs) >= max) perNs *= 0.5;
        const expected = new Array<number>(Math.floor(last * perNs) + 1).fill(0);
        const firewall = new Array<number>(expected.length).fill(0);
        expected[0]++;
        list.forEach(([, , col], i) => {
          if (col === 0) expected[Math.floor(times[i] * perNs)]++;
          if (col === 1) firewall[Math.floor(times[i] * perNs)]++;
        });
        const r = series.report();
        expect(r.counts.pass).toEqual(expected);
        expect(r.counts.firewall).toEqual(firewall);
      }),
    );
  });

  it('puts each packet where floor(ns / width) says whatever bucket the packet before it fell in: any order, before the start, on and next to edges, after jumps', () => {
    // ns after the first packet: whole milliseconds and their neighbours (edges at every width), few
    // enough that a packet often follows one in its own or the next bucket; a few before the start,
    // some far later (each forces halvings); in any order
    const offset = fc.oneof(
      { arbitrary: fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(-2, -1, 0, 1, 2)).map(([ms, d]) => ms * 1e6 + d), weight: 8 },
      { arbitrary: fc.integer({ min: -3_000_000_000, max: -1 }), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 50_000 }).map((s) => s * 1e9 + 1), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(offset, fc.integer({ min: 0, max: COLS - 1 })), { minLength: 1, maxLength: 300 }), fc.integer({ min: 2, max: 64 }), (list, max) => {
        const start = 1_700_000_000;
        const series = new VerdictSeries(max);
        series.add(start, 0, 0);
        for (const [ns, col] of list) series.add(start + Math.floor(ns / 1e9), ns - Math.floor(ns / 1e9) * 1e9, col);
        // the reference: the width the latest packet needs, and each packet's bucket by arithmetic
        let perNs = 1 / 1e6;
        const last = Math.max(0, ...list.map(([ns]) => ns));
        while (Math.floor(last * perNs) >= max) perNs *= 0.5;
        const expected = SERIES_COLUMNS.map(() => new Array<number>(Math.floor(last * perNs) + 1).fill(0));
        expected[0][0]++;
        for (const [ns, col] of list) expected[col][ns > 0 ? Math.floor(ns * perNs) : 0]++;
        const r = series.report();
        SERIES_COLUMNS.forEach((name, c) => expect(r.counts[name]).toEqual(expected[c]));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a packet stamped before the first one in bucket 0', () => {
    const series = new VerdictSeries(10);
    series.add(100, 500_000_000, 0);
    series.add(100, 0, 1);
    const r = series.report();
    expect(r.start).toBe(100.5);
    expect(r.counts.pass).toEqual([1]);
    expect(r.counts.firewall).toEqual([1]);
  });

  it('reports no buckets and no start before the first packet', () => {
    const r = new VerdictSeries().report();
    expect(r.start).toBeNull();
    expect(r.counts.pass).toEqual([]);
  });

  it('stays within the default 2,000 buckets over an hour of traffic', () => {
    const series = new VerdictSeries();
    for (let s = 0; s < 3600; s += 0.25) series.add(1_000 + Math.floor(s), (s % 1) * 1e9, 0);
    const r = series.report();
    expect(r.counts.pass.length).toBeLessThanOrEqual(2000);
    expect(r.counts.pass.length).toBeGreaterThan(1000);
    expect(r.counts.pass.reduce((a, b) => a + b, 0)).toBe(3600 * 4);
  });
});

describe('series of consecutive parts of a capture (parallel replays)', () => {
  it('add up to the series of the whole, wherever the capture is cut, some parts counted by the whole itself', () => {
    // any packet times, in or out of order (many close together, so that packets of different parts
    // share buckets), cut into parts at random places
    const ms = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 100 }), weight: 6 }, { arbitrary: fc.integer({ min: -2_000, max: 5_000_000 }), weight: 1 });
    const times = fc.array(fc.tuple(ms, fc.integer({ min: 0, max: COLS - 1 })), { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(times, fc.array(fc.nat(), { maxLength: 4 }), fc.integer({ min: 2, max: 64 }), (list, cuts, max) => {
        const start = 1_700_000_000;
        const at = (ms: number): [number, number] => {
          const ns = Math.round((ms + 0.3) * 1e6) + 5e9;
          return [start - 5 + Math.floor(ns / 1e9), ns % 1e9];
        };
        const [s0, n0] = at(list[0]![0]);
        const whole = new VerdictSeries(max);
        for (const [ms, col] of list) whole.add(...at(ms), col);
        const bounds = [...new Set([0, ...cuts.map((c) => c % list.length), list.length])].sort((a, b) => a - b);
        const merged = new VerdictSeries(max);
        merged.startAt(s0, n0);
        for (let p = 0; p + 1 < bounds.length; p++) {
          const packets = list.slice(bounds[p], bounds[p + 1]);
          // every other part is counted by the whole's own series after the parts before it were
          // added, as the main thread replays a range that did not line up
          if (p % 2 === 1) {
            for (const [ms, col] of packets) merged.add(...at(ms), col);
            continue;
          }
          const part = new VerdictSeries(max);
          part.startAt(s0, n0);
          for (const [ms, col] of packets) part.add(...at(ms), col);
          merged.absorb(part.parts());
        }
        expect(merged.report()).toEqual(whole.report());
      }),
      { numRuns: 300 },
    );
  });
});
