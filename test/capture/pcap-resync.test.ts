// Finding a record start in the middle of a classic pcap file (what a range of a parallel replay does
// first): from any byte of a capture, the guess is the first record that starts there or after.
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PcapWriter } from '../../src/capture/pcap-writer.js';
import { guessRecordStart, readPcapHeader, recordStartIn } from '../../src/capture/pcap-resync.js';
import type { PcapHeader } from '../../src/capture/pcap.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-resync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEC = 1_700_000_000;
let n = 0;

/** Writes frames (zero-filled or random payloads) and returns the file, its bytes, header and record starts. */
async function capture(frames: Uint8Array[], nanosecond: boolean): Promise<{ file: string; bytes: Uint8Array; header: PcapHeader; starts: number[] }> {
  const file = path.join(dir, `c${n++}.pcap`);
  const w = PcapWriter.open(file, { nanosecond });
  const starts: number[] = [];
  let at = 24;
  frames.forEach((f, i) => {
    starts.push(at);
    w.write(f, SEC + i, i * 1000);
    at += 16 + f.length;
  });
  await w.close();
  return { file, bytes: new Uint8Array(readFileSync(file)), header: (await readPcapHeader(file))!, starts };
}

const frame = fc.oneof(
  fc.integer({ min: 1, max: 1600 }).map((len) => new Uint8Array(len)),
  fc.uint8Array({ minLength: 1, maxLength: 1600 }),
);

describe('record starts in the middle of a pcap file', () => {
  it('from any byte, finds the first record that starts there or later (zero-filled and random payloads)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), async (frames, nano, where) => {
        const { file, bytes, header, starts } = await capture(frames, nano);
        const from = 24 + Math.floor(where * (bytes.length - 24));
        const expected = starts.find((s) => s >= from) ?? bytes.length;
        expect(recordStartIn(bytes.subarray(from), header, SEC, true) + from).toBe(expected);
        expect(await guessRecordStart(file, from, header, SEC)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('finds none in bytes that hold no record header and do not reach the end of the file', () => {
    const header: PcapHeader = { little: true, nanoFactor: 1000, linkType: 1, snapLen: 262144 };
    expect(recordStartIn(new Uint8Array(4096), header, SEC, false)).toBe(-1);
    expect(recordStartIn(new Uint8Array(4096).fill(0xff), header, SEC, false)).toBe(-1);
  });

  it('takes no chain of headers stamped far from the capture\'s first packet', async () => {
    const { bytes, header } = await capture([new Uint8Array(100), new Uint8Array(100)], false);
    // the same bytes, read as if the capture had started two years later
    expect(recordStartIn(bytes.subarray(24), header, SEC + 2 * 366 * 86400, true)).toBe(bytes.length - 24);
  });

  it('says a file is not classic pcap', async () => {
    const file = path.join(dir, 'x.pcapng');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, Buffer.from([0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0]));
    expect(await readPcapHeader(file)).toBeNull();
  });
});
