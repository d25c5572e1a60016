import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_THREADS_FROM, AUTO_THREADS_MAX, autoThreads, busyElsewhere, threadsWanted } from '../../src/sim/jobs/threads.js';
import type { OpenCapture } from '../../src/sim/packet-loop.js';

const LARGE = { size: 4 * AUTO_THREADS_FROM } as OpenCapture;

/** `n` processes that keep a processor busy until killed, once they run */
async function spinners(n: number): Promise<ChildProcess[]> {
  const all = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
  await Promise.all(all.map((c) => new Promise((resolve) => c.once('spawn', resolve))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return all;
}

describe('--jobs auto', () => {
  afterEach(() => vi.restoreAllMocks());

  it('takes the idle processors for a large capture: at least one, at most the processors and AUTO_THREADS_MAX, fewer as more are busy', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 256 }), fc.double({ min: 0, max: 300, noNaN: true }), fc.double({ min: 0, max: 300, noNaN: true }), (processors, busy, more) => {
        const threads = autoThreads(LARGE.size, processors, busy);
        expect(threads).toBeGreaterThanOrEqual(1);
        expect(threads).toBeLessThanOrEqual(Math.min(processors, AUTO_THREADS_MAX));
        expect(autoThreads(LARGE.size, processors, busy + more)).toBeLessThanOrEqual(threads);
        expect(autoThreads(LARGE.size, processors, 0)).toBe(Math.min(processors, AUTO_THREADS_MAX));
        expect(autoThreads(AUTO_THREADS_FROM - 1, processors, 0)).toBe(1);
      }),
    );
  });

  it('measures the processors other work keeps busy, and runs on one thread when none is idle', async () => {
    const busy = await spinners(3);
    try {
      expect(busyElsewhere()).toBeGreaterThanOrEqual(3);
      vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
      expect(threadsWanted('auto', LARGE)).toBe(1);
      expect(threadsWanted(2, LARGE)).toBe(2);
    } finally {
      for (const c of busy) c.kill();
    }
  });
});
