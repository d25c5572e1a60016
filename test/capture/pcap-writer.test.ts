import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PcapWriter } from '../../src/capture/pcap-writer.js';
import { parseWithPcapParser } from '../helpers/pcap-parser.js';
import { runTool, tsharkColumns } from '../helpers/tshark.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-pcapw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const tmp = (ext = 'pcap'): string => path.join(dir, `t${++n}.${ext}`);

interface Rec {
  data: Uint8Array;
  tsSec: number;
  tsNsec: number;
  origLen: number;
}

const recArb = fc.record({
  data: fc.uint8Array({ minLength: 0, maxLength: 300 }),
  tsSec: fc.integer({ min: 0, max: 0xffffffff }),
  tsNsec: fc.integer({ min: 0, max: 999_999_999 }),
  extra: fc.integer({ min: 0, max: 2000 }),
}).map(({ data, tsSec, tsNsec, extra }): Rec => ({ data, tsSec, tsNsec, origLen: data.length + extra }));

async function writeAll(file: string, recs: Rec[], opts = {}): Promise<void> {
  const w = PcapWriter.open(file, opts);
  for (const r of recs) w.write(r.data, r.tsSec, r.tsNsec, r.origLen);
  await w.close();
}

// A minimal Ethernet/IPv4/UDP frame with a correct IPv4 header checksum (UDP checksum 0 = none).
function udpFrame(i: number): Uint8Array {
  const f = new Uint8Array(14 + 20 + 8 + 4);
  f.set([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]);
  f.set([0x45, 0, 0, 32, (i >> 8) & 0xff, i & 0xff, 0x40, 0, 64, 17, 0, 0, 192, 0, 2, 1, 203, 0, 113, 10], 14);
  let sum = 0;
  for (let o = 14; o < 34; o += 2) sum += (f[o]! << 8) | f[o + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  const ck = ~sum & 0xffff;
  f[24] = ck >> 8;
  f[25] = ck & 0xff;
  f.set([0x9c, 0x40, 0x9c, 0x41, 0, 12, 0, 0, 0xde, 0xad, 0xbe, 0xef], 34);
  return f;
}

describe('PcapWriter', () => {
  it('writes the classic little-endian header: µs magic by default, version 2.4, snaplen, link type', async () => {
    const file = tmp();
    await writeAll(file, [], { linkType: 101, snaplen: 1500 });
    const b = readFileSync(file);
    expect(b.length).toBe(24);
    expect(b.readUInt32LE(0)).toBe(0xa1b2c3d4);
    expect([b.readUInt16LE(4), b.readUInt16LE(6)]).toEqual([2, 4]);
    expect(b.readUInt32LE(16)).toBe(1500);
    expect(b.readUInt32LE(20)).toBe(101);
    const ns = tmp();
    await writeAll(ns, [], { nanosecond: true });
    expect(readFileSync(ns).readUInt32LE(0)).toBe(0xa1b23c4d);
    expect(readFileSync(ns).readUInt32LE(20)).toBe(1);
  });

  it('round-trips random records through pcap-parser: identical bytes, lengths and µs timestamps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recArb, { maxLength: 40 }), async (recs) => {
        const file = tmp();
        await writeAll(file, recs);
        const got = await parseWithPcapParser(file);
        expect(got.linkType).toBe(1);
        expect(got.packets.length).toBe(recs.length);
        recs.forEach((r, i) => {
          const p = got.packets[i]!;
          expect(p.tsSec).toBe(r.tsSec);
          expect(p.tsUsec).toBe(Math.floor(r.tsNsec / 1000));
          expect(p.capLen).toBe(r.data.length);
          expect(p.origLen).toBe(r.origLen);
          expect(Buffer.compare(p.data, Buffer.from(r.data))).toBe(0);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('cuts records longer than the snaplen and keeps their original length', async () => {
    const file = tmp();
    const data = Uint8Array.from({ length: 200 }, (_, i) => i);
    await writeAll(file, [{ data, tsSec: 1, tsNsec: 0, origLen: 200 }], { snaplen: 64 });
    const got = await parseWithPcapParser(file);
    expect(got.packets[0]!.capLen).toBe(64);
    expect(got.packets[0]!.origLen).toBe(200);
    expect([...got.packets[0]!.data]).toEqual([...data.subarray(0, 64)]);
  });

  it('copies the data at write time, so the caller may reuse its buffer', async () => {
    const file = tmp();
    const w = PcapWriter.open(file);
    const buf = new Uint8Array([1, 2, 3]);
    w.write(buf, 5, 0);
    buf.fill(9);
    w.write(buf, 6, 0);
    await w.close();
    const got = await parseWithPcapParser(file);
    expect(got.packets.map((p) => [...p.data])).toEqual([[1, 2, 3], [9, 9, 9]]);
  });

  it('handles more data than one internal buffer, and a record larger than it', async () => {
    const file = tmp();
    const w = PcapWriter.open(file, { snaplen: 4 << 20 });
    const big = new Uint8Array(3 << 20).fill(7);
    const small = new Uint8Array(1000);
    for (let i = 0; i < 3000; i++) {
      small[0] = i & 0xff;
      w.write(small, i, 0);
    }
    w.write(big, 9999, 0);
    await w.close();
    const b = readFileSync(file);
    expect(b.length).toBe(24 + 3000 * 1016 + 16 + big.length);
    const last = 24 + 3000 * 1016;
    expect(b.readUInt32LE(last + 8)).toBe(big.length);
    expect(b[24 + 2999 * 1016 + 16]).toBe(2999 & 0xff);
  });

  it('produces files capinfos and tshark read without complaint, µs and ns, with exact timestamps', async () => {
    const t0 = 1_700_000_000;
    const stamps = [0, 1, 999, 1000, 123_456_789, 999_999_999];
    for (const nanosecond of [false, true]) {
      const file = tmp();
      const w = PcapWriter.open(file, { nanosecond });
      stamps.forEach((ns, i) => w.write(udpFrame(i), t0 + i, ns));
      await w.close();
      const info = runTool('capinfos', ['-c', '-T', '-r', file]);
      expect(info.status).toBe(0);
      expect(info.stderr).toBe('');
      expect(info.stdout.trim().split('\t')[1]).toBe(String(stamps.length));
      const { rows, stderr } = tsharkColumns(file, ['frame.time_epoch', 'ip.checksum.status', 'udp.srcport', '_ws.malformed'], { checksums: true });
      expect(stderr).toBe('');
      expect(rows.length).toBe(stamps.length);
      rows.forEach((row, i) => {
        const frac = nanosecond ? stamps[i]! : Math.floor(stamps[i]! / 1000) * 1000;
        expect(row[0]).toBe(`${t0 + i}.${String(frac).padStart(9, '0')}`);
        expect(row[1]).toBe('1'); // tshark's checksum status: 1 = good
        expect(row[2]).toBe('40000');
        expect(row[3] ?? '').toBe('');
      });
    }
  });

  it('rejects bad timestamps and options, and writing after close', async () => {
    expect(() => PcapWriter.open(tmp(), { snaplen: 0 })).toThrow(/snaplen/);
    const w = PcapWriter.open(tmp());
    expect(() => w.write(new Uint8Array(1), -1, 0)).toThrow(/timestamp out of range/);
    expect(() => w.write(new Uint8Array(1), 0, 1e9)).toThrow(/timestamp out of range/);
    await w.close();
    expect(() => w.write(new Uint8Array(1), 0, 0)).toThrow(/closed/);
  });

  it('names the path when the file cannot be created', () => {
    expect(() => PcapWriter.open(path.join(dir, 'no/such/dir/x.pcap'))).toThrow(/no\/such\/dir\/x\.pcap: cannot write: no such file$/);
  });
});
