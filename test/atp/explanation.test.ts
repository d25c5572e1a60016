// The explanation API for `edgesim trace`: right after inspect(), explain() says which path the
// packet took, which component took it, per component the mode and what set it (filter, rule and
// scope, or default), the thresholds' source, the rates and thresholds at that moment, whether the
// component was mitigating, and the connection's state before and after. It must agree with the
// decision and change nothing: a run that explains every packet decides exactly as one that doesn't.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, AtpDecision, type AtpExplanation, type AtpOptionsInput } from '../../src/atp/index.js';
import { PacketRecord } from '../../src/capture/record.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { ALWAYS_MITIGATING, SERVER, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { ACK, FIN, PSH, RST, SYN, capture, connection, fill, flood, run, type Pkt } from './helpers/traffic.js';

/** Inspects each packet and explains it; returns the explanations. */
function explainAll(engine: AdvancedTcpProtection, packets: Pkt[]): AtpExplanation[] {
  const rec = new PacketRecord();
  const out = new AtpDecision();
  return packets.map((p, i) => {
    engine.inspect(fill(rec, p, i + 1), out);
    return engine.explain(rec, out);
  });
}

const config = (): Snapshot => ({
  ...snapshot({
    syn: [{ ...rule('enabled'), id: 'syn-global' }, { ...rule('monitoring', { scope: 'region', name: 'WEUR' }), id: 'syn-weur' }],
    oos: [{ ...rule('monitoring'), id: 'oos-global' }],
    oosFilters: [{ id: 'oos-ssh', expression: `ip.dst == ${SERVER} and tcp.dstport == 22`, mode: 'enabled' }],
    prefixes: [{ prefix: `${SERVER_NET}.0/24`, excluded: false }, { prefix: `${SERVER_NET}.192/26`, excluded: true }],
    allowlist: [{ prefix: '192.0.2.0/24', enabled: true }],
  }),
});

