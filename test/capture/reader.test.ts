// The reader: classic pcap in both byte orders and both resolutions, pcapng features (several
// interfaces with different link types and timestamp units, offsets, simple and obsolete packet
// blocks, sections in either byte order, unknown blocks), gzip, streaming across chunk boundaries,
// file-level errors and warnings, progress and abort. Timestamps and lengths are compared with
// tshark reading the same file.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CaptureError, readCapture, type CaptureInfo } from '../../src/capture/reader.js';
import { PacketRecord } from '../../src/capture/record.js';
import { openSource } from '../../src/capture/source.js';
import { bytes, ethernet, ipv4, ipv6, PcapngBuilder, pcapFile, sll2Frame, tcp, udp, type PcapRecord } from './helpers/build.js';
import { corpusPath, epochText, readAll } from './helpers/corpus.js';
import { tsharkFields } from '../helpers/tshark.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'edgesim-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function file(content: Uint8Array, ext = 'pcap'): string {
  const p = path.join(tmp, `f${n++}.${ext}`);
  writeFileSync(p, content);
  return p;
}

interface Seen { frame: number; time: string; linkType: number; capLen: number; origLen: number; data: string }

function seen(r: PacketRecord): Seen {
  return {
    frame: r.frame, time: epochText(r), linkType: r.linkType, capLen: r.capLen, origLen: r.origLen,
    data: Buffer.from(r.data.buffer, r.data.byteOffset + r.dataOff, r.capLen).toString('hex'),
  };
}

async function read(p: string): Promise<{ info: CaptureInfo; packets: Seen[] }> {
  return readAll(p, seen);
}

/** tshark's view of the same file: time, captured and original length of each frame */
function tsharkFrames(p: string): Array<Pick<Seen, 'time' | 'capLen' | 'origLen'>> {
  return tsharkFields(p, ['frame.time_epoch', 'frame.cap_len', 'frame.len']).map((t) => ({
    time: t['frame.time_epoch']![0]!, capLen: Number(t['frame.cap_len']![0]), origLen: Number(t['frame.len']![0]),
  }));
}

const pick = ({ time, capLen, origLen }: Seen): Pick<Seen, 'time' | 'capLen' | 'origLen'> => ({ time, capLen, origLen });

const synV4 = ethernet(0x0800, ipv4({ proto: 6 }, tcp(40000, 80, 0x02)));
const udpV6 = ipv6({ next: 17 }, udp(53, 5353, bytes([1, 2, 3])));

describe('classic pcap', () => {
  const records: PcapRecord[] = [
    { sec: 1_700_000_000, frac: 123, data: synV4 },
    { sec: 1_700_000_001, frac: 999, data: synV4.subarray(0, 40), origLen: synV4.length },
  ];

  it.each([
    ['little-endian microseconds', { little: true, nano: false }, ['1700000000.000123000', '1700000001.000999000']],
    ['big-endian microseconds', { little: false, nano: false }, ['1700000000.000123000', '1700000001.000999000']],
    ['little-endian nanoseconds', { little: true, nano: true }, ['1700000000.000000123', '1700000001.000000999']],
    ['big-endian nanoseconds', { little: false, nano: true }, ['1700000000.000000123', '1700000001.000000999']],
  ])('%s: same packets, times as tshark reads them', async (_name, opts, times) => {
    const p = file(pcapFile(opts, records));
    const { info, packets } = await read(p);
    const size = readFileSync(p).length;
    expect(info).toEqual({ format: 'pcap', compressed: false, packets: 2, linkTypes: [1], warnings: [], timeOrder: { outOfOrder: 0, firstOutOfOrder: 0 }, end: size, interrupted: false });
    expect(packets.map((s) => s.time)).toEqual(times);
    expect(packets.map((s) => [s.frame, s.capLen, s.origLen])).toEqual([[1, synV4.length, synV4.length], [2, 40, synV4.length]]);
    expect(packets[0]!.data).toBe(Buffer.from(synV4).toString('hex'));
    expect(packets.map(pick)).toEqual(tsharkFrames(p));
  });

  it('takes the link type from the low 16 bits (the top bits carry FCS information)', async () => {
    const p = file(pcapFile({ linkType: 0x14000000 | 101 }, [{ sec: 1, frac: 0, data: udpV6 }]));
    expect((await read(p)).info.linkTypes).toEqual([101]);
  });
});

