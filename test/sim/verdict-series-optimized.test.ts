// Counting a packet in the series stays optimized however long the capture: the nanoseconds since
// the first packet pass 2^31 2.1 s into it, and code V8 had optimized for 32-bit integers from the
// first seconds' packets was thrown away there, in the middle of every replay (and the read loop it
// is inlined into with it). A file of its own: V8's type feedback is shared by every call of add(),
// so the other series tests, whose packets span hours, would hide the first seconds' feedback.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { VerdictSeries } from '../../src/sim/verdict-series.js';

setFlagsFromString('--allow-natives-syntax');
const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void;
const optimizeOnNextCall = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void;
const optimizationStatus = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
/** V8's OptimizationStatus bit: the function runs optimized code */
const OPTIMIZED = 1 << 4;

describe('VerdictSeries.add', () => {
  it('is not deoptimized when a capture goes on past its first seconds', () => {
    const series = new VerdictSeries();
    const add = VerdictSeries.prototype.add;
    const start = 1_704_067_200;
    prepare(add);
    // the first 2.1 s, a packet a millisecond: past the 2,000 buckets of 1 ms, so the buckets have widened once
    for (let ms = 0; ms < 2100; ms++) series.add(start + Math.floor(ms / 1000), (ms % 1000) * 1e6, 0);
    optimizeOnNextCall(add);
    series.add(start + 2, 100_000_000, 0);
    expect(optimizationStatus(add) & OPTIMIZED).toBe(OPTIMIZED);
    for (let s = 3; s <= 60; s++) series.add(start + s, 500_000_000, 0);
    expect(optimizationStatus(add) & OPTIMIZED).toBe(OPTIMIZED);
    expect(series.report().counts.pass.reduce((a, b) => a + b, 0)).toBe(2159);
  });
});
