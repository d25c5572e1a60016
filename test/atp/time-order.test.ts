// Captures whose timestamps are out of order: the reader counts the packets stamped earlier than the
// packet before them (as capinfos's "Strict time order" does), and ATP's time never goes back, so
// rates, thresholds and mitigation periods stay sane. The captures are a synthetic SYN flood among
// real handshakes rewritten with PcapWriter: reversed, and with the clock corrected by five years
// in the middle (the first half is stamped five years late).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, AtpDecision, type AtpReport } from '../../src/atp/index.js';
import { MonotonicClock } from '../../src/atp/clock.js';
import { PcapWriter } from '../../src/capture/pcap-writer.js';
import { readCapture } from '../../src/capture/reader.js';
import { generateToFile } from '../../src/capture/synth/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { verdictName } from '../../src/verdict.js';

const FIVE_YEARS = 5 * 365 * 86400;
const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-time-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Frame {
  bytes: Uint8Array;
  sec: number;
  nsec: number;
}

const snapshot: Snapshot = {
  tcp_protection_status: { enabled: true },
  prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }],
  syn_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
  tcp_flow_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
};

let frames: Frame[];
const files: Record<'inOrder' | 'reversed' | 'jumpBack', string> = { inOrder: '', reversed: '', jumpBack: '' };

async function write(name: string, list: Frame[]): Promise<string> {
  const file = path.join(dir, name);
  const w = PcapWriter.open(file, { nanosecond: true });
  for (const f of list) w.write(f.bytes, f.sec, f.nsec);
  await w.close();
  return file;
}

async function replayAtp(file: string): Promise<{ verdicts: string[]; report: AtpReport; warnings: string[] }> {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot);
  const out = new AtpDecision();
  const verdicts: string[] = [];
  const info = await readCapture(file, (rec) => {
    atp.inspect(rec, out);
    verdicts.push(`${verdictName(out.drop)}:${out.reason ?? ''}`);
  });
  return { verdicts, report: atp.report(), warnings: info.warnings };
}

function sane(report: AtpReport): void {
  expect(report.duration).toBeGreaterThanOrEqual(0);
  for (const c of Object.values(report.components)) {
    for (const s of c.scopes) {
      for (const m of s.mitigations) {
        expect(m.start).toBeGreaterThanOrEqual(0);
        if (m.end !== null) expect(m.end).toBeGreaterThanOrEqual(m.start);
        expect(m.end ?? m.start).toBeLessThanOrEqual(report.duration + 1);
      }
      for (const p of s.timeline) expect(p.time).toBeGreaterThanOrEqual(0);
      expect(s.timeline.map((p) => p.time)).toEqual([...s.timeline.map((p) => p.time)].sort((a, b) => a - b));
    }
  }
}

beforeAll(async () => {
  const source = path.join(dir, 'syn-flood.pcap');
  await generateToFile('syn-flood', source, { packets: 20000, duration: 90, seed: 11, labels: null });
  frames = [];
  await readCapture(source, (rec) => frames.push({ bytes: rec.data.slice(rec.dataOff, rec.dataOff + rec.capLen), sec: rec.tsSec, nsec: rec.tsNsec }));
  const half = frames.length >> 1;
  files.inOrder = await write('in-order.pcap', frames);
  files.reversed = await write('reversed.pcap', [...frames].reverse());
  files.jumpBack = await write('jump-back.pcap', frames.map((f, i) => (i < half ? { ...f, sec: f.sec + FIVE_YEARS } : f)));
});

describe('timestamps out of order', () => {
  it('the reader counts packets stamped earlier than the one before, and names the first', async () => {
    const n = frames.length;
    expect((await replayAtp(files.inOrder)).warnings).toEqual([]);
    expect((await replayAtp(files.reversed)).warnings).toEqual([
      `timestamps out of order: ${(n - 1).toLocaleString('en-US')} packets are stamped earlier than the packet before them (the first is frame 2)`,
    ]);
    expect((await replayAtp(files.jumpBack)).warnings).toEqual([
      `timestamps out of order: 1 packet is stamped earlier than the packet before them (the first is frame ${(n >> 1) + 1})`,
    ]);
  });

  it('agrees with capinfos on which captures are in strict time order', () => {
    const strict = (file: string) => /Strict time order:\s+True/.test(execFileSync('capinfos', ['-o', file], { encoding: 'utf8' }));
    expect([strict(files.inOrder), strict(files.reversed), strict(files.jumpBack)]).toEqual([true, false, false]);
  });

  it('a clock corrected by five years mid-capture changes no ATP decision and no figure', async () => {
    const a = await replayAtp(files.inOrder);
    const b = await replayAtp(files.jumpBack);
    expect(a.report.components.syn_protection.dropped.CHALLENGE_NEEDED).toBeGreaterThan(1000);
    expect(b.verdicts).toEqual(a.verdicts);
    sane(b.report);
    expect(b.report.duration).toBeCloseTo(a.report.duration, 1);
    // the packet that stepped back is taken at the time of the one before it: one gap (ms) earlier
    const periods = (r: AtpReport) => r.components.syn_protection.scopes.flatMap((s) => s.mitigations.flatMap((m) => [m.start, m.end ?? -1]));
    expect(periods(b.report)).toHaveLength(periods(a.report).length);
    periods(b.report).forEach((t, k) => expect(Math.abs(t - periods(a.report)[k])).toBeLessThan(0.01));
  });

  it('a reversed capture: time never goes back, so no negative duration or period', async () => {
    const r = await replayAtp(files.reversed);
    sane(r.report);
    expect(r.report.packets.protected).toBeGreaterThan(10000);
  });
});

describe('MonotonicClock', () => {
  it('takes a packet earlier than the latest at the latest time; re-anchors after a step back longer than its limit', () => {
    const c = new MonotonicClock(1);
    const times = [
      [100, 0],
      [101, 0],
      [100, 500_000_000], // 0.5 s back: held at 1
      [101, 250_000_000], // 1.25
      [50, 0], // 51.25 s back: held at 1.25, and the clock re-anchors
      [50, 100_000_000], // 0.1 s later: 1.35
    ].map(([s, ns]) => c.at(s, ns));
    expect(times.map((t) => Math.round(t * 1000) / 1000)).toEqual([0, 1, 1, 1.25, 1.25, 1.35]);
    expect(c.start).toBe(100);
  });
});
