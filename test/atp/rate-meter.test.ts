// Rates and thresholds: the sensitivity table, floors, the learned baseline, the sliding windows
// (against a brute-force count), and mitigation on/off with hysteresis.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAtpOptions, type AtpOptionsInput } from '../../src/atp/index.js';
import type { Sensitivity } from '../../src/atp/options.js';
import { RateMeter } from '../../src/atp/rate-meter.js';

function meter(input: AtpOptionsInput, rate: Sensitivity = 'medium', burst: Sensitivity = 'medium'): RateMeter {
  const o = parseAtpOptions(input);
  return new RateMeter('syn_protection', 'global', 'global', rate, burst, o, o.syn_protection);
}

/** n packets evenly spread over [start, start + seconds) */
function feed(m: RateMeter, start: number, seconds: number, pps: number): boolean[] {
  const out: boolean[] = [];
  const n = Math.round(seconds * pps);
  for (let i = 0; i < n; i++) out.push(m.count(start + i / pps));
  return out;
}

/** `m.count` at each of `times`, the last answer */
function countAt(m: RateMeter, times: number[]): boolean {
  let on = false;
  for (const t of times) on = m.count(t);
  return on;
}

/** `perTick` packets in each 0.1 s tick from `from` to `to` (ticks), spread inside the tick */
function ticks(from: number, to: number, perTick: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) for (let j = 0; j < perTick; j++) out.push((k + 0.05 + (0.8 * j) / perTick) / 10);
  return out;
}

