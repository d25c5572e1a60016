// Several captures read as one (capture/merge.ts), against Wireshark's own tools: parts cut from a
// capture by `editcap` merge back into it frame for frame, and any set of captures merges into what
// `mergecap` writes (pcap and pcapng mixed, different link types), read back by tshark. On equal
// times the file given first goes first, which rebuilds a capture cut in parts even where a cut falls
// between two packets of the same time; mergecap (4.0, wiretap/merge.c is_earlier) takes the file
// given last, so mergecap of the files in reverse order writes exactly the merge (mergecapOrder).
// Each frame keeps its file and its frame number in that file.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MERGE_CHUNK, readMerged } from '../../src/capture/merge.js';
import { readCapture } from '../../src/capture/reader.js';
import { CaptureError } from '../../src/capture/capture-error.js';
import type { PacketRecord } from '../../src/capture/record.js';
import { openSource } from '../../src/capture/source.js';
import { runTool } from '../helpers/tshark.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ethernet, ipv4, pcapFile, PcapngBuilder, udp, type PcapRecord } from './helpers/build.js';

const DEMO = 'examples/demo.pcap';
const ETHERTYPE_IPV4 = 0x0800;
const LINKTYPE_RAW = 101;

interface Seen {
  file: number;
  frame: number;
  time: string;
  linkType: number;
  capLen: number;
  /** the frame's bytes, hashed */
  bytes: string;
}

function seen(rec: PacketRecord): Seen {
  const bytes = createHash('sha1').update(rec.data.subarray(rec.dataOff, rec.dataOff + rec.capLen)).digest('hex');
  return { file: rec.file, frame: rec.frame, time: rec.timeText(), linkType: rec.linkType, capLen: rec.capLen, bytes };
}

async function readOne(file: string): Promise<Seen[]> {
  const out: Seen[] = [];
  await readCapture(file, (rec) => out.push(seen(rec)));
  return out;
}

async function readAll(files: readonly string[]) {
  const out: Seen[] = [];
  const inputs = await Promise.all(files.map(async (p) => ({ path: p, source: await openSource(p) })));
  const info = await readMerged(inputs, (rec) => out.push(seen(rec)));
  return { frames: out, info };
}

function tool(name: string, args: string[]): void {
  const r = runTool(name, args);
  if (r.status !== 0) throw new Error(`${name} ${args.join(' ')}: ${r.stderr}`);
}

