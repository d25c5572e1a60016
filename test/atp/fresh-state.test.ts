// A protection run over a built configuration (`new AdvancedTcpProtection(configuration)`, as each
// sim/run.ts Run makes one): the same configuration with run state of its own, without compiling
// again. A fresh state must decide every packet as a protection newly built from the snapshot does, and what
// either sees must not reach the other (bench's passes, a suite's cases, a library simulator's reset()
// and replay start from it). And a fresh state costs what its work needs: a bench pass over a 1-packet capture
// makes one per pass.
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { ACK, SYN, capture, clients, connection, flood, run as runAll, type Pkt } from './helpers/traffic.js';

/** what protection made of the packets: each decision, and its report */
function run(atp: AdvancedTcpProtection, packets: Pkt[]): unknown {
  const { seen, report } = runAll(atp, packets);
  return { seen, report };
}

const config = snapshot({
  syn: [rule('enabled')],
  oos: [rule('monitoring')],
  synFilters: [{ expression: 'tcp.dstport == 443', mode: 'monitoring' }],
});
const traffic = capture([
  flood({ start: 0, seconds: 2, pps: 200, dstNet: SERVER_NET, flags: SYN, seed: 3 }),
  flood({ start: 0.5, seconds: 1, pps: 100, dstNet: SERVER_NET, dport: 443, flags: SYN, seed: 4 }),
  flood({ start: 1, seconds: 1, pps: 100, dstNet: SERVER_NET, flags: ACK, seed: 5 }),
  connection({ t: 0.2, client: '198.51.100.7', server: SERVER, sport: 40000, segments: 3 }),
]);

describe('a protection run over a built configuration', () => {
  it('decides every packet as a protection built anew from the snapshot, with its own counts', () => {
    const built = AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING);
    const expected = run(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING), traffic);
    const { seen } = runAll(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING), traffic);
    expect(seen.some((s) => s.verdict === 'drop')).toBe(true);
    expect(seen.some((s) => s.monitor !== null)).toBe(true);
    expect(run(new AdvancedTcpProtection(built.configuration), traffic)).toEqual(expected);
    // the original, after its fresh copy's replay, starts from nothing as well
    expect(run(built, traffic)).toEqual(expected);
  });

  it('starts with no connections and no rates, whatever the state it was made from has seen', () => {
    const built = AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING);
    run(built, traffic);
    const fresh = new AdvancedTcpProtection(built.configuration);
    expect(fresh.report()).toEqual(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING).report());
    expect(run(fresh, traffic)).toEqual(run(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING), traffic));
  });

  it('takes memory by the connections it holds, not by the maxFlows of its options', () => {
    const built = AdvancedTcpProtection.fromSnapshot(config);
    const before = process.memoryUsage().arrayBuffers;
    const states = Array.from({ length: 200 }, () => new AdvancedTcpProtection(built.configuration));
    const perState = (process.memoryUsage().arrayBuffers - before) / states.length;
    // a table that holds nothing has no room yet; room for 4,096 connections up front was 320 KB
    expect(perState).toBeLessThan(4096);
    expect(built.options.maxFlows).toBe(500_000);
  });

  it('takes room for the connections it holds as it meets them, whatever maxFlows allows: with the largest (2^30 - 1) a run decides as with the default', () => {
    const largest = AdvancedTcpProtection.fromSnapshot(config, { ...ALWAYS_MITIGATING, maxFlows: 2 ** 30 - 1 });
    expect(runAll(largest, traffic).seen).toEqual(runAll(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING), traffic).seen);
    // room for the default's 500,000 connections, taken for this capture's few, would be about 38 MB (this run takes under 100 KB)
    const atp = AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING);
    const before = process.memoryUsage().arrayBuffers;
    runAll(atp, traffic);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4_000_000);
  });

  it('holds 6,000 connections with the largest maxFlows (2^30 - 1) as with the default: past its first few thousand the room grows with the connections held, not to maxFlows at once (which failed with "Array buffer allocation failed")', () => {
    const many = capture([clients({ start: 0, seconds: 2, perSecond: 3000, server: SERVER, seed: 8, close: 'none' })]);
    const byDefault = runAll(AdvancedTcpProtection.fromSnapshot(config, ALWAYS_MITIGATING), many);
    const largest = AdvancedTcpProtection.fromSnapshot(config, { ...ALWAYS_MITIGATING, maxFlows: 2 ** 30 - 1 });
    const before = process.memoryUsage().arrayBuffers;
    const { seen, report } = runAll(largest, many);
    expect(seen).toEqual(byDefault.seen);
    expect({ ...report, model: null }).toEqual({ ...byDefault.report, model: null });
    expect(report.connections.peak).toBeGreaterThan(4096);
    // room for the connections held, with the run still holding them (2^30 entries would take 80 GB)
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100_000_000);
  });
});