describe('RateMeter', () => {
  it('derives thresholds from a configured baseline through the sensitivity table', () => {
    const base = { syn_protection: { baselinePps: 1000 } };
    const cases: [Sensitivity, Sensitivity, number, number][] = [
      ['high', 'high', 1500, 3000],
      ['medium', 'medium', 2000, 8000],
      ['low', 'low', 4000, 32000],
      ['high', 'low', 1500, 12000],
    ];
    for (const [rate, burst, ratePps, burstPps] of cases) expect(meter(base, rate, burst)).toMatchObject({ known: true, ratePps, burstPps, baselineSource: 'configured' });
    expect(meter({ ...base, rateFactor: { medium: 3 }, burstFactor: { medium: 1.5 } })).toMatchObject({ ratePps: 3000, burstPps: 4500 });
  });

  it('never goes below the floors', () => {
    expect(meter({ syn_protection: { baselinePps: 10 } })).toMatchObject({ ratePps: 100, burstPps: 500 });
    expect(meter({ syn_protection: { baselinePps: 10, minRatePps: 7, minBurstPps: 9 } })).toMatchObject({ ratePps: 20, burstPps: 80 });
  });

  it('learns the baseline as the highest sustained rate of the learning window', () => {
    const m = meter({ learningSeconds: 10 });
    feed(m, 0, 5, 100);
    feed(m, 5, 5, 300);
    expect(m.known).toBe(false);
    m.count(10.5);
    expect(m.baselineSource).toBe('learned');
    expect(m.baselinePps).toBeCloseTo(300, -1);
    expect(m.ratePps).toBeCloseTo(600, -1);
  });

  it('learns the highest rate of the learning window, not the last one', () => {
    const m = meter({ learningSeconds: 10 });
    feed(m, 0, 5, 300);
    feed(m, 5, 5, 100);
    m.count(10.5);
    expect(m.baselinePps).toBeCloseTo(300, -1);
  });

  it('warns when the capture ended inside the learning window, or when the learned baseline set the thresholds', () => {
    const short = meter({ learningSeconds: 10 });
    feed(short, 0, 5, 1000);
    short.finish(5);
    expect(short.mitigations()).toEqual([]);
    expect(short.warning()).toMatch(/ended inside the 10 s learning window.*options\.syn_protection\.baselinePps/);
    const learned = meter({ learningSeconds: 2 });
    feed(learned, 0, 3, 400);
    expect(learned.warning()).toMatch(/learned from the first 2 s of the capture \(peak 40[01] pps\)/);
    const quiet = meter({ learningSeconds: 2 });
    feed(quiet, 0, 3, 20);
    expect(quiet.warning()).toBeNull();
    const configured = meter({ syn_protection: { baselinePps: 400 } });
    feed(configured, 0, 3, 400);
    expect(configured.warning()).toBeNull();
  });

  it('switches mitigation on above the threshold and off with hysteresis (below threshold × offRatio, after minActiveSeconds)', () => {
    const m = meter({ syn_protection: { baselinePps: 100 } });
    expect(feed(m, 0, 5, 150).some(Boolean)).toBe(false);
    const flood = feed(m, 5, 2, 1000);
    expect(flood.indexOf(true)).toBeGreaterThan(0);
    expect(flood.at(-1)).toBe(true);
    // back to 150 pps: below the threshold (200) but above 200 × 0.5: stays on
    expect(feed(m, 7, 10, 150).at(-1)).toBe(true);
    // 50 pps: below 100, after more than 5 s on: off
    const calm = feed(m, 17, 5, 50);
    expect(calm[0]).toBe(true);
    expect(calm.at(-1)).toBe(false);
    const periods = m.mitigations();
    expect(periods).toHaveLength(1);
    expect(periods[0].start).toBeGreaterThan(5);
    expect(periods[0].start).toBeLessThan(5.2);
    expect(periods[0].end).toBeGreaterThan(17);
  });

  it('a burst above the burst threshold switches mitigation on even when the sustained rate stays low', () => {
    const m = meter({ syn_protection: { baselinePps: 100 }, rateWindowSeconds: 10 });
    const out = feed(m, 0, 0.09, 1000);
    expect(out.at(-1)).toBe(true);
    expect(m.peakBurstPps).toBeGreaterThan(800);
    expect(m.peakRatePps).toBeLessThan(200);
  });

  it('dates the end of mitigation by the last packet, not by the next one after a long quiet gap', () => {
    const m = meter({ syn_protection: { baselinePps: 100 } });
    feed(m, 0, 6, 1000);
    m.count(100);
    expect(m.mitigations()[0].end).toBeCloseTo(7, 1);
  });

  it('keeps a timeline of rate against threshold, one point per interval with packets', () => {
    const m = meter({ learningSeconds: 2, timelineSeconds: 1 });
    feed(m, 0, 2, 10);
    feed(m, 5, 1, 1000);
    m.finish(6);
    const tl = m.timeline();
    expect(tl.map((p) => p.time)).toEqual([0, 1, 5]);
    expect(tl[0]).toMatchObject({ packets: 10, rateThresholdPps: null, mitigating: false });
    expect(tl[2]).toMatchObject({ packets: 1000, rateThresholdPps: 100, burstThresholdPps: 500, mitigating: true });
    expect(tl[2].ratePps).toBeGreaterThan(900);
  });

  it('a timeline point holds the packets and highest rates of its interval, without thresholds while learning', () => {
    const m = meter({ learningSeconds: 4, timelineSeconds: 2 });
    countAt(m, Array(30).fill(0.05));
    // the 30 packets of 0.05 have left the window by 1.55: the rates fall within the interval
    countAt(m, [1.55, 3.05]);
    m.finish(3.05);
    expect(m.packets).toBe(32);
    const learning = { rateThresholdPps: null, burstThresholdPps: null, mitigating: false };
    expect(m.timeline()).toEqual([
      { time: 0, packets: 31, ratePps: 30, burstPps: 300, ...learning },
      { time: 2, packets: 1, ratePps: 1, burstPps: 10, ...learning },
    ]);
  });

  it('a meter whose first packet comes after its first timeline interval starts its timeline there, mitigating as that packet left it', () => {
    const flooded = meter({ syn_protection: { baselinePps: 100 }, timelineSeconds: 1 });
    countAt(flooded, Array(81).fill(1.25));
    flooded.finish(1.25);
    expect(flooded.timeline()).toEqual([{ time: 1, packets: 81, ratePps: 81, burstPps: 810, rateThresholdPps: 200, burstThresholdPps: 800, mitigating: true }]);
    const quiet = meter({ syn_protection: { baselinePps: 100 }, timelineSeconds: 1 });
    countAt(quiet, [1.25, 1.75]);
    quiet.finish(1.75);
    expect(quiet.timeline()).toEqual([{ time: 1, packets: 2, ratePps: 2, burstPps: 10, rateThresholdPps: 200, burstThresholdPps: 800, mitigating: false }]);
  });

  it('a whole window of ticks after the last packet, its rates are back to zero: read at that time, and counted there', () => {
    // ten 0.1 s ticks in the window; 5 packets in tick 3
    const m = meter({ syn_protection: { baselinePps: 1e6 } });
    countAt(m, Array(5).fill(0.35));
    expect(m.ratesAt(1.25)).toEqual({ ratePps: 5, burstPps: 0 });
    expect(m.ratesAt(1.35)).toEqual({ ratePps: 0, burstPps: 0 });
    m.count(1.35);
    expect(m.ratesAt(1.35)).toEqual({ ratePps: 1, burstPps: 10 });
    expect(m.peakRatePps).toBe(5);
  });

  it('its sustained and burst rates are the counts of the last window and tick (brute force)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 400 }), (gapsMs) => {
        const m = meter({ syn_protection: { baselinePps: 1e6 } });
        const times: number[] = [];
        let t = 0;
        for (const g of gapsMs) {
          t += g / 1000;
          times.push(t);
          m.count(t);
        }
        const tickOf = (x: number) => Math.floor(x / 0.1);
        let peakRate = 0;
        let peakBurst = 0;
        times.forEach((x, i) => {
          const now = tickOf(x);
          const seen = times.slice(0, i + 1);
          peakRate = Math.max(peakRate, seen.filter((y) => tickOf(y) > now - 10).length);
          peakBurst = Math.max(peakBurst, seen.filter((y) => tickOf(y) === now).length / 0.1);
        });
        expect(m.peakRatePps).toBeCloseTo(peakRate, 6);
        expect(m.peakBurstPps).toBeCloseTo(peakBurst, 6);
      }),
      { numRuns: 100 },
    );
  });

  it('ratesAt(t) reads the rates at any later time without counting (against a brute-force count)', () => {
    const ms = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 1000);
    fc.assert(
      fc.property(fc.array(ms(300), { minLength: 1, maxLength: 80 }), ms(2500), fc.constantFrom(0.5, 1, 2), (gaps, later, window) => {
        const m = meter({ learningSeconds: 0, rateWindowSeconds: window });
        const times: number[] = [];
        let t = 0;
        for (const g of gaps) m.count((t += g)), times.push(t);
        const q = t + later;
        const tick = (x: number) => Math.floor(x / 0.1);
        const before = [m.packets, m.active, m.peakRatePps];
        const r = m.ratesAt(q);
        expect(r.ratePps).toBe(times.filter((x) => tick(x) > tick(q) - Math.round(window / 0.1)).length / window);
        expect(r.burstPps).toBeCloseTo(times.filter((x) => tick(x) === tick(q)).length / 0.1, 6);
        expect([m.packets, m.active, m.peakRatePps]).toEqual(before);
        expect(m.ratesAt(q)).toEqual(r);
      }),
    );
  });
});

