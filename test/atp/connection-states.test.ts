// The connection state machine and the mitigation reasons, packet by packet, with thresholds so low
// that every evaluated packet is above them (so each packet shows what the component decides).
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, type AtpOptionsInput } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, rule, snapshot } from './helpers/config.js';
import { ACK, FIN, PSH, RST, SYN, connection, run, type Pkt } from './helpers/traffic.js';

const CLIENT = '198.51.100.7';
const c = (t: number, flags: number, seq: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: CLIENT, dst: SERVER, sport: 40000, dport: 443, flags, seq, ...more });
const s = (t: number, flags: number, seq: number, ack: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: SERVER, dst: CLIENT, sport: 443, dport: 40000, flags, seq, ack, egress: true, ...more });

function oosOnly(packets: Pkt[], options: AtpOptionsInput = {}) {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('disabled')], oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, ...options });
  return run(atp, packets).seen;
}

function synOnly(packets: Pkt[], more: Parameters<typeof rule>[1] = {}, options: AtpOptionsInput = {}, mode: 'enabled' | 'monitoring' = 'enabled') {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule(mode, more)], oos: [rule('disabled')] }), { ...ALWAYS_MITIGATING, ...options });
  return run(atp, packets).seen;
}

const reasons = (seen: { reason: string | null }[]) => seen.map((x) => x.reason);

describe('out-of-state protection', () => {
  it('passes every packet of a tracked connection, from handshake to close', () => {
    const seen = oosOnly(connection({ t: 0, client: CLIENT, server: SERVER, sport: 40000, segments: 3 }).filter((p) => !p.egress));
    expect(seen.every((x) => x.verdict === 'pass' && x.protectedPacket)).toBe(true);
    expect(seen[0].mode).toBe('disabled');
    expect(seen[1].mode).toBe('enabled');
  });

  it('drops a packet of no connection (NOT_FOUND) and a packet after an RST (ALREADY_CLOSED)', () => {
    const seen = oosOnly([c(0, ACK, 5), c(1, SYN, 100), c(1.1, ACK, 101), c(1.2, RST | ACK, 101), c(1.3, ACK, 101), c(1.4, PSH | ACK, 101, { len: 10 })]);
    expect(reasons(seen)).toEqual(['NOT_FOUND', null, null, null, 'ALREADY_CLOSED', 'ALREADY_CLOSED']);
    expect(seen[0]).toMatchObject({ verdict: 'drop', stage: 'tcp_flow_protection' });
  });

  it('forgets a Closed connection after timeouts.closedSeconds (then NOT_FOUND)', () => {
    const seen = oosOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, RST, 101), c(5, ACK, 101), c(20, ACK, 101)]);
    expect(reasons(seen)).toEqual([null, null, null, 'ALREADY_CLOSED', 'NOT_FOUND']);
  });

  it('checks the handshake ACK and later segments against the client sequence numbers (OUT_OF_SEQUENCE)', () => {
    expect(reasons(oosOnly([c(0, SYN, 100), c(0.1, ACK, 5000)]))).toEqual([null, 'OUT_OF_SEQUENCE']);
    const far = (101 + 100 * 1024 * 1024) >>> 0;
    const seen = oosOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, PSH | ACK, far, { len: 10 }), c(0.3, PSH | ACK, 101, { len: 10 }), c(0.4, ACK, 111)]);
    expect(reasons(seen)).toEqual([null, null, 'OUT_OF_SEQUENCE', null, null]);
  });

  it('compares sequence numbers modulo 2^32 (a connection wrapping past 2^32 stays in state)', () => {
    const isn = 0xffffff00;
    const seen = oosOnly([c(0, SYN, isn), c(0.1, ACK, isn + 1), c(0.2, PSH | ACK, isn + 1, { len: 1000 }), c(0.3, PSH | ACK, (isn + 1001) >>> 0, { len: 1000 })]);
    expect(reasons(seen)).toEqual([null, null, null, null]);
  });

  it('an RST far outside the window does not close the connection (OUT_OF_SEQUENCE), an in-window one does', () => {
    const seen = oosOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, RST, 0x40000000), c(0.3, ACK, 101), c(0.4, RST, 101), c(0.5, ACK, 101)]);
    expect(reasons(seen)).toEqual([null, null, 'OUT_OF_SEQUENCE', null, null, 'ALREADY_CLOSED']);
  });

  it('flags the state does not expect are UNEXPECTED: no ACK flag, data after the sender FIN', () => {
    expect(reasons(oosOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, FIN, 101), c(0.3, 0, 101)]))).toEqual([null, null, 'UNEXPECTED', 'UNEXPECTED']);
    const seen = oosOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, FIN | ACK, 101), c(0.3, ACK, 102), c(0.4, PSH | ACK, 102, { len: 50 })]);
    expect(reasons(seen)).toEqual([null, null, null, null, 'UNEXPECTED']);
  });

  it('below the threshold out-of-state packets pass ("not evaluated") and change nothing', () => {
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ oos: [rule('enabled')] }), { learningSeconds: 0 });
    const { seen, report } = run(atp, [c(0, ACK, 5), c(0.5, ACK, 6), c(1, ACK, 7)]);
    expect(seen.map((x) => x.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(report.components.tcp_flow_protection.scopes[0]).toMatchObject({ packets: 3, rateThresholdPps: 100, mitigations: [] });
  });

  it('with both directions tracked: checks acknowledgement numbers and sees the close complete', () => {
    const bidi = { bidirectional: true };
    const conn = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })];
    expect(reasons(oosOnly(conn, bidi))).toEqual([null, null, null]);
    // an ACK for server data never sent
    expect(reasons(oosOnly([...conn, c(0.2, ACK, 101, { ack: (9001 + 0x10000000) >>> 0 })], bidi)).at(-1)).toBe('OUT_OF_SEQUENCE');
    // a handshake ACK that does not acknowledge the server's SYN-ACK
    expect(reasons(oosOnly([conn[0], conn[1], c(0.1, ACK, 101, { ack: 1 })], bidi)).at(-1)).toBe('OUT_OF_SEQUENCE');
    const closed = [...conn, c(0.2, FIN | ACK, 101, { ack: 9001 }), s(0.25, FIN | ACK, 9001, 102), c(0.3, ACK, 102, { ack: 9002 }), c(0.4, ACK, 102, { ack: 9002 })];
    const seen = oosOnly(closed, bidi);
    expect(reasons(seen.filter((_, i) => !closed[i].egress))).toEqual([null, null, null, null, 'ALREADY_CLOSED']);
    expect(seen.filter((_, i) => closed[i].egress).every((x) => !x.protectedPacket && x.verdict === 'pass')).toBe(true);
  });

  it('without bidirectional tracking the protected side is ignored and client-side checks still hold', () => {
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ oos: [rule('enabled')] }), ALWAYS_MITIGATING);
    const { seen, report } = run(atp, [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 1 })]);
    expect(reasons(seen)).toEqual([null, null, null]);
    expect(report.packets.egress).toBe(0);
  });

  it('a capture starting mid-connection: unknown packets in the learning window are undecided and their connections adopted', () => {
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, learningSeconds: 5 });
    const mid = [c(0, PSH | ACK, 7000, { len: 100 }), c(1, ACK, 7100), c(6, PSH | ACK, 7100, { len: 10 }), c(6.1, ACK, 1, { sport: 40001 })];
    const { seen, report } = run(atp, mid);
    expect(seen.map((x) => [x.verdict, x.undecided])).toEqual([
      ['pass', true],
      ['pass', false],
      ['pass', false],
      ['drop', false],
    ]);
    expect(report.packets.undecided).toBe(1);
    const noAdopt = AdvancedTcpProtection.fromSnapshot(snapshot({ oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, learningSeconds: 5, adoptMidConnection: false });
    expect(run(noAdopt, mid).seen.map((x) => x.reason)).toEqual([null, null, 'NOT_FOUND', 'NOT_FOUND']);
  });
});

