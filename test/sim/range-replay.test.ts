// A replay on several threads (`--jobs`) gives exactly the report of one thread: the file is cut into
// byte ranges, each range finds its first record itself, and the parts are added in order. Compared
// here report against report (all but the elapsed time) on captures built to catch what depends on
// order or on where a range starts, on real worker threads and on ranges run in this thread (many
// cuts, quickly), and over the classic pcap files of the tcpdump corpus, damaged ones included.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import type { RangeRunner } from '../../src/sim/jobs/range-replay.js';
import { replayRange } from '../../src/sim/jobs/replay-range.js';
import type { RangeOutcome } from '../../src/sim/jobs/range-task.js';
import { PcapWriter } from '../../src/capture/pcap-writer.js';
import { replayFile, type ReplayResult } from '../../src/sim/replay.js';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { FIELDS, rulesets } from '../fastpath/helpers.js';
import { rangeSnapshot, writeRangeCapture } from './helpers/range-capture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-ranges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ranges run one after another in this thread: the same code as a worker runs, without starting threads */
const inThisThread: RangeRunner = (task) => ({
  outcome: replayRange(task).catch((err: Error): RangeOutcome => ({ kind: 'failed', message: err.message })),
  stop: async () => undefined,
});

/** ranges run in this thread, those whose slot `lies` saying they started a byte past where they did: they do not line up */
function misplacing(lies: (slot: number) => boolean): RangeRunner {
  return (task) => {
    const running = inThisThread(task);
    if (!lies(task.slot)) return running;
    return { ...running, outcome: running.outcome.then((o): RangeOutcome => (o.kind === 'done' ? { ...o, from: o.from + 1 } : o)) };
  };
}

/** the warning of a replay that asked for threads and ran on one (the one-thread report follows it) */
const RAN_ON_ONE = /^--jobs \d+: .*, so it ran on one thread$/;

/** the report and warnings, but for the elapsed time and the warning saying a replay ran on one thread */
function comparable(r: ReplayResult): unknown {
  const { elapsedSeconds: _e, packetsPerSecond: _p, ...rest } = r.report;
  if (r.warnings.some((w) => RAN_ON_ONE.test(w))) expect(r.threads).toBe(1);
  return { report: rest, warnings: r.warnings.filter((w) => !RAN_ON_ONE.test(w)) };
}

async function both(file: string, snapshot: Snapshot, jobs: number, runRange?: RangeRunner): Promise<{ one: ReplayResult; many: ReplayResult }> {
  const one = await replayFile(file, snapshot, { useLabels: false, jobs: 1 });
  const many = await replayFile(file, snapshot, { useLabels: false, jobs, runRange });
  return { one, many };
}