describe('pcapng', () => {
  it('reads several interfaces with different link types, timestamp units and offsets, as tshark does', async () => {
    const b = new PcapngBuilder(true).section()
      .iface(1) // microseconds by default
      .iface(101, { tsresol: 9 }) // nanoseconds
      .iface(276, { tsresol: 0x80 | 20 }) // 2^-20 s
      .iface(1, { tsresol: 3, tsoffset: 1000 }) // milliseconds, +1000 s
      .iface(229, { tsresol: 0x80 | 30 });
    b.epb(0, 1_700_000_000_123_456n, synV4)
      .epb(1, 1_700_000_000_987_654_321n, ipv4({ proto: 17 }, udp(1, 2)))
      .epb(2, (1_700_000_000n << 20n) + 777_777n, sll2Frame(0x86dd, udpV6))
      .epb(3, 1_699_999_000_250n, synV4)
      .epb(4, (1_700_000_000n << 30n) + 123_456_789n, udpV6)
      .epb(0, 1_700_000_002_000_001n, synV4.subarray(0, 30), synV4.length);
    const p = file(b.build(), 'pcapng');
    const { info, packets } = await read(p);
    // the interfaces' clocks interleave: frames 3, 4 and 5 are each stamped before the one before them
    expect(info).toEqual({
      format: 'pcapng',
      compressed: false,
      packets: 6,
      linkTypes: [1, 101, 276, 229],
      warnings: ['timestamps out of order: 3 packets are stamped earlier than the packet before them (the first is frame 3)'],
      timeOrder: { outOfOrder: 3, firstOutOfOrder: 3 },
      end: readFileSync(p).length,
      interrupted: false,
    });
    expect(packets.map((s) => s.linkType)).toEqual([1, 101, 276, 1, 229, 1]);
    expect(packets.map(pick)).toEqual(tsharkFrames(p));
    expect(packets[3]!.time).toBe('1700000000.250000000');
  });

  it('reads big-endian sections, a second section in the other byte order, and skips unknown blocks', async () => {
    const b = new PcapngBuilder(false).section(false)
      .other(4, [0, 0, 0, 0]) // name resolution
      .iface(1, { tsresol: 6 })
      .epb(0, 1_600_000_000_000_001n, synV4)
      .other(5, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) // interface statistics
      .other(0x00000bad, [1, 2, 3, 4]) // custom block
      .section(true)
      .iface(101, { tsresol: 9 })
      .epb(0, 1_600_000_001_000_000_002n, ipv4({ proto: 17 }, udp(1, 2)));
    const p = file(b.build(), 'pcapng');
    const { info, packets } = await read(p);
    expect(info.warnings).toEqual([]);
    expect(info.linkTypes).toEqual([1, 101]);
    expect(packets.map((s) => [s.frame, s.linkType, s.time])).toEqual([[1, 1, '1600000000.000001000'], [3, 101, '1600000001.000000002']]);
    // the custom block is frame 2 in tshark too, a record without packet bytes
    const theirs = tsharkFrames(p);
    expect(theirs[1]).toEqual({ time: undefined, capLen: 0, origLen: 0 });
    expect(packets.map(pick)).toEqual([theirs[0], theirs[2]]);
    expect(info.packets).toBe(2);
  });

  it('cuts a simple packet block that holds more than the snap length', async () => {
    const b = new PcapngBuilder().section().iface(1, { snaplen: 40 }).spb(synV4);
    const { packets } = await read(file(b.build(), 'pcapng'));
    expect(packets.map((s) => [s.capLen, s.origLen])).toEqual([[40, synV4.length]]);
  });

  it('reads simple packet blocks, cut to interface 0\'s snap length', async () => {
    // a writer stores at most snaplen bytes; the reader also cuts a block that holds more
    const b = new PcapngBuilder().section().iface(1, { snaplen: 40 }).spb(synV4.subarray(0, 40), synV4.length).spb(synV4.subarray(0, 20), 20);
    const p = file(b.build(), 'pcapng');
    const { packets } = await read(p);
    expect(packets.map((s) => [s.capLen, s.origLen])).toEqual([[40, synV4.length], [20, 20]]);
    expect(packets[0]!.data).toBe(Buffer.from(synV4.subarray(0, 40)).toString('hex'));
    // a simple packet block has no timestamp: tshark shows none, edgesim gives time 0
    expect(packets.map((s) => s.time)).toEqual(['0.000000000', '0.000000000']);
    expect(tsharkFrames(p)).toEqual(packets.map((s) => ({ time: undefined, capLen: s.capLen, origLen: s.origLen })));
  });

  it('reads the obsolete packet block', async () => {
    const b = new PcapngBuilder().section().iface(1).iface(101, { tsresol: 9 })
      .pb(1, 1_500_000_000_000_000_001n, ipv4({ proto: 17 }, udp(1, 2))).pb(0, 1_500_000_000_000_001n, synV4);
    const p = file(b.build(), 'pcapng');
    const { packets } = await read(p);
    expect(packets.map((s) => [s.linkType, s.time])).toEqual([[101, '1500000000.000000001'], [1, '1500000000.000001000']]);
    expect(packets.map(pick)).toEqual(tsharkFrames(p));
  });

  it('reads picosecond timestamps exactly', async () => {
    const b = new PcapngBuilder().section().iface(1, { tsresol: 12 }).epb(0, 10_000_000_123_456_789_012n, synV4);
    const { packets } = await read(file(b.build(), 'pcapng'));
    expect(packets[0]!.time).toBe('10000000.123456789');
  });

  it('skips a damaged packet block, warns, and reads on', async () => {
    const good = new PcapngBuilder().section().iface(1).epb(0, 1n, synV4).build();
    const badInterface = new PcapngBuilder().epb(7, 2n, synV4).build();
    const more = new PcapngBuilder().epb(0, 3n, synV4).build();
    const p = file(bytes(good, badInterface, more), 'pcapng');
    const { info, packets } = await read(p);
    expect(packets.map((s) => s.frame)).toEqual([1, 2]);
    expect(info.warnings).toEqual([`packet block at byte ${good.length} names interface 7, which is not described; skipped`]);
  });

  it('stops at an impossible block length with a warning, keeping what came before', async () => {
    const good = new PcapngBuilder().section().iface(1).epb(0, 1n, synV4).build();
    const broken = bytes([6, 0, 0, 0, 13, 0, 0, 0], new Uint8Array(40));
    const { info, packets } = await read(file(bytes(good, broken), 'pcapng'));
    expect(packets.length).toBe(1);
    expect(info.warnings).toEqual([`bad block length 13 at byte ${good.length}; the rest of the file is ignored`]);
  });
});