describe('SYN-flood protection', () => {
  it('challenge: the SYN is challenged, the handshake ACK passes the challenge, then the connection is Open and its later SYN passes', () => {
    const seen = synOnly([c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, PSH | ACK, 101, { len: 10 }), c(0.3, RST, 111), c(1, SYN, 5000)]);
    expect(seen.map((x) => [x.verdict, x.stage, x.reason])).toEqual([
      ['drop', 'syn_protection', 'CHALLENGE_NEEDED'],
      ['drop', 'syn_protection', 'CHALLENGE_PASSED'],
      ['pass', null, null],
      ['pass', null, null],
      ['pass', null, null],
    ]);
    expect(seen[1].mode).toBe('enabled');
  });

  it('challenge: no answer, a late answer, or a wrong one leaves the connection unvalidated (CHALLENGE_NEEDED)', () => {
    expect(reasons(synOnly([c(0, SYN, 100), c(2.9, SYN, 100), c(2.95, ACK, 777)]))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
    // an ACK with the wrong sequence number is no answer; the right one may carry data
    expect(reasons(synOnly([c(0, SYN, 100), c(0.1, ACK, 777), c(0.2, PSH | ACK, 101, { len: 5 })]))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_PASSED']);
    expect(reasons(synOnly([c(0, SYN, 100), c(0.1, RST, 101), c(0.2, FIN | ACK, 101)]))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
    // an unanswered challenge is forgotten after the answer window: a late ACK is simply not part of any connection
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] }), ALWAYS_MITIGATING);
    expect(run(atp, [c(0, SYN, 100), c(3.5, ACK, 101), c(3.6, SYN, 100)]).seen.map((x) => [x.stage, x.reason])).toEqual([
      ['syn_protection', 'CHALLENGE_NEEDED'],
      ['tcp_flow_protection', 'NOT_FOUND'],
      ['syn_protection', 'CHALLENGE_NEEDED'],
    ]);
  });

  it('retransmit: the first SYN is dropped, its retransmission within the window passes; too soon or too late does not', () => {
    const rt = { mitigation_type: 'retransmit' as const };
    expect(reasons(synOnly([c(0, SYN, 100), c(1, SYN, 100), c(1.1, ACK, 101)], rt))).toEqual(['CHALLENGE_NEEDED', null, null]);
    // the challenge waits for the retransmission window (10 s), not the cookie answer window (3 s)
    expect(reasons(synOnly([c(0, SYN, 100), c(7, SYN, 100)], rt))).toEqual(['CHALLENGE_NEEDED', null]);
    expect(reasons(synOnly([c(0, SYN, 100), c(0.1, SYN, 100), c(0.2, SYN, 100)], rt))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
    expect(reasons(synOnly([c(0, SYN, 100), c(12, SYN, 100)], rt))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
    // a different SYN (another ISN) is a new attempt, not a retransmission
    expect(reasons(synOnly([c(0, SYN, 100), c(1, SYN, 200)], rt))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });

  it('retransmit: the handshake ACK stands in for the retransmission a capture cannot hold, unless acceptHandshakeAck is off', () => {
    const rt = { mitigation_type: 'retransmit' as const };
    const packets = [c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, ACK, 101)];
    expect(reasons(synOnly(packets, rt))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', null]);
    expect(reasons(synOnly(packets, rt, { retransmit: { acceptHandshakeAck: false } }))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });

  it('an unsolicited SYN-ACK is challenged and passes only when retransmitted, whatever the mitigation type', () => {
    const sa = (t: number) => c(t, SYN | ACK, 300, { ack: 55 });
    expect(reasons(synOnly([sa(0), c(0.1, ACK, 301), sa(1), c(1.1, ACK, 301)]))).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', null, null]);
  });

  it('with both directions tracked, the SYN-ACK answering the protected side\'s own SYN is in state', () => {
    const packets = [s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), s(0.1, ACK, 9001, 301), c(0.2, PSH | ACK, 301, { ack: 9001, len: 100 })];
    const seen = synOnly(packets, {}, { bidirectional: true });
    expect(seen.map((x) => x.reason)).toEqual([null, null, null, null]);
    expect(seen[1].protectedPacket).toBe(true);
  });

  it('SYN with RST or FIN is UNEXPECTED', () => {
    expect(reasons(synOnly([c(0, SYN | RST, 1), c(0.1, SYN | FIN, 1)]))).toEqual(['UNEXPECTED', 'UNEXPECTED']);
  });

  it('monitoring passes everything and notes exactly what enabled mode drops', () => {
    const packets = [c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, PSH | ACK, 101, { len: 10 }), c(0.3, SYN | RST, 1), c(0.4, SYN, 400, { sport: 40001 })];
    const enabled = synOnly(packets);
    const monitoring = synOnly(packets, {}, {}, 'monitoring');
    expect(monitoring.every((x) => x.verdict === 'pass' && x.reason === null && x.stage === null)).toBe(true);
    expect(monitoring.map((x) => x.monitor)).toEqual(enabled.map((x) => (x.reason === null ? null : `${x.stage}:${x.reason}`)));
    expect(monitoring[0].mode).toBe('monitoring');
  });
});