describe('replay on several threads', () => {
  it('gives the one-thread report on worker threads: top addresses past the counters, time order, notes, IPv6, no IP', async () => {
    const file = path.join(dir, 'mixed.pcap');
    await writeRangeCapture(file, { packets: 20_000, seed: 7 });
    const { one, many } = await both(file, rangeSnapshot(), 2);
    expect(many.threads).toBe(2);
    expect(comparable(many)).toEqual(comparable(one));
    // the capture exercises what it is meant to
    expect(one.report.drops.topSources.exact).toBe(false);
    expect(one.report.capture.warnings.join()).toMatch(/timestamps out of order/);
    expect(one.report.notes.length).toBeGreaterThan(0);
    expect(one.report.nonIpPackets).toBeGreaterThan(0);
    expect(one.report.dropped).toBeGreaterThan(1000);
  }, 60_000);

  it('gives the one-thread report for any number of ranges, each range found from an arbitrary byte', async () => {
    for (const seed of [1, 2, 3]) {
      const file = path.join(dir, `cuts-${seed}.pcap`);
      await writeRangeCapture(file, { packets: 3_000, seed });
      for (const jobs of [2, 3, 5, 16, 64]) {
        const { one, many } = await both(file, rangeSnapshot(), jobs, inThisThread);
        expect(many.threads, `seed ${seed}, ${jobs} ranges`).toBe(jobs);
        expect(comparable(many), `seed ${seed}, ${jobs} ranges`).toEqual(comparable(one));
      }
    }
  }, 60_000);

  it('replays a range on the main thread when its thread took a start where no record starts (a packet full of fake record headers)', async () => {
    const file = path.join(dir, 'fake-chain.pcap');
    await writeRangeCapture(file, { packets: 400, seed: 11, fakeChainInMiddle: true });
    let misled = 0;
    const watching: RangeRunner = (task) => {
      const running = inThisThread(task);
      return { ...running, outcome: running.outcome.then((o) => (o.kind === 'done' && o.from !== task.from && misled++, o)) };
    };
    const { one, many } = await both(file, rangeSnapshot(), 2, watching);
    expect(many.threads).toBe(2);
    expect(comparable(many)).toEqual(comparable(one));
    expect(many.warnings).toEqual(one.warnings);
    // the capture does mislead the range's thread (else this test would not test the repair)
    expect(misled).toBe(1);
  });

  it('replays ranges on the main thread, frames and time order counted on, when any or all of their threads do not line up', async () => {
    const file = path.join(dir, 'cuts-repair.pcap');
    await writeRangeCapture(file, { packets: 3_000, seed: 4 });
    // and cut short: the last range's warning names its frame, counted from the capture's start
    const cut = path.join(dir, 'cuts-repair-cut.pcap');
    const whole = readFileSync(file);
    writeFileSync(cut, whole.subarray(0, recordStarts(whole).at(-1)! + 20));
    for (const capture of [file, cut]) {
      for (const jobs of [2, 3, 5, 9]) {
        for (const bad of [(k: number) => k % 2 === 1, () => true]) {
          const { one, many } = await both(capture, rangeSnapshot(), jobs, misplacing(bad));
          expect(many.threads).toBe(jobs);
          expect(comparable(many), `${capture}, ${jobs} ranges`).toEqual(comparable(one));
        }
      }
    }
    expect((await replayFile(cut, rangeSnapshot(), { useLabels: false })).report.capture.warnings).toContain(`truncated final record at byte ${recordStarts(whole).at(-1)} (frame 3000)`);
    // every packet stamped before the one before it: each range's first packet is out of order too
    const backwards = path.join(dir, 'backwards.pcap');
    const w = PcapWriter.open(backwards);
    for (let i = 0; i < 2_000; i++) w.write(new Uint8Array(60), 1_700_000_000 - i, 0);
    await w.close();
    const { one, many } = await both(backwards, rangeSnapshot(), 7, misplacing(() => true));
    expect(comparable(many)).toEqual(comparable(one));
    expect(one.report.capture.warnings.join()).toMatch(/1,999 packets are stamped earlier/);
  }, 60_000);

  it('says why a replay asked to run on several threads runs on one', async () => {
    const ng = path.join(dir, 'some.pcapng');
    const pcapng = corpusFiles().find((n) => readFileSync(corpusPath(n)).subarray(0, 4).equals(Buffer.from([0x0a, 0x0d, 0x0d, 0x0a])))!;
    writeFileSync(ng, readFileSync(corpusPath(pcapng)));
    const r = await replayFile(ng, rangeSnapshot(), { useLabels: false, jobs: 2 });
    expect(r.threads).toBe(1);
    expect(r.warnings).toContain('--jobs 2: only a classic pcap file is cut into ranges (this one is pcapng), so it ran on one thread');
    const atp = await replayFile(
      path.join(dir, 'mixed.pcap'),
      {
        ...rangeSnapshot(),
        tcp_protection_status: { enabled: true },
        prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }],
        syn_protection: { rules: [{ scope: 'global', name: 'g', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
      },
      { useLabels: false, jobs: 2 },
    );
    expect(atp.threads).toBe(1);
    expect(atp.warnings.join('\n')).toMatch(/--jobs 2: protection is on/);
  }, 60_000);

  it('gives the one-thread report over the classic pcap files of the tcpdump corpus, damaged ones included', async () => {
    // the rules that read every field the fast path reads, but the one reading a list
    const snapshot: Snapshot = { rulesets: rulesets(FIELDS.filter(([, , expression]) => !expression.includes('$'))) };
    const differ: string[] = [];
    let parallel = 0;
    let files = 0;
    for (const name of corpusFiles()) {
      const file = corpusPath(name);
      const head = readFileSync(file).subarray(0, 4);
      const magic = head.length === 4 ? head.readUInt32LE(0) : 0;
      if (![0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1].includes(magic)) continue;
      files++;
      const one = await replayFile(file, snapshot, { useLabels: false, jobs: 1 }).catch((e: Error) => e.message);
      const many = await replayFile(file, snapshot, { useLabels: false, jobs: 3, runRange: inThisThread }).catch((e: Error) => e.message);
      if (typeof many !== 'string' && many.threads > 1) parallel++;
      const a = typeof one === 'string' ? one : comparable(one);
      const b = typeof many === 'string' ? many : comparable(many);
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(name);
    }
    expect(differ).toEqual([]);
    expect(files).toBeGreaterThan(500);
    // most files are cut: the check does not simply defer every file to one thread
    expect(parallel).toBeGreaterThan(files / 2);
  }, 240_000);
});

/** the start of every record of a classic little-endian pcap file */
function recordStarts(bytes: Buffer): number[] {
  const starts: number[] = [];
  for (let p = 24; p + 16 <= bytes.length; p += 16 + bytes.readUInt32LE(p + 8)) starts.push(p);
  return starts;
}

describe('replay on several threads, when things go wrong', () => {
  it('gives the one-thread report when the ranges keep their drops\' addresses in files', async () => {
    const file = path.join(dir, 'spill.pcap');
    await writeRangeCapture(file, { packets: 6_000, seed: 5 });
    let spilled = 0;
    const spilling: RangeRunner = (task) => {
      const outcome = replayRange({ ...task, addresses: { ...task.addresses, memoryBytes: 256, chunkWords: 32 } }).then((o) => {
        if (o.kind === 'done' && (o.parts.drops.addresses?.fileBytes ?? 0) > 0) spilled++;
        return o;
      });
      return { outcome, stop: async () => undefined };
    };
    const { one, many } = await both(file, rangeSnapshot(), 3, spilling);
    expect(many.threads).toBe(3);
    expect(comparable(many)).toEqual(comparable(one));
    expect(spilled).toBe(2);
  });

  it('replays on one thread, saying so, when no temporary file can be made', async () => {
    const file = path.join(dir, 'no-tmp.pcap');
    await writeRangeCapture(file, { packets: 1_000, seed: 12 });
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = path.join(dir, 'missing');
    try {
      const { one, many } = await both(file, rangeSnapshot(), 2, inThisThread);
      expect(many.threads).toBe(1);
      expect(comparable(many)).toEqual(comparable(one));
      expect(many.warnings.join('\n')).toMatch(/^--jobs 2: no temporary file could be made in .* for the dropped packets' addresses \(.*\), so it ran on one thread$/m);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  });

  it('replays the range on the main thread, saying so, when its thread cannot be started or fails', async () => {
    const file = path.join(dir, 'failing.pcap');
    await writeRangeCapture(file, { packets: 1_000, seed: 8 });
    const throwing: RangeRunner = () => {
      throw new Error('could not clone the task');
    };
    const failing: RangeRunner = () => ({ outcome: Promise.reject(new Error('out of memory')), stop: async () => undefined });
    for (const [runner, why] of [[throwing, 'could not clone the task'], [failing, 'out of memory']] as const) {
      const { one, many } = await both(file, rangeSnapshot(), 2, runner);
      expect(many.threads).toBe(2);
      expect(comparable({ ...many, warnings: many.warnings.filter((w) => !w.includes('a replay thread failed')) })).toEqual(comparable(one));
      expect(many.warnings).toContain(`--jobs 2: a replay thread failed (${why}); its range was replayed on the main thread`);
    }
  });

  it('reports a truncated final record in the last range, and a bad record in a middle one, as one thread does', async () => {
    const file = path.join(dir, 'damage.pcap');
    await writeRangeCapture(file, { packets: 4_000, seed: 3 });
    const whole = readFileSync(file);
    const starts = recordStarts(whole);
    const truncated = path.join(dir, 'truncated.pcap');
    writeFileSync(truncated, whole.subarray(0, starts.at(-1)! + 20));
    const bad = path.join(dir, 'bad-record.pcap');
    const copy = Buffer.from(whole);
    const at = starts.find((p) => p > whole.length * 0.6)!;
    copy.writeUInt32LE(0x7fff_fff0, at + 8);
    writeFileSync(bad, copy);
    for (const [capture, warning] of [
      [truncated, /^truncated final record at byte \d+ \(frame 4000\)$/],
      [bad, /^bad record length 2147483632 at byte \d+ \(frame \d+\); the rest of the file is ignored$/],
    ] as const) {
      const { one, many } = await both(capture, rangeSnapshot(), 4, inThisThread);
      expect(one.report.capture.warnings.some((w) => warning.test(w)), capture).toBe(true);
      expect(many.threads, capture).toBe(4);
      expect(comparable(many), capture).toEqual(comparable(one));
    }
  });

  it('stops when aborted while it waits for the other threads', async () => {
    const file = path.join(dir, 'stuck.pcap');
    await writeRangeCapture(file, { packets: 1_000, seed: 9 });
    let stopped = 0;
    const stuck: RangeRunner = () => ({ outcome: new Promise<never>(() => {}), stop: async () => void stopped++ });
    // aborted the moment the replay, its own range read, starts listening for an abort while it
    // waits for a thread (not on a timer, which under load could fire before that)
    const abort = new AbortController();
    const listen = abort.signal.addEventListener.bind(abort.signal);
    let waiting = false;
    abort.signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      listen(...args);
      waiting = true;
      queueMicrotask(() => abort.abort(new Error('interrupted')));
    };
    await expect(replayFile(file, rangeSnapshot(), { useLabels: false, jobs: 3, runRange: stuck, signal: abort.signal })).rejects.toThrow('interrupted');
    expect(waiting).toBe(true);
    expect(stopped).toBe(2);
  });

  it('ends when interrupted while it waits for the other threads: their threads are stopped, the report is of the first range', async () => {
    const file = path.join(dir, 'interrupted.pcap');
    await writeRangeCapture(file, { packets: 1_000, seed: 9 });
    let stopped = 0;
    // interrupted once this thread has read its whole range (the progress every range shares says so),
    // not on a timer, which under load could fire while that range is still being read
    const interrupt = new AbortController();
    let poll: ReturnType<typeof setInterval> | undefined;
    const stuck: RangeRunner = (task) => {
      if (task.slot === 1) {
        const read = new Float64Array(task.progress);
        poll = setInterval(() => read[0]! >= task.from && interrupt.abort('SIGINT'), 1);
      }
      return { outcome: new Promise<never>(() => {}), stop: async () => void stopped++ };
    };
    const r = await replayFile(file, rangeSnapshot(), { useLabels: false, jobs: 3, runRange: stuck, interrupt: interrupt.signal }).finally(() => clearInterval(poll));
    expect(stopped).toBe(2);
    // the first of three ranges: about a third of the packets, counted as one thread counts them
    expect(r.report.packets).toBeGreaterThan(200);
    expect(r.report.packets).toBeLessThan(500);
    expect(r.report.passed + r.report.dropped).toBe(r.report.packets);
    expect(r.warnings).toContain(`interrupted by SIGINT: the report covers the first ${r.report.packets} packets of the capture`);
  });

  it('reports progress on worker threads up to the whole file, once at its end', async () => {
    const file = path.join(dir, 'progress.pcap');
    await writeRangeCapture(file, { packets: 20_000, seed: 10 });
    const seen: Array<[number, number]> = [];
    const r = await replayFile(file, rangeSnapshot(), { useLabels: false, jobs: 2, onProgress: (done, total) => void seen.push([done, total]) });
    expect(r.threads).toBe(2);
    const size = statSync(file).size;
    expect(seen.every(([done, total]) => total === size && done <= size)).toBe(true);
    expect(seen.at(-1)).toEqual([size, size]);
  }, 60_000);
});
