// Evidence on scenarios with known ground truth, at realistic scale (tens of thousands of packets,
// generated deterministically): a spoofed SYN flood among real handshakes, an ACK flood among
// established connections (some begun before the capture), an allowlisted source, an excluded
// prefix, and scoped rules that apply in one region or data center only.
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import { SERVER, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { score } from './helpers/score.js';
import { ACK, PSH, SYN, capture, clients, flood, run, type Pkt } from './helpers/traffic.js';

const legit = clients({ start: 0, seconds: 40, perSecond: 20, server: SERVER, seed: 1 });
const synFlood = flood({ start: 15, seconds: 10, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 2 });
const synScenario = capture([legit, synFlood]);

/** Long-lived connections begun before the capture: a data segment every 0.5 s from each. */
function midConnection(flows: number, seconds: number, firstFlow: number): Pkt[] {
  const out: Pkt[] = [];
  for (let f = 0; f < flows; f++) {
    for (let k = 0; k * 0.5 < seconds; k++) {
      out.push({ t: k * 0.5 + f * 0.003, src: `198.19.0.${f + 1}`, dst: SERVER, sport: 50000 + f, dport: 443, flags: PSH | ACK, seq: (1_000_000 * f + 100 * k) >>> 0, len: 100, label: 'legit', flow: firstFlow + f });
    }
  }
  return out;
}

describe('spoofed SYN flood mixed with real handshakes', () => {
  const both = snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] });

  it('enabled: >= 99% of flood SYNs stopped and >= 99% of legitimate connections complete', () => {
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(both), synScenario);
    const s = score(synScenario, seen);
    expect(s.attack).toBe(50_000);
    expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    expect(s.legitFlows).toBe(800);
    expect(s.legitFlowsComplete / s.legitFlows).toBeGreaterThanOrEqual(0.99);
    // the engine's own score agrees with the independent one
    expect(report.labels).toMatchObject({ attackPackets: 50_000, attackDropped: s.attackStopped, legitFlows: 800, legitFlowsHarmed: s.legitFlows - s.legitFlowsComplete });
    // legitimate clients that met the challenge passed it
    const syn = report.components.syn_protection;
    expect(syn.challengesPassed).toBeGreaterThan(150);
    expect(report.labels?.legitFlowsChallenged).toBe(syn.challengesPassed);
    expect(syn.dropped.CHALLENGE_NEEDED).toBe(s.attackStopped + syn.challengesPassed);
    expect(report.components.tcp_flow_protection.dropped.NOT_FOUND).toBe(0);
    // one mitigation period, from the flood's start to shortly after its end
    const scope = syn.scopes[0];
    expect(scope).toMatchObject({ scope: 'global', name: 'global', baselineSource: 'learned', rateThresholdPps: 100, burstThresholdPps: 500 });
    expect(scope.mitigations).toHaveLength(1);
    expect(scope.mitigations[0].start).toBeGreaterThanOrEqual(15);
    expect(scope.mitigations[0].start).toBeLessThan(15.1);
    expect(scope.mitigations[0].end).toBeGreaterThan(25);
    expect(scope.mitigations[0].end).toBeLessThan(32);
    const during = scope.timeline.filter((p) => p.time >= 16 && p.time < 25);
    expect(during).toHaveLength(9);
    expect(during.every((p) => p.mitigating && p.ratePps > (p.rateThresholdPps ?? Infinity))).toBe(true);
    expect(scope.timeline.filter((p) => p.time < 14 || p.time >= 32).some((p) => p.mitigating)).toBe(false);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('monitoring: nothing dropped, and exactly the packets enabled mode drops are flagged, for the same reasons', () => {
    const enabled = run(AdvancedTcpProtection.fromSnapshot(both), synScenario).seen;
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('monitoring')], oos: [rule('monitoring')] })), synScenario);
    expect(seen.filter((x) => x.verdict === 'drop')).toHaveLength(0);
    expect(report.packets.dropped).toBe(0);
    const dropped = enabled.map((x, i) => (x.reason === null ? null : `${i}:${x.stage}:${x.reason}`)).filter((x) => x !== null);
    const flagged = seen.map((x, i) => (x.monitor === null ? null : `${i}:${x.monitor}`)).filter((x) => x !== null);
    expect(flagged).toEqual(dropped);
    const s = score(synScenario, seen, 'would');
    expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    expect(report.labels).toMatchObject({ attackDropped: 0, attackFlagged: s.attackStopped, legitFlowsHarmed: 0 });
  });

  it('retransmit mitigation: spoofed SYNs are never retransmitted, so >= 99% stopped; legitimate connections still complete', () => {
    const { seen } = run(AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled', { mitigation_type: 'retransmit' })] })), synScenario);
    const s = score(synScenario, seen);
    expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    expect(s.legitFlowsComplete / s.legitFlows).toBeGreaterThanOrEqual(0.99);
  });

  it('with both directions of the legitimate connections in the capture, the result is the same', () => {
    const packets = capture([legit, synFlood], { egress: true });
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(both, { bidirectional: true }), packets);
    const s = score(packets, seen);
    expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    expect(s.legitFlowsComplete / s.legitFlows).toBeGreaterThanOrEqual(0.99);
    expect(report.packets.egress).toBe(packets.filter((p) => p.egress).length);
    expect(report.components.tcp_flow_protection.dropped).toMatchObject({ OUT_OF_SEQUENCE: 0, UNEXPECTED: 0, NOT_FOUND: 0 });
  });
});