describe('addresses and capacity', () => {
  it('tracks IPv6 connections to an IPv6 prefix like IPv4 ones', () => {
    const atp = AdvancedTcpProtection.fromSnapshot(
      { ...snapshot({ syn: [rule('disabled')], oos: [rule('enabled')] }), prefixes: [{ prefix: '2001:db8:ffff::/48', excluded: false }] },
      ALWAYS_MITIGATING,
    );
    const v6 = (t: number, flags: number, seq: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: '2001:db8:1::7', dst: '2001:db8:ffff::10', sport: 40000, dport: 443, flags, seq, ...more });
    const { seen } = run(atp, [v6(0, SYN, 100), v6(0.1, ACK, 101), v6(0.2, PSH | ACK, 101, { len: 20 }), v6(0.3, ACK, 101, { sport: 40001 }), c(0.4, ACK, 5)]);
    expect(seen.map((x) => [x.reason, x.protectedPacket])).toEqual([
      [null, true],
      [null, true],
      [null, true],
      ['NOT_FOUND', true],
      [null, false],
    ]);
  });

  it('a full connection table tracks no new connection (counted as untracked) and still challenges floods', () => {
    const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled')], oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, maxFlows: 10 });
    const packets: Pkt[] = [];
    for (let i = 0; i < 30; i++) packets.push(c(i * 0.01, SYN, 100 + i, { sport: 30000 + i }));
    const { seen, report } = run(atp, packets);
    expect(seen.every((x) => x.reason === 'CHALLENGE_NEEDED')).toBe(true);
    expect(report.connections).toMatchObject({ peak: 10, untracked: 20 });
  });
});
