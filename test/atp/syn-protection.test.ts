// SYN-flood protection while it mitigates, packet by packet: what a flood does to connections
// tracked before it began (their own SYN again passes, any other SYN is challenged), SYN-ACKs that
// answer the protected side's SYN with the right or a wrong acknowledgement, and the exact edges of
// the answer and retransmission windows for challenges that start well after the capture does
// (so that the time since a challenge is really a difference of two times).
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, type AtpOptionsInput } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, rule, snapshot } from './helpers/config.js';
import { ACK, PSH, RST, SYN, run, type Pkt } from './helpers/traffic.js';

const CLIENT = '198.51.100.7';
const c = (t: number, flags: number, seq: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: CLIENT, dst: SERVER, sport: 40000, dport: 443, flags, seq, ...more });
const s = (t: number, flags: number, seq: number, ack: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: SERVER, dst: CLIENT, sport: 443, dport: 40000, flags, seq, ack, egress: true, ...more });
/** A packet to an address no rule protects: it starts ATP's clock at t = 0 and nothing else. */
const start = (): Pkt => ({ t: 0, src: CLIENT, dst: '192.0.2.1', sport: 1, dport: 2, flags: ACK, seq: 1 });

/** `n` spoofed SYNs from other sources within 10 ms of `t`: above the threshold of `FLOOD`. */
function flood(t: number, n = 40): Pkt[] {
  return Array.from({ length: n }, (_, i) => ({ t: t + i * 0.00025, src: `10.66.${i >> 8}.${i & 255}`, dst: SERVER, sport: 1024 + i, dport: 443, flags: SYN, seq: 7 * i }));
}

/** SYN protection mitigates above 20 SYNs a second (one connection's packets stay below). */
const FLOOD: AtpOptionsInput = { learningSeconds: 0, syn_protection: { baselinePps: 0, minRatePps: 20, minBurstPps: 1000 } };

function synOnly(packets: Pkt[], options: AtpOptionsInput, more: Parameters<typeof rule>[1] = {}, oos: 'enabled' | 'disabled' = 'disabled') {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('enabled', more)], oos: [rule(oos)] }), options);
  return run(atp, packets).seen;
}

/** The reasons given to the packets that are not part of a flood. */
function reasonsOf(packets: Pkt[], options: AtpOptionsInput, more: Parameters<typeof rule>[1] = {}, oos: 'enabled' | 'disabled' = 'disabled'): Array<string | null> {
  const seen = synOnly(packets, options, more, oos);
  return seen.filter((_, i) => !packets[i].src.startsWith('10.66.')).map((x) => x.reason);
}

describe('SYN protection during a flood', () => {
  it('a flood is challenged once it crosses the threshold; the packets before it pass', () => {
    const seen = synOnly([c(100, SYN, 100), ...flood(101)], FLOOD);
    expect(seen[0].reason).toBeNull();
    expect(seen.slice(1, 21).every((x) => x.reason === null)).toBe(true);
    expect(seen.slice(22).every((x) => x.verdict === 'drop' && x.reason === 'CHALLENGE_NEEDED')).toBe(true);
  });

  it('a connection tracked before the flood: its own SYN again passes, a SYN with another ISN is challenged', () => {
    expect(reasonsOf([c(100, SYN, 100), ...flood(101), c(102, SYN, 100), c(102.5, SYN, 100)], FLOOD)).toEqual([null, null, null]);
    expect(reasonsOf([c(100, SYN, 100), ...flood(101), c(102, SYN, 555)], FLOOD)).toEqual([null, 'CHALLENGE_NEEDED']);
    // the client's SYN number sent back as a SYN-ACK is not the same SYN again
    expect(reasonsOf([c(100, SYN, 100), ...flood(101), c(102, SYN | ACK, 100, { ack: 9 })], FLOOD)).toEqual([null, 'CHALLENGE_NEEDED']);
  });

  it('the same SYN again keeps a tracked connection alive (past timeouts.newSeconds of the first SYN)', () => {
    // New connections expire after 30 s idle: 100 -> 125 -> 150 keeps it, 100 -> 150 does not
    const kept = [c(100, SYN, 100), ...flood(101), ...flood(124.9), c(125, SYN, 100), ...flood(149.9), c(150, SYN, 100)];
    expect(reasonsOf(kept, FLOOD)).toEqual([null, null, null]);
    const lost = [c(100, SYN, 100), ...flood(101), ...flood(149.9), c(150, SYN, 100)];
    expect(reasonsOf(lost, FLOOD)).toEqual([null, 'CHALLENGE_NEEDED']);
  });

  it('a closed connection\'s SYN again is challenged', () => {
    expect(reasonsOf([c(100, SYN, 100), c(100.1, ACK, 101), c(100.2, RST, 101), ...flood(101), c(102, SYN, 100)], FLOOD, {}, 'enabled')).toEqual([null, null, null, 'CHALLENGE_NEEDED']);
  });

  it('SYN with RST or FIN passes below the threshold and is UNEXPECTED above it', () => {
    expect(reasonsOf([c(100, SYN | RST, 1), ...flood(101), c(102, SYN | RST, 1)], FLOOD)).toEqual([null, 'UNEXPECTED']);
  });

  it('a connection validated by its challenge keeps passing new SYNs, whatever their ISN', () => {
    expect(reasonsOf([...flood(100), c(101, SYN, 100), c(101.1, ACK, 101), c(102, SYN, 5000), c(103, SYN, 6000), c(104, SYN, 6000)], FLOOD)).toEqual([
      'CHALLENGE_NEEDED',
      'CHALLENGE_PASSED',
      null,
      null,
      null,
    ]);
  });
});

