// Tracking the protected side's own packets (bidirectional: src/atp/egress-tracking.ts), seen
// through what out-of-state protection then decides about the client's packets: the protected
// side's SYN opens an outbound connection, its SYN-ACK gives the acknowledgement number the
// client's handshake ACK must carry, its packets move a connection along but neither a Challenged
// nor a Closed one, and they adopt connections only in the learning window.
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, type AtpOptionsInput } from '../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, rule, snapshot } from './helpers/config.js';
import { ACK, FIN, PSH, RST, SYN, run, type Pkt } from './helpers/traffic.js';

const CLIENT = '198.51.100.7';
const c = (t: number, flags: number, seq: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: CLIENT, dst: SERVER, sport: 40000, dport: 443, flags, seq, ...more });
const s = (t: number, flags: number, seq: number, ack: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: SERVER, dst: CLIENT, sport: 443, dport: 40000, flags, seq, ack, egress: true, ...more });

/** The reasons given to the client's packets (null: passed), the protected side's packets left out (they always pass). */
function reasons(packets: Pkt[], options: AtpOptionsInput = {}, syn: 'disabled' | 'enabled' = 'disabled'): Array<string | null> {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule(syn)], oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, bidirectional: true, ...options });
  const { seen, report } = run(atp, packets);
  expect(report.packets.egress).toBe(packets.filter((p) => p.egress).length);
  return seen.filter((_, i) => !packets[i].egress).map((x) => x.reason);
}

describe('the protected side opening a connection', () => {
  const opened = [s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 })];

  it('its ACK of the SYN-ACK opens it: Open, still known after the New timeout (30 s)', () => {
    expect(reasons([...opened, s(0.1, ACK, 9001, 301), c(40, ACK, 301, { ack: 9001 })])).toEqual([null, null]);
  });

  it('without that ACK it stays New and is forgotten after 30 s idle', () => {
    expect(reasons([...opened, c(40, ACK, 301, { ack: 9001 })])).toEqual([null, 'NOT_FOUND']);
  });

  it('an ACK before the client\'s SYN-ACK does not open it', () => {
    // the client's SYN-ACK is then the first the table hears of the client: New, forgotten after 30 s idle
    expect(reasons([s(0, SYN, 9000, 0), s(0.01, ACK, 9001, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), c(40, ACK, 301, { ack: 9001 })])).toEqual([null, 'NOT_FOUND']);
  });

  it('an ACK before the client\'s SYN-ACK leaves it New: the client\'s ACK without a SYN-ACK is UNEXPECTED', () => {
    expect(reasons([s(0, SYN, 9000, 0), s(0.01, ACK, 9001, 0), c(1, ACK, 300, { ack: 9001 })])).toEqual(['UNEXPECTED']);
  });

  it('a SYN again on a Closed connection (the port reused) opens it anew: the client\'s SYN-ACK to it passes SYN protection', () => {
    const first = [s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), s(0.1, ACK, 9001, 301), c(0.2, RST, 301)];
    expect(reasons([...first, s(1, SYN, 5000, 0), c(1.05, SYN | ACK, 700, { ack: 5001 })], {}, 'enabled')).toEqual([null, null, null]);
  });

  it('its own SYN-ACK on a connection it opened does not replace the ISN of its SYN', () => {
    expect(reasons([s(0, SYN, 9000, 0), s(0.01, SYN | ACK, 5000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 })], {}, 'enabled')).toEqual([null]);
  });

  it('a packet without the ACK flag does not open it', () => {
    expect(reasons([...opened, s(0.1, PSH, 9001, 0, { len: 10 }), c(40, ACK, 301, { ack: 9011 })])).toEqual([null, 'NOT_FOUND']);
  });

  it('a SYN again on a tracked connection starts it over: New, with the new ISN', () => {
    const open = [...opened, s(0.1, ACK, 9001, 301)];
    // the client's SYN-ACK must now acknowledge the second SYN
    expect(reasons([...open, s(1, SYN, 5000, 0), c(1.05, SYN | ACK, 700, { ack: 5001 }), s(1.1, ACK, 5001, 701), c(1.2, ACK, 701, { ack: 5001 })], { sequenceTolerance: 1 })).toEqual([null, null, null]);
  });
});