describe('RateMeter at its thresholds', () => {
  // baseline 100 pps: rate threshold 200, burst threshold 800; off below 100 and 400
  const configured = { syn_protection: { baselinePps: 100 } };

  it('turns mitigation on above a threshold, not at it', () => {
    const sustained = meter(configured);
    expect(countAt(sustained, ticks(0, 10, 20))).toBe(false);
    expect(sustained.peakRatePps).toBe(200);
    expect(sustained.count(0.95)).toBe(true);
    const burst = meter(configured);
    expect(countAt(burst, Array(80).fill(0.25))).toBe(false);
    expect(burst.peakBurstPps).toBe(800);
    expect(burst.count(0.25)).toBe(true);
  });

  it('turns it off once it has been on for minActiveSeconds, not before', () => {
    const m = meter(configured);
    expect(countAt(m, Array(81).fill(0.25))).toBe(true);
    expect(m.count(5.125)).toBe(true);
    expect(m.count(5.25)).toBe(false);
    expect(m.mitigations()).toEqual([{ start: 0.25, end: 5.25 }]);
  });

  it('keeps it on while the sustained rate is at threshold × offRatio, not below it', () => {
    const m = meter(configured);
    expect(countAt(m, Array(81).fill(0.25))).toBe(true);
    // 11 packets a tick: the window holds 100 at the first packet of each tick, 110 at the last
    const steady = ticks(3, 120, 11).map((t) => m.count(t));
    expect(steady.every(Boolean)).toBe(true);
    expect(m.count(13.05)).toBe(false);
  });

  it('keeps it on while the burst rate is at threshold × offRatio, not below it', () => {
    // one-second ticks, so both rates count the same packets: burst threshold 100 (off below 50), rate threshold 200 (off below 100)
    const m = meter({ rateWindowSeconds: 1, burstWindowSeconds: 1, burstFactor: { medium: 0.5 }, syn_protection: { baselinePps: 100, minBurstPps: 1 } });
    expect(countAt(m, Array(101).fill(0.5))).toBe(true);
    expect(countAt(m, Array(49).fill(5.25))).toBe(true);
    // 5 s on, 50 packets in the tick: the burst is 50 pps, not below 50
    expect(m.count(5.5)).toBe(true);
    expect(m.count(6.5)).toBe(false);
  });

  it('dates the end of mitigation at the packet that ended it while traffic went on', () => {
    const m = meter(configured);
    countAt(m, Array(81).fill(0.25));
    countAt(m, ticks(3, 60, 11));
    const end = ticks(60, 70, 5).find((t) => !m.count(t));
    expect(end).toBeDefined();
    expect(m.mitigations()).toEqual([{ start: 0.25, end }]);
    // the capture ends long after: the period stays as it ended
    m.finish(100);
    expect(m.mitigations()).toEqual([{ start: 0.25, end }]);
  });

  it('after a short burst and a quiet gap, dates the end no earlier than minActiveSeconds after the start', () => {
    const m = meter(configured);
    countAt(m, Array(81).fill(0.25));
    expect(m.count(100)).toBe(false);
    expect(m.mitigations()).toEqual([{ start: 0.25, end: 5.25 }]);
  });
});