describe('SYN-ACKs answering the protected side\'s SYN (both directions tracked)', () => {
  const bidi: AtpOptionsInput = { ...ALWAYS_MITIGATING, bidirectional: true };

  it('pass with the acknowledgement of that SYN, and again when retransmitted', () => {
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), c(0.5, SYN | ACK, 300, { ack: 9001 })], bidi)).toEqual([null, null, null]);
  });

  it('are challenged with any other acknowledgement number', () => {
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9000 })], bidi)).toEqual([null, 'CHALLENGE_NEEDED']);
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9002 })], bidi)).toEqual([null, 'CHALLENGE_NEEDED']);
  });

  it('a SYN from the client on a connection the protected side opened is challenged, even carrying the right ack number', () => {
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN, 300, { ack: 9001 })], bidi)).toEqual([null, 'CHALLENGE_NEEDED']);
  });

  it('a second SYN-ACK with another ISN is challenged, and so is a SYN-ACK with ISN 0 and a wrong ack', () => {
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), c(0.1, SYN | ACK, 400, { ack: 9001 })], bidi)).toEqual([null, null, 'CHALLENGE_NEEDED']);
    expect(reasonsOf([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 0, { ack: 5 })], bidi)).toEqual([null, 'CHALLENGE_NEEDED']);
  });

  it('a SYN-ACK after the protected side reset its SYN is challenged', () => {
    expect(reasonsOf([s(0, SYN, 9000, 0), s(0.01, RST, 9001, 0), c(0.05, SYN | ACK, 300, { ack: 9001 })], bidi)).toEqual([null, null, 'CHALLENGE_NEEDED']);
  });

  it('the client\'s next segment is expected right after the SYN-ACK\'s ISN (within a tolerance of 1)', () => {
    const exact = { ...bidi, sequenceTolerance: 1 };
    const handshake = [s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), s(0.1, ACK, 9001, 301)];
    expect(reasonsOf([...handshake, c(0.2, PSH | ACK, 301, { ack: 9001, len: 10 })], exact, {}, 'enabled').at(-1)).toBeNull();
    expect(reasonsOf([...handshake, c(0.2, PSH | ACK, 303, { ack: 9001, len: 10 })], exact, {}, 'enabled').at(-1)).toBe('OUT_OF_SEQUENCE');
  });
});