describe('the protected side answering a client\'s SYN', () => {
  const tight = { sequenceTolerance: 1 };

  it('its SYN-ACK sets the acknowledgement number the handshake ACK must carry', () => {
    const hello = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101)];
    expect(reasons([...hello, c(0.1, ACK, 101, { ack: 9001 })])).toEqual([null, null]);
    expect(reasons([...hello, c(0.1, ACK, 101, { ack: 9002 })])).toEqual([null, 'OUT_OF_SEQUENCE']);
  });

  it('a SYN-ACK sent again on an Open connection does not move the acknowledgement numbers back', () => {
    const open = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 }), s(0.2, PSH | ACK, 9001, 101, { len: 100 })];
    expect(reasons([...open, s(0.3, SYN | ACK, 9000, 101), c(0.4, ACK, 101, { ack: 9101 })], tight)).toEqual([null, null, null]);
  });

  it('its SYN-ACK to a challenged SYN sets the acknowledgement number the client is then held to', () => {
    const packets = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })];
    expect(reasons([...packets, c(0.2, ACK, 101, { ack: 9001 })], tight, 'enabled')).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', null]);
    expect(reasons([...packets, c(0.2, ACK, 101, { ack: 9003 })], tight, 'enabled')).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', 'OUT_OF_SEQUENCE']);
  });

  it('its SYN-ACK to a SYN the table never held opens nothing: the client\'s ACK is NOT_FOUND', () => {
    // the client's SYN came before the capture (no learning window here)
    expect(reasons([s(0, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })])).toEqual(['NOT_FOUND']);
    // the client's SYN found the table full (maxFlows 1, another connection in it)
    const other = c(0, SYN, 50, { sport: 40001 });
    expect(reasons([other, c(0.01, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })], { maxFlows: 1 })).toEqual([null, null, 'NOT_FOUND']);
  });

  it('its ACK before the client\'s handshake ACK does not open the connection: the handshake ACK is still checked exactly', () => {
    const hello = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), s(0.06, ACK, 9001, 101)];
    // Open would allow sequenceTolerance (64 MiB) of difference; New wants the exact next number
    expect(reasons([...hello, c(0.1, ACK, 1101, { ack: 9001 })])).toEqual([null, 'OUT_OF_SEQUENCE']);
  });
});

describe('what the protected side\'s packets leave alone', () => {
  it('a Closed connection: its packets do not keep it remembered past timeouts.closedSeconds', () => {
    const closed = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 }), c(0.2, RST, 101)];
    // Closed at 0.2, remembered 10 s: the server's packet at 9 s does not stretch that
    expect(reasons([...closed, s(9, ACK, 9001, 101), c(15, ACK, 101, { ack: 9001 })])).toEqual([null, null, null, 'NOT_FOUND']);
    expect(reasons([...closed, s(9, ACK, 9001, 101), c(9.5, ACK, 101, { ack: 9001 })])).toEqual([null, null, null, 'ALREADY_CLOSED']);
  });

  it('a Challenged connection: its packets do not move it along', () => {
    // the client's SYN is challenged; the server's packets cannot answer the challenge for it
    const packets = [c(0, SYN, 100), s(0.05, ACK, 9001, 101), s(0.06, FIN | ACK, 9001, 101), c(0.1, ACK, 101)];
    expect(reasons(packets, {}, 'enabled')).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED']);
    // nor give it the protected side's sequence numbers: the client's acknowledgement numbers stay unchecked
    // (had the server's ACK and FIN been tracked, an ack 2^30 past them would be OUT_OF_SEQUENCE)
    expect(reasons([...packets, c(0.2, ACK, 101, { ack: 0x40000000 })], {}, 'enabled')).toEqual(['CHALLENGE_NEEDED', 'CHALLENGE_PASSED', null]);
  });
});

describe('a connection met mid-stream through the protected side\'s packets', () => {
  const learning = { learningSeconds: 5 };
  const later = c(6, ACK, 500, { ack: 9100 });

  it('is adopted in the learning window', () => {
    expect(reasons([s(0, PSH | ACK, 9000, 500, { len: 100 }), later], learning)).toEqual([null]);
  });

  it('not from an RST, not after the learning window, not without adoptMidConnection', () => {
    expect(reasons([s(0, RST | ACK, 9000, 500), later], learning)).toEqual(['NOT_FOUND']);
    // the learning window counts from the capture's first packet (here another connection's)
    expect(reasons([s(0, ACK, 1, 1, { dport: 40009 }), s(5, PSH | ACK, 9000, 500, { len: 100 }), later], learning)).toEqual(['NOT_FOUND']);
    expect(reasons([s(0, PSH | ACK, 9000, 500, { len: 100 }), later], { ...learning, adoptMidConnection: false })).toEqual(['NOT_FOUND']);
  });

  it('the protected side\'s SYN with the table full opens nothing', () => {
    const packets = [s(0, SYN, 9000, 0, { dport: 40001 }), s(0.01, SYN, 5000, 0), c(0.05, SYN | ACK, 300, { ack: 5001 }), s(0.1, ACK, 5001, 301), c(0.2, ACK, 301, { ack: 5001 })];
    // the second SYN found no room: the client's SYN-ACK is unsolicited and its ACK of no connection
    expect(reasons(packets, { maxFlows: 1 })).toEqual([null, 'NOT_FOUND']);
  });
});
