import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeavyHitters } from '../../src/sim/heavy-hitters.js';

function exactCounts(keys: number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

const stream = (distinct: number) => fc.array(fc.integer({ min: 0, max: distinct - 1 }), { maxLength: 2000 });

describe('top addresses among drops (space-saving)', () => {
  it('is exact while no more distinct addresses than counters were seen', () => {
    fc.assert(
      fc.property(stream(16), (keys) => {
        const hh = new HeavyHitters(16);
        for (const k of keys) hh.add(0, 0, 0xffff, k);
        const exact = exactCounts(keys);
        const top = hh.top(100);
        expect(hh.evicted).toBe(false);
        expect(top.length).toBe(exact.size);
        for (const h of top) {
          expect(h.error).toBe(0);
          expect(h.count).toBe(exact.get(h.key[3]));
        }
      }),
    );
  });

  it('with more distinct addresses: never undercounts, overcounts by at most the error, and keeps every address above total / capacity', () => {
    fc.assert(
      fc.property(stream(200), fc.integer({ min: 4, max: 32 }), (keys, capacity) => {
        const hh = new HeavyHitters(capacity);
        // IPv6-looking keys exercise all four words of the index
        for (const k of keys) hh.add(0x20010db8, k * 7, k >>> 1, k);
        const exact = exactCounts(keys);
        const top = hh.top(capacity);
        const total = top.reduce((a, h) => a + h.count, 0);
        expect(total).toBe(keys.length);
        for (const h of top) {
          const truth = exact.get(h.key[3]) ?? 0;
          expect(h.key[0]).toBe(0x20010db8);
          expect(h.count).toBeGreaterThanOrEqual(truth);
          expect(h.count - h.error).toBeLessThanOrEqual(truth);
        }
        const kept = new Set(top.map((h) => h.key[3]));
        for (const [k, n] of exact) if (n > keys.length / capacity) expect(kept.has(k)).toBe(true);
      }),
    );
  });

  it('finds the heavy sources in a flood of spoofed ones', () => {
    const hh = new HeavyHitters(64);
    let seed = 1;
    for (let i = 0; i < 100_000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      if (i % 10 === 0) hh.add(0, 0, 0xffff, 0xc0000201);
      else if (i % 25 === 0) hh.add(0, 0, 0xffff, 0xc0000202);
      else hh.add(0, 0, 0xffff, seed);
    }
    const [first, second] = hh.top(2);
    expect(first.key[3]).toBe(0xc0000201);
    expect(first.count - first.error).toBeLessThanOrEqual(10_000);
    expect(first.count).toBeGreaterThanOrEqual(10_000);
    expect(second.key[3]).toBe(0xc0000202);
    expect(hh.evicted).toBe(true);
  });
});