describe('RateMeter at the end of the capture', () => {
  const configured = { syn_protection: { baselinePps: 100 } };

  it('ends mitigation still on when the capture ends once the window emptied and the minimum time passed', () => {
    const on = () => {
      const m = meter(configured);
      countAt(m, Array(81).fill(0.25));
      countAt(m, [5, 5.125]);
      return m;
    };
    // the last packet at 5.125: the window empties after 6.125
    const inWindow = on();
    inWindow.finish(6.125);
    expect(inWindow.mitigations()).toEqual([{ start: 0.25, end: null }]);
    const after = on();
    after.finish(6.25);
    expect(after.mitigations()).toEqual([{ start: 0.25, end: 6.125 }]);
    expect(after.active).toBe(false);
    // 81 packets at once, then quiet: the window empties at 1.25, but mitigation lasts 5 s
    const burst = (end: number) => {
      const m = meter(configured);
      countAt(m, Array(81).fill(0.25));
      m.finish(end);
      return m.mitigations();
    };
    expect(burst(5)).toEqual([{ start: 0.25, end: null }]);
    expect(burst(5.25)).toEqual([{ start: 0.25, end: 5.25 }]);
  });

  it('sets the learned thresholds from the first packet at learningSeconds, and at a capture ending there', () => {
    const m = meter({ learningSeconds: 2 });
    countAt(m, ticks(0, 20, 5));
    expect(m.known).toBe(false);
    m.count(2);
    expect(m).toMatchObject({ known: true, baselinePps: 50 });
    const ended = meter({ learningSeconds: 2 });
    countAt(ended, ticks(0, 20, 5));
    ended.finish(2);
    expect(ended).toMatchObject({ known: true, baselinePps: 50 });
  });

  it('with no learning window, has its thresholds (the floors) before the first packet', () => {
    expect(meter({ learningSeconds: 0 })).toMatchObject({ known: true, baselinePps: 0, ratePps: 100, burstPps: 500, baselineSource: 'learned' });
  });

  it('warns of nothing when it counted nothing, or when the learned baseline gave exactly the floors', () => {
    const idle = meter({ learningSeconds: 10 });
    idle.finish(5);
    expect(idle.warning()).toBeNull();
    // 50 pps × rateFactor 2 = 100 pps, the floor
    const atFloor = meter({ learningSeconds: 2 });
    countAt(atFloor, ticks(0, 30, 5));
    expect(atFloor.ratePps).toBe(100);
    expect(atFloor.warning()).toBeNull();
    // 60 pps × 2 = 120 pps, above the floor
    const above = meter({ learningSeconds: 2 });
    countAt(above, ticks(0, 30, 6));
    expect(above.warning()).toMatch(/learned from the first 2 s of the capture \(peak 60 pps\)/);
  });
});