describe('ACK flood among established connections', () => {
  const established = midConnection(50, 40, 10_000);
  const ackFlood = flood({ start: 15, seconds: 10, pps: 5000, dstNet: SERVER_NET, dport: 443, flags: ACK, seed: 3 });
  const packets = capture([legit, established, ackFlood]);
  const both = (mode: 'enabled' | 'monitoring') => snapshot({ syn: [rule(mode)], oos: [rule(mode)] });

  it('enabled: >= 99% of the flood dropped as NOT_FOUND, no legitimate connection harmed (mid-capture ones included)', () => {
    const { seen, report } = run(AdvancedTcpProtection.fromSnapshot(both('enabled')), packets);
    const s = score(packets, seen);
    expect(s.attack).toBe(50_000);
    expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    expect(s.legitFlows).toBe(850);
    expect(s.legitFlowsComplete).toBe(850);
    const oos = report.components.tcp_flow_protection;
    expect(oos.dropped.NOT_FOUND).toBe(s.attackStopped);
    expect(oos.scopes[0].mitigations).toHaveLength(1);
    expect(report.components.syn_protection.scopes[0].mitigations).toHaveLength(0);
    // the connections begun before the capture were undecided only in the learning window
    const undecided = seen.filter((x) => x.undecided).length;
    expect(undecided).toBe(50);
    expect(report.packets.undecided).toBe(50);
  });

  it('monitoring: nothing dropped, the same packets flagged', () => {
    const enabled = run(AdvancedTcpProtection.fromSnapshot(both('enabled')), packets).seen;
    const { seen } = run(AdvancedTcpProtection.fromSnapshot(both('monitoring')), packets);
    expect(seen.some((x) => x.verdict === 'drop')).toBe(false);
    expect(seen.map((x) => x.monitor)).toEqual(enabled.map((x) => (x.reason === null ? null : `${x.stage}:${x.reason}`)));
  });

  it('without a learning window the connections begun before the capture are harmed: the window is what protects them', () => {
    const { seen } = run(AdvancedTcpProtection.fromSnapshot(both('enabled'), { learningSeconds: 0 }), packets);
    const s = score(packets, seen);
    expect(s.legitFlows - s.legitFlowsComplete).toBe(50);
  });
});

