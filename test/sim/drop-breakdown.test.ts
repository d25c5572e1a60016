import { beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6 } from '../../src/net/ipv6.js';
import type { PacketSink } from '../../src/sim/outputs/packet-sinks.js';
import { replayFile } from '../../src/sim/replay.js';
import type { ReplayReport } from '../../src/sim/summary.js';
import { SERIES_COLUMNS } from '../../src/sim/verdict-series.js';

// The demo replay (a SYN flood from spoofed sources, out-of-state packets, firewall blocks), with
// every drop's source and destination recorded packet by packet as the ground truth.
let report: ReplayReport;
const sources = new Map<string, number>();
const destinations = new Map<string, number>();

const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);

beforeAll(async () => {
  const truth: PacketSink = {
    packet(v) {
      if (!v.drop) return;
      const rec = v.record;
      bump(sources, rec.ipVersion === 4 ? formatIPv4(rec.src4) : formatIPv6(rec.src6));
      bump(destinations, rec.ipVersion === 4 ? formatIPv4(rec.dst4) : formatIPv6(rec.dst6));
    },
    close: async () => {},
  };
  const snapshot = await loadSnapshotFile('examples/demo-snapshot.json');
  ({ report } = await replayFile('examples/demo.pcap', snapshot, { sinks: () => [truth] }));
});

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('the replay summary: drops broken down and verdicts over time', () => {
  it('the demo drops in every stage it is built to show', () => {
    expect(report.droppedByStage.firewall).toBeGreaterThan(0);
    expect(report.droppedByStage.syn_protection).toBeGreaterThan(0);
  });

  it('verdicts over time add up to the totals, column by column', () => {
    expect(sum(report.series.counts.pass)).toBe(report.passed);
    for (const stage of SERIES_COLUMNS.slice(1)) {
      expect(sum(report.series.counts[stage])).toBe(report.droppedByStage[stage as keyof ReplayReport['droppedByStage']]);
    }
    expect(report.series.start).toBe(report.firstTime);
    const span = (report.lastTime as number) - (report.firstTime as number);
    expect(report.series.counts.pass.length).toBe(Math.floor(span / report.series.bucketSeconds) + 1);
  });

  it('drops by reason add up to the drops, and drops by rule to what the block rules decided', () => {
    expect(sum(report.drops.byReason.map((r) => r.packets))).toBe(report.dropped);
    expect(sum(report.drops.byRule.map((r) => r.packets))).toBe(report.droppedByStage.firewall);
    for (const r of report.drops.byRule) {
      const rule = report.rules.find((x) => x.ref === r.rule);
      expect(rule?.action).toBe('block');
      expect(r.packets).toBe(rule?.decided);
    }
  });

  it('top sources and destinations are within their error of the true counts, and exact when flagged exact', () => {
    for (const [top, truth] of [
      [report.drops.topSources, sources],
      [report.drops.topDestinations, destinations],
    ] as const) {
      expect(top.entries.length).toBe(Math.min(20, truth.size));
      for (const e of top.entries) {
        const n = truth.get(e.address) ?? 0;
        expect(e.packets).toBeGreaterThanOrEqual(n);
        expect(e.packets - e.error).toBeLessThanOrEqual(n);
        if (top.exact) expect(e.packets).toBe(n);
      }
      const heaviest = Math.max(...truth.values());
      expect(top.entries[0].packets).toBeGreaterThanOrEqual(heaviest);
    }
    // the demo has fewer distinct destinations among drops than counters: exact
    expect(report.drops.topDestinations.exact).toBe(true);
  });
});
