// Throughput samples: a pass that needs a state of its own never has more than MAX_PREPARED_PASSES
// of them alive, nor are more made than a warm-up and `runs` samples of that many, whatever the
// packet count (the states are sized by the configuration, so memory and set-up time stay bounded
// by it); a pass that needs none still covers at least 200,000 packets a sample; samples are taken
// until there are `runs` of them and they add up to the minimum measuring time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_PASSES, MAX_SAMPLES, measure, measurePasses, takeSamples } from '../../src/profile/throughput.js';

describe('measure()', () => {
  it('keeps the prepared states of a sample bounded, whatever the packet count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400_000 }), fc.integer({ min: 1, max: 4 }), (packets, runs) => {
        let made = 0;
        let unused = 0;
        let mostUnused = 0;
        const t = measure(
          packets,
          { runs, minNs: 0 },
          () => {
            made++;
            mostUnused = Math.max(mostUnused, ++unused);
            return { used: false };
          },
          (state) => {
            expect(state.used).toBe(false);
            state.used = true;
            unused--;
          },
        );
        expect(mostUnused).toBeLessThanOrEqual(MAX_PREPARED_PASSES);
        expect(made).toBe((runs + 1) * t.passes_per_run);
        expect(t.passes_per_run).toBeLessThanOrEqual(MAX_PREPARED_PASSES);
        expect(t.passes_per_run * Math.max(1, packets) >= 200_000 || t.passes_per_run === MAX_PREPARED_PASSES).toBe(true);
      }),
    );
  });

  it('passes over a small capture many times a sample when a pass needs no state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400_000 }), (packets) => {
        let passes = 0;
        const t = measurePasses(packets, { runs: 1, minNs: 0 }, () => passes++);
        expect(t.passes_per_run * Math.max(1, packets)).toBeGreaterThanOrEqual(200_000);
        expect(passes).toBe(2 * t.passes_per_run);
      }),
      { numRuns: 30 },
    );
  });
});

describe('takeSamples()', () => {
  it('takes at least `runs` samples and at least the minimum time, at most MAX_SAMPLES unless runs asks for more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 1e7 }), (runs, minNs, sampleNs) => {
        const perPass = takeSamples({ runs, minNs }, 4, () => sampleNs);
        const needed = Math.max(runs, Math.ceil(minNs / sampleNs));
        expect(perPass.length).toBe(Math.min(needed, Math.max(runs, MAX_SAMPLES)));
        expect(perPass.every((ns) => ns === sampleNs / 4)).toBe(true);
      }),
    );
  });
});