describe('gzip', () => {
  it('reads a gzipped corpus capture exactly as the plain one', async () => {
    for (const name of ['802.1ad_QinQ.pcap', 'OSPFv2_Capture_FINAL.pcapng', 'forces3.pcap']) {
      const plain = await read(corpusPath(name));
      const gz = await read(file(gzipSync(readFileSync(corpusPath(name))), 'gz'));
      expect(gz.info).toEqual({ ...plain.info, compressed: true });
      expect(gz.packets).toEqual(plain.packets);
    }
  });

  it('keeps the packets before a cut in the compressed data, with warnings', async () => {
    const records = Array.from({ length: 2000 }, (_, i) => ({ sec: i, frac: 0, data: synV4 }));
    const gz = gzipSync(pcapFile({}, records));
    const { info, packets } = await read(file(gz.subarray(0, gz.length >> 1), 'gz'));
    expect(packets.length).toBeGreaterThan(100);
    expect(packets.length).toBeLessThan(2000);
    expect(packets.every((s, i) => s.frame === i + 1 && s.data === packets[0]!.data)).toBe(true);
    expect(info.warnings.join('\n')).toMatch(/compressed data is corrupt or cut off/);
  });
});

describe('streaming', () => {
  it('ends when interrupted while it waits for input that does not come, with every whole record delivered and no warning for the one cut', async () => {
    const records = Array.from({ length: 500 }, (_, i) => ({ sec: i, frac: 0, data: synV4 }));
    const whole = pcapFile({}, records);
    const input = new PassThrough();
    input.write(whole.subarray(0, whole.length - 10)); // the last record's end never comes
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort('SIGINT'), 200);
    let packets = 0;
    const info = await readCapture('-', () => void packets++, { source: await openSource('-', input), interrupt: interrupt.signal });
    expect(info).toMatchObject({ interrupted: true, packets: 499, warnings: [] });
    expect(packets).toBe(499);
    expect(input.destroyed).toBe(true);
  });

  it('delivers every packet intact across chunk boundaries, including records larger than a chunk', async () => {
    const sizes = [...Array.from({ length: 30_000 }, (_, i) => 40 + ((i * 7919) % 1500)), 3 << 20, 60, 5 << 20, 70];
    const records = sizes.map((size, i) => {
      const data = new Uint8Array(size);
      for (let k = 0; k < Math.min(size, 64); k++) data[k] = (i + k) & 0xff;
      data[size - 1] = i & 0xff;
      return { sec: i, frac: 0, data };
    });
    const p = file(pcapFile({ snaplen: 8 << 20 }, records));
    let count = 0;
    let ok = true;
    const info = await readCapture(p, (r) => {
      const i = count++;
      const d = r.data;
      ok &&= r.frame === i + 1 && r.capLen === sizes[i] && r.tsSec === i && d[r.dataOff] === (i & 0xff) && d[r.dataOff + r.capLen - 1] === (i & 0xff);
    });
    expect(ok).toBe(true);
    expect(count).toBe(sizes.length);
    expect(info.warnings).toEqual([]);
  });

  it('reads the same with blocking reads on this thread as with reads ahead (sim/jobs/), records bigger than a chunk and a cut end included', async () => {
    const sizes = [...Array.from({ length: 5_000 }, (_, i) => 40 + ((i * 7919) % 1500)), 3 << 20, 60, 70];
    const records = sizes.map((size, i) => ({ sec: i, frac: 0, data: new Uint8Array(size).fill(i & 0xff) }));
    const whole = pcapFile({ snaplen: 4 << 20 }, records);
    for (const p of [file(whole), file(whole.subarray(0, whole.length - 30))]) {
      const one = await readAll(p, seen);
      const blocking: Seen[] = [];
      const info = await readCapture(p, (r) => blocking.push(seen(r)), { blocking: true });
      expect(info).toEqual(one.info);
      expect(blocking).toEqual(one.packets);
    }
  });

  it('lets the event loop run during blocking reads, so an abort stops them', async () => {
    const records = Array.from({ length: 24 }, (_, i) => ({ sec: i, frac: 0, data: new Uint8Array(2 << 20).fill(i) }));
    const p = file(pcapFile({ snaplen: 4 << 20 }, records));
    const abort = new AbortController();
    let packets = 0;
    // the abort is asked for once reading is under way, on the event loop
    const reading = readCapture(p, () => packets++ === 0 && setTimeout(() => abort.abort(new Error('stopped')), 0), { blocking: true, signal: abort.signal });
    await expect(reading).rejects.toThrow('stopped');
    expect(packets).toBeLessThan(records.length);
    rmSync(p);
  });

  it('reads any mix of record sizes back exactly (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 40 }), fc.boolean(), async (sizes, little) => {
      const records = sizes.map((size, i) => ({ sec: i, frac: i, data: new Uint8Array(size).fill(i & 0xff) }));
      const p = file(pcapFile({ little, snaplen: 300_000 }, records));
      const lens: number[] = [];
      let filled = true;
      await readCapture(p, (r) => {
        lens.push(r.capLen);
        filled &&= r.data.subarray(r.dataOff, r.dataOff + r.capLen).every((b) => b === ((r.frame - 1) & 0xff));
      });
      rmSync(p);
      expect(lens).toEqual(sizes);
      expect(filled).toBe(true);
    }), { numRuns: 15 });
  });

  it('hands every packet the same record, with data pointing into the read buffer', async () => {
    const p = file(pcapFile({}, [{ sec: 1, frac: 0, data: synV4 }, { sec: 2, frac: 0, data: synV4 }]));
    const recs = new Set<PacketRecord>();
    const offsets: number[] = [];
    const buffers = new Set<Uint8Array>();
    await readCapture(p, (r) => {
      recs.add(r);
      offsets.push(r.dataOff);
      buffers.add(r.data);
      expect(Buffer.from(r.data.subarray(r.dataOff, r.dataOff + r.capLen)).equals(Buffer.from(synV4))).toBe(true);
    });
    expect(recs.size).toBe(1);
    expect(buffers.size).toBe(1);
    expect(offsets[1] - offsets[0]).toBe(16 + synV4.length);
  });

  it('carries records across chunk boundaries, records bigger than a chunk included, plain and gzip', async () => {
    // sizes chosen to straddle the 1 MB chunks and the 64 KB carry-over room at every turn
    const sizes = [60, 70_000, 1500, 1_300_000, 90, 65_536, 65_537, 3_000_000, 64, 200_000, ...Array.from({ length: 3000 }, (_, i) => 40 + ((i * 7919) % 1400))];
    const frames = sizes.map((n, i) => Uint8Array.from({ length: n }, (_, j) => (i * 31 + j) & 0xff));
    const content = pcapFile({}, frames.map((data, i) => ({ sec: i, frac: 0, data })));
    for (const p of [file(content), file(gzipSync(content), 'pcap.gz')]) {
      const got: Buffer[] = [];
      const info = await readCapture(p, (r) => got.push(Buffer.from(r.data.subarray(r.dataOff, r.dataOff + r.capLen))));
      expect(info.warnings).toEqual([]);
      expect(got.length).toBe(frames.length);
      frames.forEach((f, i) => expect(got[i].equals(Buffer.from(f)), `frame ${i + 1}`).toBe(true));
    }
  });

  it('reports progress up to the file size', async () => {
    const p = file(pcapFile({}, Array.from({ length: 30_000 }, (_, i) => ({ sec: i, frac: 0, data: synV4 }))));
    const calls: Array<[number, number]> = [];
    await readCapture(p, () => {}, { onProgress: (done, total) => calls.push([done, total]) });
    const size = 24 + 30_000 * (16 + synV4.length);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every(([, total]) => total === size)).toBe(true);
    expect(calls.map(([done]) => done)).toEqual([...calls.map(([done]) => done)].sort((a, b) => a - b));
    expect(calls.at(-1)![0]).toBe(size);
  });

  it('stops when aborted, rejecting with the signal\'s reason', async () => {
    const p = file(pcapFile({}, Array.from({ length: 50_000 }, (_, i) => ({ sec: i, frac: 0, data: synV4 }))));
    const ac = new AbortController();
    let count = 0;
    await expect(readCapture(p, () => { if (++count === 10) ac.abort(new Error('enough')); }, { signal: ac.signal })).rejects.toThrow('enough');
    expect(count).toBeLessThan(50_000);
    await expect(readCapture(p, () => {}, { signal: AbortSignal.abort(new Error('before')) })).rejects.toThrow('before');
  });
});