describe('explain()', () => {
  it('a SYN during a flood: the rule that set the mode, the meter above its thresholds, the connection challenged', () => {
    const packets = capture([flood({ start: 0, seconds: 1, pps: 3000, dstNet: SERVER_NET, flags: SYN, seed: 5 })]).filter((p) => Number(p.dst.split('.')[3]) < 192);
    const e = explainAll(AdvancedTcpProtection.fromSnapshot(config(), { learningSeconds: 0 }), packets).at(-1)!;
    expect(e).toMatchObject({
      step: 'syn_protection',
      component: 'syn_protection',
      destination: { protected: true, prefix: `${SERVER_NET}.0/24`, excluded: false },
      allowlisted: false,
      connection: { before: 'none', after: 'challenged' },
      verdict: 'drop',
      reason: 'CHALLENGE_NEEDED',
    });
    const syn = e.components.syn_protection;
    expect(syn).toMatchObject({
      applied: true,
      mode: 'enabled',
      modeFrom: { kind: 'rule', ref: 'syn-global', id: 'syn-global', scope: 'global', name: 'global', expression: null },
      thresholdsFrom: { kind: 'rule', ref: 'syn-global' },
      meter: { scope: 'global', name: 'global', rateThresholdPps: 100, burstThresholdPps: 500, learning: false, mitigating: true, baselineSource: 'learned' },
    });
    // the sustained rate: the SYNs in the last second's ten 0.1 s ticks, the burst rate: this tick's, per second
    const tick = (p: Pkt) => Math.floor((p.t - packets[0].t) / 0.1);
    const now = tick(packets.at(-1)!);
    expect(syn.meter.ratePps).toBe(packets.filter((p) => tick(p) > now - 10).length);
    expect(syn.meter.burstPps).toBeCloseTo(packets.filter((p) => tick(p) === now).length / 0.1, 6);
    expect(syn.meter.ratePps).toBeGreaterThan(2000);
    expect(e.components.tcp_flow_protection).toMatchObject({ applied: false, mode: 'monitoring', modeFrom: { kind: 'rule', ref: 'oos-global' } });
    expect(e.time).toBeCloseTo(packets.at(-1)!.t - packets[0].t, 6);
  });

  it('a region rule is more specific than the global one; a filter overrides rules, with its expression', () => {
    const synWeur: Pkt = { t: 0, src: '198.51.100.7', dst: SERVER, sport: 4000, dport: 80, flags: SYN, seq: 1, colo: 'fra01', region: 'WEUR' };
    const ssh: Pkt = { t: 0.1, src: '198.51.100.8', dst: SERVER, sport: 4001, dport: 22, flags: ACK, seq: 9, ack: 9 };
    const [a, b] = explainAll(AdvancedTcpProtection.fromSnapshot(config()), [synWeur, ssh]);
    expect(a.components.syn_protection).toMatchObject({ mode: 'monitoring', modeFrom: { kind: 'rule', id: 'syn-weur', scope: 'region', name: 'WEUR' }, meter: { scope: 'region', name: 'WEUR', learning: true, rateThresholdPps: null } });
    expect(b.components.tcp_flow_protection).toMatchObject({
      applied: true,
      mode: 'enabled',
      modeFrom: { kind: 'filter', ref: 'oos-ssh', id: 'oos-ssh', scope: null, expression: `ip.dst == ${SERVER} and tcp.dstport == 22` },
      thresholdsFrom: { kind: 'rule', ref: 'oos-global' },
    });
    expect(b).toMatchObject({ step: 'tcp_flow_protection', undecided: true, connection: { before: 'none', after: 'open' } });
  });

  it('packets no component takes: allowlisted, excluded, not protected, not TCP, protection off', () => {
    const allow: Pkt = { t: 0, src: '192.0.2.9', dst: SERVER, sport: 4000, dport: 80, flags: SYN, seq: 1 };
    const excluded: Pkt = { t: 0.1, src: '198.51.100.1', dst: `${SERVER_NET}.200`, sport: 4000, dport: 80, flags: SYN, seq: 1 };
    const elsewhere: Pkt = { t: 0.2, src: '198.51.100.1', dst: '198.18.0.1', sport: 4000, dport: 80, flags: SYN, seq: 1 };
    const [a, x, o] = explainAll(AdvancedTcpProtection.fromSnapshot(config()), [allow, excluded, elsewhere]);
    expect(a).toMatchObject({ step: 'allowlisted', allowlisted: true, component: null, connection: null, destination: { protected: true }, verdict: 'pass' });
    expect(x).toMatchObject({ step: 'not_protected', destination: { protected: false, prefix: `${SERVER_NET}.192/26`, excluded: true }, component: null });
    expect(o).toMatchObject({ step: 'not_protected', destination: { protected: false, prefix: null, excluded: false } });

    const engine = AdvancedTcpProtection.fromSnapshot(config());
    const rec = new PacketRecord();
    const out = new AtpDecision();
    fill(rec, allow, 1);
    rec.present &= ~8; // not TCP any more (Has.TCP)
    engine.inspect(rec, out);
    expect(engine.explain(rec, out)).toMatchObject({ step: 'not_tcp', time: 0, component: null });

    const off = AdvancedTcpProtection.fromSnapshot({ ...config(), tcp_protection_status: { enabled: false } });
    const [z] = explainAll(off, [allow]);
    expect(z).toMatchObject({ status: false, active: false, step: 'inactive', time: null });
  });

  it('a component without a rule or filter for the packet: off, from the default', () => {
    const s = snapshot({ syn: [rule('enabled')] });
    const [e] = explainAll(AdvancedTcpProtection.fromSnapshot(s), [{ t: 0, src: '198.51.100.1', dst: SERVER, sport: 4000, dport: 80, flags: ACK, seq: 1, ack: 1 }]);
    expect(e.components.tcp_flow_protection).toMatchObject({
      applied: true,
      mode: 'off',
      modeFrom: { kind: 'default', ref: null },
      thresholdsFrom: { kind: 'default' },
      meter: { scope: 'default', name: 'default' },
    });
    expect(e.components.syn_protection.modeFrom).toMatchObject({ kind: 'rule', ref: 'syn_protection.rules[0]', id: null });
  });

  it('follows a connection through its states', () => {
    const conn = connection({ t: 0, client: '198.51.100.3', server: SERVER, sport: 40000, segments: 1, close: 'fin' }).filter((p) => !p.egress);
    const e = explainAll(AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] }), { learningSeconds: 0 }), conn);
    expect(e.map((x) => [x.component, x.connection!.before, x.connection!.after])).toEqual([
      ['syn_protection', 'none', 'new'],
      ['tcp_flow_protection', 'new', 'open'],
      ['tcp_flow_protection', 'open', 'open'],
      ['tcp_flow_protection', 'open', 'open'],
      ['tcp_flow_protection', 'open', 'closing'],
      ['tcp_flow_protection', 'closing', 'closing'],
    ]);
  });

  it('changes nothing: explaining every packet gives the same decisions and report (property)', () => {
    const pkt = fc.record({
      dt: fc.double({ min: 0, max: 0.5, noNaN: true }),
      client: fc.integer({ min: 1, max: 4 }),
      host: fc.constantFrom(10, 11, 200),
      sport: fc.integer({ min: 40000, max: 40003 }),
      flags: fc.constantFrom(SYN, ACK, PSH | ACK, FIN | ACK, RST, SYN | ACK),
      seq: fc.integer({ min: 0, max: 3000 }),
    });
    fc.assert(
      fc.property(fc.array(pkt, { maxLength: 120 }), fc.constantFrom<AtpOptionsInput>(ALWAYS_MITIGATING, { learningSeconds: 0.5 }), (list, options) => {
        let t = 0;
        const packets: Pkt[] = list.map((p) => ({ t: (t += p.dt), src: `198.51.100.${p.client}`, dst: `${SERVER_NET}.${p.host}`, sport: p.sport, dport: 80, flags: p.flags, seq: p.seq, ack: p.seq, len: p.flags & PSH ? 100 : 0 }));
        const plain = run(AdvancedTcpProtection.fromSnapshot(config(), options), packets);
        const explained = AdvancedTcpProtection.fromSnapshot(config(), options);
        const es = explainAll(explained, packets);
        const again = run(AdvancedTcpProtection.fromSnapshot(config(), options), packets);
        expect(again.seen).toEqual(plain.seen);
        es.forEach((e, i) => {
          expect(e.verdict).toBe(plain.seen[i].verdict);
          expect(e.reason).toBe(plain.seen[i].reason);
          if (e.component !== null) expect(e.components[e.component].mode).toBe(plain.seen[i].mode);
        });
        expect(explained.report(plain.labels)).toEqual(plain.report);
      }),
      { numRuns: 60 },
    );
  });
});
