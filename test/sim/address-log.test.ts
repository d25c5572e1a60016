// A part's log of its drops' addresses gives back every drop in order, whether it stayed in memory or
// spilled to its file, whatever the chunk and read sizes; its file is removed once counted.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AddressLog, countAddressLog } from '../../src/sim/address-log.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-address-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const word = fc.integer({ min: 0, max: 0xffff_ffff });
const drop = fc.oneof(
  fc.tuple(word, word).map(([s, d]) => [0, 0, 0xffff, s, 0, 0, 0xffff, d]),
  fc.array(word, { minLength: 8, maxLength: 8 }),
);

/** the drops as counted back, each as eight unsigned words (source then destination) */
function readBack(parts: ReturnType<AddressLog['parts']>, readWords: number): number[][] {
  const out: number[][] = [];
  countAddressLog(parts, (...w) => out.push(w.map((x) => x >>> 0)), readWords);
  return out;
}

describe('the address log of a part', () => {
  it('gives back every drop in order, from memory and from its file', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(drop, { maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 50 }),
        (drops, chunkWords, memoryBytes, readWords) => {
          const log = new AddressLog({ dir, name: `log-${n++}`, memoryBytes, chunkWords });
          for (const d of drops) {
            const v4 = d[0] === 0 && d[1] === 0 && d[2] === 0xffff && d[4] === 0 && d[5] === 0 && d[6] === 0xffff;
            if (v4) log.addV4(d[3]!, d[7]!);
            else log.addV6(Uint32Array.from(d.slice(0, 4)), Uint32Array.from(d.slice(4)));
          }
          const parts = log.parts();
          expect(readBack(parts, readWords)).toEqual(drops);
          if (parts.file !== null) expect(existsSync(parts.file)).toBe(false);
        },
      ),
    );
  });

  it('spills past its memory budget, and keeps everything in memory without a folder', () => {
    const drops = 10_000;
    const spilled = new AddressLog({ dir, name: 'spilled', memoryBytes: 64 << 10, chunkWords: 4096 });
    const kept = new AddressLog({ dir: null, name: 'kept', memoryBytes: 0, chunkWords: 4096 });
    for (let i = 0; i < drops; i++) {
      spilled.addV4(i, ~i);
      kept.addV4(i, ~i);
    }
    const a = spilled.parts();
    const b = kept.parts();
    expect(a.file).not.toBeNull();
    expect(existsSync(a.file!)).toBe(true);
    // what stays in memory is within the budget (whole chunks)
    expect(a.chunks.reduce((sum, c) => sum + c.byteLength, 0)).toBeLessThanOrEqual(64 << 10);
    expect(b.file).toBeNull();
    expect(b.chunks.reduce((sum, c) => sum + c.length, 0)).toBe(drops * 3);
    expect(readBack(a, 1000)).toEqual(readBack(b, 1000));
  });
});
