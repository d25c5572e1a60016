// A part's log of its drops' addresses gives back every drop in order, whether it stayed in memory or
// spilled to its file, whatever the chunk and read sizes; the file leaves nothing on disk.
import { fstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressLog, closeSpillFile, countAddressLog, openSpillFile } from '../../src/sim/address-log.js';

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
    fc.assert(
      fc.property(
        fc.array(drop, { maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 50 }),
        (drops, chunkWords, memoryBytes, readWords) => {
          const fd = openSpillFile();
          const log = new AddressLog({ fd, memoryBytes, chunkWords });
          for (const d of drops) {
            const v4 = d[0] === 0 && d[1] === 0 && d[2] === 0xffff && d[4] === 0 && d[5] === 0 && d[6] === 0xffff;
            if (v4) log.addV4(d[3]!, d[7]!);
            else log.addV6(Uint32Array.from(d.slice(0, 4)), Uint32Array.from(d.slice(4)));
          }
          const parts = log.parts();
          try {
            expect(readBack(parts, readWords)).toEqual(drops);
            expect(fstatSync(fd).size).toBe(parts.fileBytes);
          } finally {
            closeSpillFile(fd);
          }
        },
      ),
    );
  });

  it('spills past its memory budget to a file no folder lists, and keeps everything in memory without a file', () => {
    const drops = 10_000;
    const fd = openSpillFile();
    // the file was removed from its folder, and the folder too, when it was made
    expect(readdirSync(os.tmpdir()).filter((n) => n.startsWith('edgesim-drop-addresses-'))).toEqual([]);
    const spilled = new AddressLog({ fd, memoryBytes: 64 << 10, chunkWords: 4096 });
    const kept = new AddressLog({ fd: -1, memoryBytes: 0, chunkWords: 4096 });
    for (let i = 0; i < drops; i++) {
      spilled.addV4(i, ~i);
      kept.addV4(i, ~i);
    }
    const a = spilled.parts();
    const b = kept.parts();
    expect(a.fileBytes).toBeGreaterThan(0);
    expect(fstatSync(fd).nlink).toBe(0);
    // what stays in memory is within the budget (whole chunks)
    expect(a.chunks.reduce((sum, c) => sum + c.byteLength, 0)).toBeLessThanOrEqual(64 << 10);
    expect(b.fileBytes).toBe(0);
    expect(b.chunks.reduce((sum, c) => sum + c.length, 0)).toBe(drops * 3);
    expect(readBack(a, 1000)).toEqual(readBack(b, 1000));
    closeSpillFile(fd);
  });
});
