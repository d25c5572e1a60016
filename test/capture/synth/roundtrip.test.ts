// Pcap writer -> project reader: random records (any bytes, lengths, timestamps, snaplen, µs or
// ns) come back with the same bytes, lengths and timestamps; and the synthetic frames survive the
// trip through a file bit for bit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PcapWriter } from '../../../src/capture/pcap-writer.js';
import { readCapture } from '../../../src/capture/reader.js';
import { generate, resolveSpec } from '../../../src/capture/synth/index.js';
import { decodeAll } from './capture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-rt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const recArb = fc.record({
  data: fc.uint8Array({ minLength: 0, maxLength: 400 }),
  tsSec: fc.integer({ min: 0, max: 0xffffffff }),
  tsNsec: fc.integer({ min: 0, max: 999_999_999 }),
  extra: fc.integer({ min: 0, max: 1000 }),
});

describe('pcap writer and reader', () => {
  it('round-trip random records: same bytes, lengths and timestamps (µs cut, ns exact)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recArb, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom(1, 101, 113, 276),
        async (recs, nanosecond, snaplen, linkType) => {
          const file = path.join(dir, `r${++n}.pcap`);
          const w = PcapWriter.open(file, { nanosecond, snaplen, linkType });
          for (const r of recs) w.write(r.data, r.tsSec, r.tsNsec, r.data.length + r.extra);
          await w.close();
          const got: Array<{ bytes: number[]; tsSec: number; tsNsec: number; origLen: number; linkType: number }> = [];
          const info = await readCapture(file, (rec) => {
            got.push({ bytes: [...rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen)], tsSec: rec.tsSec, tsNsec: rec.tsNsec, origLen: rec.origLen, linkType: rec.linkType });
          });
          expect(info.format).toBe('pcap');
          // the only warning random timestamps may earn is the reader's count of packets out of time order
          const stamps = recs.map((r) => r.tsSec * 1e9 + (nanosecond ? r.tsNsec : Math.floor(r.tsNsec / 1000) * 1000));
          const early = stamps.filter((t, i) => i > 0 && t < stamps[i - 1]!).length;
          expect(info.warnings.length).toBe(early === 0 ? 0 : 1);
          if (early > 0) expect(info.warnings[0]).toMatch(new RegExp(`^timestamps out of order: ${early} packets? (are|is) stamped earlier`));
          expect(got).toEqual(
            recs.map((r) => ({
              bytes: [...r.data.subarray(0, snaplen)],
              tsSec: r.tsSec,
              tsNsec: nanosecond ? r.tsNsec : Math.floor(r.tsNsec / 1000) * 1000,
              origLen: r.data.length + r.extra,
              linkType,
            })),
          );
        },
      ),
      { numRuns: 80 },
    );
  });

  it('keeps synthetic frames bit for bit through a file', async () => {
    const spec = resolveSpec('mixed', { packets: 800, seed: 21 });
    const frames: Uint8Array[] = [];
    generate(spec, { frame: (data, len) => frames.push(data.slice(0, len)) });
    const file = path.join(dir, 'mixed.pcap');
    const w = PcapWriter.open(file);
    frames.forEach((f, i) => w.write(f, spec.start + i, 0));
    await w.close();
    const back = await decodeAll(file);
    expect(back.length).toBe(frames.length);
    back.forEach((d, i) => expect(Buffer.from(d.bytes).equals(Buffer.from(frames[i]!))).toBe(true));
  });
});