describe('challenge windows, for challenges starting at t = 100.25', () => {
  const at = (packets: Pkt[]) => [start(), ...packets];
  const both = (packets: Pkt[], options: AtpOptionsInput = {}, more: Parameters<typeof rule>[1] = {}) => reasonsOf(at(packets), { ...ALWAYS_MITIGATING, ...options }, more, 'enabled').slice(1);

  it('challenge: the handshake ACK passes exactly challenge.answerWindowSeconds (3 s) after the SYN, not later', () => {
    expect(both([c(100.25, SYN, 100), c(103.25, ACK, 101)])).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED']);
    expect(both([c(100.25, SYN, 100), c(103.3125, ACK, 101)])).toEqual(['CHALLENGE_NEEDED', 'NOT_FOUND']);
    expect(both([c(100.25, SYN, 100), c(103.25, ACK, 101)], { challenge: { answerWindowSeconds: 2 } })).toEqual(['CHALLENGE_NEEDED', 'NOT_FOUND']);
  });

  const rt = { mitigation_type: 'retransmit' as const };

  it('retransmit: the same SYN passes from minGapSeconds (0.5 s) to maxGapSeconds (10 s) after the challenged one', () => {
    expect(both([c(100.25, SYN, 100), c(100.75, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', null]);
    expect(both([c(100.25, SYN, 100), c(100.6875, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
    expect(both([c(100.25, SYN, 100), c(110.25, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', null]);
    expect(both([c(100.25, SYN, 100), c(110.3125, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });

  it('retransmit: a SYN too soon restarts the wait, counted from that SYN', () => {
    expect(both([c(100.25, SYN, 100), c(100.5, SYN, 100), c(100.875, SYN, 100), c(101.375, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', null]);
  });

  it('retransmit: the handshake ACK passes up to maxGapSeconds after the SYN, not later, and never without acceptHandshakeAck', () => {
    expect(both([c(100.25, SYN, 100), c(110.25, ACK, 101)], {}, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED']);
    expect(both([c(100.25, SYN, 100), c(110.25, ACK, 101)], { retransmit: { maxGapSeconds: 9.5 } }, rt)).toEqual(['CHALLENGE_NEEDED', 'NOT_FOUND']);
    expect(both([c(100.25, SYN, 100), c(100.25, ACK, 101)], { retransmit: { acceptHandshakeAck: false } }, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });

  it('an unsolicited SYN-ACK passes when retransmitted between the two gaps, in either mitigation type', () => {
    const sa = (t: number) => c(t, SYN | ACK, 300, { ack: 55 });
    for (const more of [{}, rt]) {
      expect(both([sa(100.25), sa(100.75)], {}, more)).toEqual(['CHALLENGE_NEEDED', null]);
      expect(both([sa(100.25), sa(100.6875)], {}, more)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
      expect(both([sa(100.25), sa(110.25)], {}, more)).toEqual(['CHALLENGE_NEEDED', null]);
    }
  });

  it('an answer carrying data leaves the connection expecting the byte after it (within a tolerance of 1)', () => {
    const exact = { sequenceTolerance: 1 };
    const answered = [c(100.25, SYN, 100), c(100.5, PSH | ACK, 101, { len: 5 })];
    expect(both([...answered, c(100.75, PSH | ACK, 106, { len: 5 })], exact)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', null]);
    expect(both([...answered, c(100.75, PSH | ACK, 108, { len: 5 })], exact)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', 'OUT_OF_SEQUENCE']);
    expect(both([...answered, c(100.75, PSH | ACK, 104, { len: 5 })], exact)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', 'OUT_OF_SEQUENCE']);
  });

  it('retransmit: a packet of the challenged connection in between does not stretch maxGapSeconds', () => {
    expect(both([c(100.25, SYN, 100), c(105, ACK, 777), c(110.5, SYN, 100)], {}, rt)).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });

  it('challenge mode does not take the same SYN again as proof', () => {
    expect(both([c(100.25, SYN, 100), c(101.25, SYN, 100)])).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_NEEDED']);
  });
});

describe('a challenged connection met where SYN protection does not evaluate', () => {
  // SYN protection enabled at one data center and disabled at another; out-of-state protection enabled
  const syn = [rule('enabled', { scope: 'datacenter', name: 'AMS01' }), rule('disabled', { scope: 'datacenter', name: 'FRA02' })];
  const decide = (packets: Pkt[]) => run(AdvancedTcpProtection.fromSnapshot(snapshot({ syn, oos: [rule('enabled')] }), ALWAYS_MITIGATING), packets).seen;

  it('drops the challenge with its entry: the answer goes on to out-of-state protection, which knows no connection', () => {
    const seen = decide([c(1, SYN, 100, { colo: 'ams01' }), c(1.1, ACK, 101, { ack: 5, colo: 'fra02' }), c(1.2, ACK, 101, { ack: 5, colo: 'ams01' })]);
    expect(seen.map((x) => [x.verdict, x.stage, x.reason])).toEqual([
      ['drop', 'syn_protection', 'CHALLENGE_NEEDED'],
      ['drop', 'tcp_flow_protection', 'NOT_FOUND'],
      // the challenge is gone: its answer through the data center that challenged it is no answer now
      ['drop', 'tcp_flow_protection', 'NOT_FOUND'],
    ]);
  });
});