describe('files that cannot be read, and damage after a good start', () => {
  const bad: Array<[string, () => string, RegExp]> = [
    ['a missing file', () => path.join(tmp, 'nope.pcap'), /nope\.pcap: cannot open: no such file$/],
    ['a directory', () => { const d = path.join(tmp, 'dir.pcap'); mkdirSync(d, { recursive: true }); return d; }, /dir\.pcap: cannot open: is a directory$/],
    ['an empty file', () => file(new Uint8Array(0)), /: empty file$/],
    ['text', () => file(new TextEncoder().encode('hello, world\n')), /: not a pcap or pcapng file \(it starts with 68 65 6c 6c\)$/],
    ['a cut pcap file header', () => file(pcapFile({}, []).subarray(0, 20)), /: truncated pcap file header$/],
    ['pcap version 3', () => { const f = pcapFile({}, []); f[4] = 3; return file(f); }, /: unsupported pcap version 3\.4$/],
    ['a pcapng bad byte-order magic', () => { const f = new PcapngBuilder().section().build(); f[8] = 0; return file(f, 'pcapng'); }, /: pcapng section header has a bad byte-order magic$/],
    ['zstd', () => file(bytes([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0])), /: zstd-compressed captures are not supported/],
    ['gzip of garbage', () => file(bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5])), /: compressed data is corrupt or cut off/],
  ];
  it.each(bad)('rejects %s with a one-line CaptureError naming the file', async (_name, make, message) => {
    const p = make();
    const err = await readCapture(p, () => {}).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message.startsWith(p)).toBe(true);
    expect((err as Error).message).not.toContain('\n');
  });

  it('reads an empty capture (header only) as zero packets', async () => {
    expect((await read(file(pcapFile({}, [])))).info.packets).toBe(0);
    expect((await read(file(new PcapngBuilder().section().build(), 'pcapng'))).info.packets).toBe(0);
  });

  it('warns about a truncated final record, naming its byte and frame', async () => {
    const whole = pcapFile({}, [{ sec: 1, frac: 0, data: synV4 }, { sec: 2, frac: 0, data: synV4 }]);
    const { info, packets } = await read(file(whole.subarray(0, whole.length - 5)));
    expect(packets.length).toBe(1);
    expect(info.warnings).toEqual([`truncated final record at byte ${24 + 16 + synV4.length} (frame 2)`]);
  });

  it('warns about a truncated final pcapng block', async () => {
    const whole = new PcapngBuilder().section().iface(1).epb(0, 1n, synV4).epb(0, 2n, synV4).build();
    const { info, packets } = await read(file(whole.subarray(0, whole.length - 3), 'pcapng'));
    expect(packets.length).toBe(1);
    expect(info.warnings).toHaveLength(1);
    expect(info.warnings[0]).toMatch(/^truncated final block at byte \d+ \(frame 2\)$/);
  });

  it('stops at an impossible record length with a warning', async () => {
    const f = pcapFile({}, [{ sec: 1, frac: 0, data: synV4 }, { sec: 2, frac: 0, data: synV4 }]);
    new DataView(f.buffer, f.byteOffset).setUint32(24 + 16 + synV4.length + 8, 0x7fffffff, true);
    const { info, packets } = await read(file(f));
    expect(packets.length).toBe(1);
    expect(info.warnings).toEqual([`bad record length 2147483647 at byte ${24 + 16 + synV4.length} (frame 2); the rest of the file is ignored`]);
  });

  it('bounds the warnings of a file damaged in many places', async () => {
    const b = new PcapngBuilder().section().iface(1);
    for (let i = 0; i < 150; i++) b.epb(9, BigInt(i), synV4);
    const { info } = await read(file(b.build(), 'pcapng'));
    expect(info.warnings).toHaveLength(101);
    expect(info.warnings.at(-1)).toBe('50 more warnings not shown');
  });
});
