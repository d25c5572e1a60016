// Invariants over random traffic (random connections, floods, stray packets, random modes and
// options): monitoring never drops and notes exactly what enabled mode drops; a decision is always
// consistent with itself; disabled does nothing; the engine's label score matches the decisions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, type AtpOptionsInput } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, SERVER_NET, rule, snapshot } from './helpers/config.js';
import { ACK, FIN, PSH, RST, SYN, capture, connection, flood, run, type Pkt } from './helpers/traffic.js';

const FLAGS = [SYN, SYN | ACK, ACK, PSH | ACK, FIN | ACK, RST, RST | ACK, FIN, 0, SYN | RST];

const stray = fc.record({
  t: fc.double({ min: 0, max: 20, noNaN: true }),
  host: fc.integer({ min: 1, max: 3 }),
  sport: fc.integer({ min: 40000, max: 40005 }),
  flags: fc.constantFrom(...FLAGS),
  seq: fc.constantFrom(1000, 1001, 1201, 5000, 0x80000000),
});

const traffic = fc.record({
  conns: fc.array(
    fc.record({ t: fc.double({ min: 0, max: 18, noNaN: true }), host: fc.integer({ min: 1, max: 3 }), sport: fc.integer({ min: 40000, max: 40005 }), close: fc.constantFrom('fin' as const, 'rst' as const, 'none' as const), rtt: fc.double({ min: 0.001, max: 4, noNaN: true }) }),
    { maxLength: 12 },
  ),
  strays: fc.array(stray, { maxLength: 30 }),
  floods: fc.array(fc.record({ start: fc.double({ min: 0, max: 15, noNaN: true }), flags: fc.constantFrom(SYN, ACK, SYN | ACK, RST), seed: fc.nat() }), { maxLength: 2 }),
});

const knobs = fc.record({
  mitigation: fc.constantFrom('challenge' as const, 'retransmit' as const),
  bidirectional: fc.boolean(),
  always: fc.boolean(),
  learning: fc.constantFrom(0, 2, 10),
  acceptHandshakeAck: fc.boolean(),
});

type Traffic = typeof traffic extends fc.Arbitrary<infer T> ? T : never;

function packetsOf(t: Traffic, egress: boolean): Pkt[] {
  const client = (h: number) => `198.51.100.${h}`;
  return capture(
    [
      ...t.conns.map((c, i) => connection({ t: c.t, client: client(c.host), server: SERVER, sport: c.sport, dport: 443, rtt: c.rtt, close: c.close, isn: 1000, flow: i })),
      t.strays.map((s) => ({ t: s.t, src: client(s.host), dst: SERVER, sport: s.sport, dport: 443, flags: s.flags, seq: s.seq, ack: 1, len: s.flags & PSH ? 100 : 0 })),
      ...t.floods.map((f) => flood({ start: f.start, seconds: 0.5, pps: 400, dstNet: SERVER_NET, dport: 443, flags: f.flags, seed: f.seed })),
    ],
    { egress },
  );
}

describe('ATP invariants over random traffic', () => {
  it('monitoring never drops and notes exactly the packets enabled mode drops; decisions are self-consistent', () => {
    fc.assert(
      fc.property(traffic, knobs, (t, k) => {
        const packets = packetsOf(t, k.bidirectional);
        const options: AtpOptionsInput = { ...(k.always ? ALWAYS_MITIGATING : {}), learningSeconds: k.learning, bidirectional: k.bidirectional, retransmit: { acceptHandshakeAck: k.acceptHandshakeAck } };
        const config = (mode: 'enabled' | 'monitoring') => snapshot({ syn: [rule(mode, { mitigation_type: k.mitigation })], oos: [rule(mode)] });
        const enabled = run(AdvancedTcpProtection.fromSnapshot(config('enabled'), options), packets);
        const monitoring = run(AdvancedTcpProtection.fromSnapshot(config('monitoring'), options), packets);
        enabled.seen.forEach((e, i) => {
          const m = monitoring.seen[i];
          expect(m.verdict).toBe('pass');
          expect(m.reason).toBeNull();
          expect(m.monitor).toBe(e.reason === null ? null : `${e.stage}:${e.reason}`);
          expect(m.undecided).toBe(e.undecided);
          expect(e.monitor).toBeNull();
          // a drop always names its stage and reason; a pass names neither
          expect(e.verdict === 'drop').toBe(e.stage !== null && e.reason !== null);
          expect(e.protectedPacket).toBe(e.mode !== 'off');
          if (packets[i].egress) expect(e.protectedPacket).toBe(false);
          if (e.reason === 'CHALLENGE_NEEDED' || e.reason === 'CHALLENGE_PASSED') expect(e.stage).toBe('syn_protection');
          if (['NOT_FOUND', 'OUT_OF_SEQUENCE', 'ALREADY_CLOSED'].includes(e.reason ?? '')) expect(e.stage).toBe('tcp_flow_protection');
        });
        const dropped = enabled.seen.filter((x) => x.verdict === 'drop').length;
        expect(enabled.report.packets.dropped).toBe(dropped);
        expect(monitoring.report.packets.flagged).toBe(dropped);
        expect(monitoring.report.components).toEqual({
          syn_protection: { ...enabled.report.components.syn_protection, packets: { enabled: 0, monitoring: enabled.report.components.syn_protection.packets.enabled, disabled: 0 }, dropped: monitoring.report.components.syn_protection.dropped, flagged: enabled.report.components.syn_protection.dropped, challenged: 0, challengesPassed: 0 },
          tcp_flow_protection: { ...enabled.report.components.tcp_flow_protection, packets: { enabled: 0, monitoring: enabled.report.components.tcp_flow_protection.packets.enabled, disabled: 0 }, dropped: monitoring.report.components.tcp_flow_protection.dropped, flagged: enabled.report.components.tcp_flow_protection.dropped, challenged: 0, challengesPassed: 0 },
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a disabled component does nothing: its packets pass with mode disabled and no note, whatever the traffic', () => {
    fc.assert(
      fc.property(traffic, (t) => {
        const packets = packetsOf(t, false);
        const engine = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('disabled')], oos: [rule('enabled')] }), ALWAYS_MITIGATING);
        const { seen } = run(engine, packets);
        seen.forEach((x, i) => {
          if (packets[i].flags & SYN) expect(x).toMatchObject({ verdict: 'pass', mode: 'disabled', monitor: null });
        });
      }),
      { numRuns: 50 },
    );
  });
});
