// bit_slice on the fast path (conditions.ts reads slices within three bytes in line, wider ones
// through readBits) against the reference path: random slices of ip, tcp and udp, compared with
// random values, over random frames, some cut short so that slices run past the captured bytes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ethernet, ipv4, pcapFile, tcp, udp } from '../capture/helpers/build.js';
import { type Rule, run } from './helpers.js';

const slice = fc
  .tuple(fc.constantFrom('ip', 'tcp', 'udp'), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 32 }), fc.nat(), fc.constantFrom('==', '<', '>=', '!='))
  .map(([field, from, width, v, op]) => `bit_slice(${field}, ${from}, ${from + width}) ${op} ${v % 2 ** Math.min(width, 8)}`);

const frame = fc
  .record({ udp: fc.boolean(), payload: fc.uint8Array({ maxLength: 40 }), sport: fc.integer({ min: 0, max: 65535 }), dport: fc.integer({ min: 0, max: 65535 }), ttl: fc.integer({ min: 1, max: 255 }), cut: fc.integer({ min: 0, max: 90 }) })
  .map((f) => {
    const ip = ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: f.udp ? 17 : 6, ttl: f.ttl }, f.udp ? udp(f.sport, f.dport, f.payload) : tcp(f.sport, f.dport, f.ttl, f.payload));
    const data = ethernet(0x0800, ip);
    return { data: f.cut > 34 && f.cut < data.length ? data.subarray(0, f.cut) : data, origLen: data.length };
  });

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bit-slice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bit_slice on the fast path vs decoder + evaluator', () => {
  it('reads every slice as the reference path', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(slice, { minLength: 1, maxLength: 12 }), fc.array(frame, { minLength: 1, maxLength: 30 }), async (slices, frames) => {
        const file = path.join(dir, `${n++}.pcap`);
        writeFileSync(file, pcapFile({}, frames.map(({ data, origLen }, i) => ({ sec: 1_700_000_000 + i, frac: i, data, origLen }))));
        const rules = slices.map((e, i): Rule => [`s${i}`, 'log', e]);
        const reference = await run(file, rules, { mode: 'reference' });
        const got = await run(file, rules, { mode: 'none' });
        expect(got.ndjson).toBe(reference.ndjson);
        expect(got.hits).toEqual(reference.hits);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