describe('who is protected', () => {
  // floods alone, without normal traffic to learn from: thresholds from the floors (no learning window)
  const atp = (parts: Parameters<typeof snapshot>[0]) => AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], ...parts }), { learningSeconds: 0 });

  it('an allowlisted source bypasses ATP entirely; a disabled allowlist entry has no effect', () => {
    const fromPartner = flood({ start: 11, seconds: 2, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 4, src: '192.0.2.9' });
    const packets = capture([fromPartner]);
    const allowed = run(atp({ allowlist: [{ prefix: '192.0.2.0/28', enabled: true }] }), packets);
    expect(allowed.seen.every((x) => x.verdict === 'pass' && !x.protectedPacket && x.mode === 'off')).toBe(true);
    expect(allowed.report.packets).toMatchObject({ allowlisted: 10_000, protected: 0 });
    for (const allowlist of [[{ prefix: '192.0.2.0/28', enabled: false }], [{ prefix: '192.0.2.10', enabled: true }]]) {
      const s = score(packets, run(atp({ allowlist }), packets).seen);
      expect(s.attackStopped / s.attack).toBeGreaterThanOrEqual(0.99);
    }
  });

  it('an excluded prefix carves its range out of the protected one (longest match), and a protected prefix inside it puts a range back', () => {
    const prefixes = [
      { prefix: `${SERVER_NET}.0/24`, excluded: false },
      { prefix: `${SERVER_NET}.128/25`, excluded: true },
      { prefix: `${SERVER_NET}.192/26`, excluded: false },
    ];
    const packets = capture([flood({ start: 11, seconds: 4, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 5 })]);
    const { seen } = run(atp({ prefixes }), packets);
    const host = (p: Pkt) => Number(p.dst.split('.')[3]);
    const group = (pred: (h: number) => boolean) => seen.filter((_, i) => pred(host(packets[i])));
    const excluded = group((h) => h >= 128 && h < 192);
    expect(excluded.length).toBeGreaterThan(4000);
    expect(excluded.every((x) => x.verdict === 'pass' && !x.protectedPacket)).toBe(true);
    for (const g of [group((h) => h < 128), group((h) => h >= 192)]) {
      expect(g.every((x) => x.protectedPacket)).toBe(true);
      expect(g.filter((x) => x.verdict === 'drop').length / g.length).toBeGreaterThanOrEqual(0.99);
    }
  });

  it('a region-scoped rule applies in its region only (names compared case-insensitively)', () => {
    const packets = capture([
      flood({ start: 11, seconds: 2, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 6, colo: 'ams01', region: 'weur' }),
      flood({ start: 11, seconds: 2, pps: 5000, dstNet: SERVER_NET, flags: SYN, seed: 7, colo: 'sjc01', region: 'WNAM' }),
    ]);
    const { seen, report } = run(atp({ syn: [rule('enabled', { scope: 'region', name: 'WEUR' })] }), packets);
    const weur = seen.filter((_, i) => packets[i].region === 'weur');
    const wnam = seen.filter((_, i) => packets[i].region === 'WNAM');
    expect(weur.every((x) => x.mode === 'enabled')).toBe(true);
    expect(weur.filter((x) => x.verdict === 'drop').length / weur.length).toBeGreaterThanOrEqual(0.99);
    expect(wnam.every((x) => x.mode === 'off' && !x.protectedPacket && x.verdict === 'pass')).toBe(true);
    expect(report.components.syn_protection.scopes.map((s) => [s.scope, s.name, s.packets])).toEqual([['region', 'WEUR', 10_000]]);
  });

  it('the most specific scope wins: data center over region over global, each with its own meter', () => {
    const at = (colo: string, region: string, seed: number) => flood({ start: 11, seconds: 1, pps: 2000, dstNet: SERVER_NET, flags: SYN, seed, colo, region });
    const packets = capture([at('ams01', 'WEUR', 8), at('fra02', 'WEUR', 9), at('sjc01', 'WNAM', 10)]);
    const rules = [rule('disabled'), rule('enabled', { scope: 'region', name: 'weur' }), rule('monitoring', { scope: 'datacenter', name: 'AMS01' })];
    const { seen, report } = run(atp({ syn: rules }), packets);
    const modeAt = (colo: string) => new Set(seen.filter((_, i) => packets[i].colo === colo).map((x) => x.mode));
    expect(modeAt('ams01')).toEqual(new Set(['monitoring']));
    expect(modeAt('fra02')).toEqual(new Set(['enabled']));
    expect(modeAt('sjc01')).toEqual(new Set(['disabled']));
    const byName = Object.fromEntries(report.components.syn_protection.scopes.map((s) => [s.name, s.packets]));
    expect(byName).toEqual({ global: 0, weur: 2000, AMS01: 2000 });
  });

  it('nothing happens unless tcp_protection_status.enabled', () => {
    const engine = atp({ enabled: false });
    expect(engine.active).toBe(false);
    const { seen, report } = run(engine, synScenario.slice(0, 2000));
    expect(seen.every((x) => x.verdict === 'pass' && x.mode === 'off' && !x.protectedPacket)).toBe(true);
    expect(report).toMatchObject({ status: false, active: false, packets: { seen: 0 } });
  });

  it('is inactive with no protected prefix, or with every rule disabled and no filter', () => {
    expect(atp({ prefixes: [] }).active).toBe(false);
    expect(atp({ prefixes: [{ prefix: `${SERVER_NET}.0/24`, excluded: true }] }).active).toBe(false);
    expect(AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('disabled')], oos: [rule('disabled')] })).active).toBe(false);
  });
});