/** tshark's time and captured length of each frame of `file` */
function tsharkFrames(file: string): string[] {
  const r = runTool('tshark', ['-r', file, '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'frame.cap_len']);
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** What mergecap writes from `files`, in the order the merge reads them: the files given in reverse (see the top). */
function mergecapOrder(files: readonly string[], out: string): string {
  tool('mergecap', ['-w', out, ...[...files].reverse()]);
  return out;
}

const withoutPlace = (s: Seen): Omit<Seen, 'file' | 'frame'> => ({ time: s.time, linkType: s.linkType, capLen: s.capLen, bytes: s.bytes });

/** frames 1..n of each file, in the order of the merge */
function numberedPerFile(frames: readonly Seen[], files: number): boolean {
  const next = Array<number>(files).fill(1);
  return frames.every((f) => f.frame === next[f.file]!++);
}

/** A pcap of UDP packets stamped `times` (microseconds), each packet's port its place in `tag`'s file. */
function udpPcap(times: readonly number[], tag: number, opts: { linkType?: number } = {}): Uint8Array {
  const records: PcapRecord[] = times.map((us, i) => {
    const ip = ipv4({ proto: 17, src: `10.0.${tag}.1` }, udp(1000 + i, 53));
    return { sec: 1_700_000_000 + Math.floor(us / 1e6), frac: us % 1e6, data: opts.linkType === LINKTYPE_RAW ? ip : ethernet(ETHERTYPE_IPV4, ip) };
  });
  return pcapFile({ linkType: opts.linkType ?? 1 }, records);
}

describe('several captures merged by time', () => {
  it('merges the parts editcap cuts from a capture (-c, in turn) back into it, frame for frame', async () => {
    const dir = tempDir('edgesim-merge-');
    tool('editcap', ['-c', '1200', DEMO, path.join(dir, 'part.pcap')]);
    const parts = runTool('sh', ['-c', `ls ${dir}/part_*.pcap`]).stdout.trim().split('\n');
    expect(parts.length).toBe(4);
    const original = await readOne(DEMO);
    const { frames, info } = await readAll(parts);
    expect(frames.map(withoutPlace)).toEqual(original.map(withoutPlace));
    expect(frames.map((f) => f.file)).toEqual(original.map((_, i) => Math.floor(i / 1200)));
    expect(numberedPerFile(frames, parts.length)).toBe(true);
    expect(info.files.map((f) => f.packets)).toEqual([1200, 1200, 1200, 926]);
    expect(info.packets).toBe(original.length);
    expect(info.warnings).toEqual([]);
  });

  it('merges interleaved parts, one pcap and one pcapng, into what mergecap writes (read by tshark and by the reader)', async () => {
    const dir = tempDir('edgesim-merge-');
    const ranges = ['1-100', '201-300', '401-500', '1001-1010', '1500-3000', '4000-4100'];
    const a = path.join(dir, 'a.pcap');
    const b = path.join(dir, 'b.pcapng');
    tool('editcap', ['-F', 'pcap', DEMO, a, ...ranges]); // without the ranges
    tool('editcap', ['-F', 'pcapng', '-r', DEMO, b, ...ranges]); // only the ranges
    for (const order of [[a, b], [b, a]]) {
      // no two packets of the demo have the same time: mergecap's order either way is the merge's
      const merged = path.join(dir, 'merged.pcapng');
      tool('mergecap', ['-w', merged, ...order]);
      const { frames, info } = await readAll(order);
      expect(frames.map((f) => `${f.time}\t${f.capLen}`)).toEqual(tsharkFrames(merged));
      expect(frames.map(withoutPlace)).toEqual((await readOne(merged)).map(withoutPlace));
      expect(frames.map(withoutPlace)).toEqual((await readOne(mergecapOrder(order, path.join(dir, 'reversed.pcapng')))).map(withoutPlace));
      expect(numberedPerFile(frames, 2)).toBe(true);
      expect(info.format).toBe(order[0] === a ? 'pcap+pcapng' : 'pcapng+pcap');
      expect(info.files.map((f) => f.format)).toEqual(order.map((f) => (f.endsWith('.pcapng') ? 'pcapng' : 'pcap')));
    }
  });

  it('merges captures of different link types as mergecap does, each frame keeping its own', async () => {
    const dir = tempDir('edgesim-merge-');
    const eth = path.join(dir, 'eth.pcap');
    const raw = path.join(dir, 'raw.pcap');
    writeFileSync(eth, udpPcap([0, 10, 20, 30, 40], 1));
    writeFileSync(raw, udpPcap([5, 15, 20, 35, 50, 60], 2, { linkType: LINKTYPE_RAW }));
    const merged = mergecapOrder([eth, raw], path.join(dir, 'merged.pcapng'));
    const { frames, info } = await readAll([eth, raw]);
    expect(frames.map(withoutPlace)).toEqual((await readOne(merged)).map(withoutPlace));
    const [E, R] = [1, LINKTYPE_RAW];
    expect(frames.map((f) => f.linkType)).toEqual([E, R, E, R, E, R, E, R, E, R, R]);
    expect(info.linkTypes).toEqual([1, LINKTYPE_RAW]);
    expect(frames.map((f) => `${f.time}\t${f.capLen}`)).toEqual(tsharkFrames(merged));
  });

  it('takes the file given first on equal times: mergecap of the files in reverse order (mergecap takes the one given last)', async () => {
    const dir = tempDir('edgesim-merge-');
    const files = [
      [0, 0, 7, 7, 7, 9],
      [0, 7, 7, 8],
      [0, 0, 7, 9, 9],
    ].map((times, i) => {
      const file = path.join(dir, `t${i}.pcap`);
      writeFileSync(file, udpPcap(times, i));
      return file;
    });
    for (const order of [files, [...files].reverse(), [files[1]!, files[2]!, files[0]!]]) {
      const { frames } = await readAll(order);
      expect(frames.map(withoutPlace)).toEqual((await readOne(mergecapOrder(order, path.join(dir, 'merged.pcapng')))).map(withoutPlace));
      // the packets of time 0 (two, one and two of them in the three files) come file by file, as given
      const zeros = order.map((f) => [2, 1, 2][files.indexOf(f)]!);
      expect(frames.slice(0, 5).map((f) => f.file)).toEqual(zeros.flatMap((n, k) => Array<number>(n).fill(k)));
      // mergecap of the files as given puts the last file's first
      tool('mergecap', ['-w', path.join(dir, 'as-given.pcapng'), ...order]);
      expect((await readOne(path.join(dir, 'as-given.pcapng'))).map(withoutPlace)).not.toEqual(frames.map(withoutPlace));
    }
  });

  it('rebuilds a capture cut where two packets have the same time (mergecap, given the parts in turn, swaps them)', async () => {
    const dir = tempDir('edgesim-merge-');
    const whole = path.join(dir, 'whole.pcap');
    writeFileSync(whole, udpPcap([0, 4, 4, 4, 9], 1));
    tool('editcap', ['-F', 'pcap', '-c', '2', whole, path.join(dir, 'part.pcap')]);
    const parts = runTool('sh', ['-c', `ls ${dir}/part_*.pcap`]).stdout.trim().split('\n');
    expect(parts.length).toBe(3);
    const { frames } = await readAll(parts);
    expect(frames.map(withoutPlace)).toEqual((await readOne(whole)).map(withoutPlace));
    tool('mergecap', ['-w', path.join(dir, 'given.pcapng'), ...parts]);
    expect((await readOne(path.join(dir, 'given.pcapng'))).map(withoutPlace)).not.toEqual(frames.map(withoutPlace));
  });

  it('gives the order of a stable sort by time over the files in turn, whatever the times (property)', async () => {
    const dir = tempDir('edgesim-merge-');
    const fileTimes = fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }).map((t) => t.sort((x, y) => x - y));
    await fc.assert(
      fc.asyncProperty(fc.array(fileTimes, { minLength: 1, maxLength: 5 }), async (times) => {
        const files = times.map((t, i) => {
          const file = path.join(dir, `p${i}.pcap`);
          writeFileSync(file, udpPcap(t, i));
          return file;
        });
        const { frames } = await readAll(files);
        const expected = times
          .flatMap((t, file) => t.map((us, k) => ({ us, file, frame: k + 1 })))
          .sort((x, y) => x.us - y.us || x.file - y.file);
        expect(frames.map((f) => [f.file, f.frame])).toEqual(expected.map((e) => [e.file, e.frame]));
        if (frames.length > 0) expect(frames.map(withoutPlace)).toEqual((await readOne(mergecapOrder(files, path.join(dir, 'merged.pcapng')))).map(withoutPlace));
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a file that is out of time order in itself as it is, as mergecap does, and says so of that file', async () => {
    const dir = tempDir('edgesim-merge-');
    const a = path.join(dir, 'a.pcap');
    const b = path.join(dir, 'b.pcap');
    writeFileSync(a, udpPcap([10, 5, 20], 1));
    writeFileSync(b, udpPcap([0, 12], 2));
    const merged = mergecapOrder([a, b], path.join(dir, 'merged.pcapng'));
    const { frames, info } = await readAll([a, b]);
    expect(frames.map(withoutPlace)).toEqual((await readOne(merged)).map(withoutPlace));
    expect(info.warnings).toEqual([`${a}: timestamps out of order: 1 packet is stamped earlier than the packet before them (the first is frame 2)`]);
    expect(info.files[1]!.warnings).toEqual([]);
  });

  it("numbers a pcapng file's frames as Wireshark numbers them in that file, a custom block taking a number", async () => {
    const dir = tempDir('edgesim-merge-');
    const a = path.join(dir, 'a.pcapng');
    const b = path.join(dir, 'b.pcap');
    const packet = (i: number): Uint8Array => ethernet(ETHERTYPE_IPV4, ipv4({ proto: 17 }, udp(2000 + i, 53)));
    // interface 0 in microseconds: a packet at 1 us, a custom block, a packet at 3 us
    writeFileSync(a, new PcapngBuilder().section().iface(1).epb(0, 1n, packet(1)).other(0x00000bad, [0, 0, 0, 1, 0, 0, 0, 0]).epb(0, 3n, packet(3)).build());
    writeFileSync(b, pcapFile({}, [{ sec: 0, frac: 2, data: packet(2) }]));
    const { frames } = await readAll([a, b]);
    expect(frames.map((f) => [f.file, f.frame])).toEqual([[0, 1], [1, 1], [0, 3]]);
    expect(frames.map((f) => f.time)).toEqual(['0.000001000', '0.000002000', '0.000003000']);
  });

  it('reads every packet of the other files when one is cut short, and names that file in its warning', async () => {
    const dir = tempDir('edgesim-merge-');
    const a = path.join(dir, 'a.pcap');
    const b = path.join(dir, 'b.pcap');
    writeFileSync(a, udpPcap([0, 2, 4, 6], 1));
    const whole = udpPcap([1, 3, 5, 7], 2);
    writeFileSync(b, whole.subarray(0, whole.length - 10));
    const { frames, info } = await readAll([a, b]);
    expect(frames.map((f) => [f.file, f.frame])).toEqual([[0, 1], [1, 1], [0, 2], [1, 2], [0, 3], [1, 3], [0, 4]]);
    expect(info.warnings).toEqual([expect.stringMatching(new RegExp(`^${b}: truncated final record at byte \\d+ \\(frame 4\\)$`))]);
  });

  it('refuses a list with a file that is not a capture, naming it, before delivering any packet', async () => {
    const dir = tempDir('edgesim-merge-');
    const a = path.join(dir, 'a.pcap');
    const notes = path.join(dir, 'notes.txt');
    writeFileSync(a, udpPcap([0, 1], 1));
    writeFileSync(notes, 'not a capture at all\n');
    let delivered = 0;
    const inputs = await Promise.all([a, notes].map(async (p) => ({ path: p, source: await openSource(p) })));
    const err = await readMerged(inputs, () => delivered++).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toBe(`${notes}: not a pcap or pcapng file (it starts with 6e 6f 74 20)`);
    expect(delivered).toBe(0);
  });

  it('reads files many times larger than its buffers in step (a capture of 1.7 MB in three parts)', async () => {
    const dir = tempDir('edgesim-merge-');
    const big = path.join(dir, 'big.pcap');
    const times = Array.from({ length: 30_000 }, (_, i) => i * 3);
    writeFileSync(big, udpPcap(times, 1));
    expect(readFileSync(big).length).toBeGreaterThan(6 * MERGE_CHUNK);
    // every third packet to each part: each part's frames are spread over the whole time span
    const parts = [0, 1, 2].map((k) => {
      const file = path.join(dir, `part${k}.pcap`);
      writeFileSync(file, udpPcap(times.filter((_, i) => i % 3 === k), 1));
      return file;
    });
    const { frames } = await readAll(parts);
    expect(frames.map((f) => f.time)).toEqual((await readOne(big)).map((f) => f.time));
    expect(frames.map((f) => f.file)).toEqual(times.map((_, i) => i % 3));
  });
});
