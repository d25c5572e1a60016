// The tracking step shared by both ends (src/atp/connection-tracking.ts), seen through what
// out-of-state protection decides about the client's next packets: where the expected sequence
// number lands after a segment (its payload, plus one for a FIN; never back), when a connection is
// Closing and when it is Closed, and what a connection adopted mid-stream starts from. A small
// sequenceTolerance makes the expected sequence number visible: a packet more than the tolerance
// away from it is OUT_OF_SEQUENCE.
import { describe, expect, it } from 'vitest';
import { c, reasons, s } from './helpers/conversation.js';
import { ACK, FIN, PSH, RST, SYN } from './helpers/traffic.js';

const TIGHT = { sequenceTolerance: 1 };

describe('the expected sequence number', () => {
  const open = [c(0, SYN, 100), c(0.1, ACK, 101)];

  it('moves to the end of a segment: its payload', () => {
    const data = [...open, c(0.2, PSH | ACK, 101, { len: 10 })];
    expect(reasons([...data, c(0.3, ACK, 111)], TIGHT).at(-1)).toBeNull();
    expect(reasons([...data, c(0.3, ACK, 113)], TIGHT).at(-1)).toBe('OUT_OF_SEQUENCE');
    expect(reasons([...data, c(0.3, ACK, 109)], TIGHT).at(-1)).toBe('OUT_OF_SEQUENCE');
  });

  it('a FIN counts one more', () => {
    const fin = [...open, c(0.2, FIN | ACK, 101)];
    // after the FIN the next is 102: 103 is within 1 of it, 100 is not
    expect(reasons([...fin, c(0.3, ACK, 103)], TIGHT).at(-1)).toBeNull();
    expect(reasons([...fin, c(0.3, ACK, 100)], TIGHT).at(-1)).toBe('OUT_OF_SEQUENCE');
  });

  it('never moves back: a retransmitted older segment leaves it where it was', () => {
    const tol = { sequenceTolerance: 10 };
    // next is 141 after the data; the segment sent again at 135 ends at 136, behind it
    const packets = [...open, c(0.2, PSH | ACK, 101, { len: 40 }), c(0.3, PSH | ACK, 135, { len: 1 }), c(0.4, ACK, 150)];
    expect(reasons(packets, tol)).toEqual([null, null, null, null, null]);
    // 150 is 9 past 141 but 14 past 136, where a step back would have left it
  });

  it('moves forward across 2^32 (sequence numbers compare modulo 2^32)', () => {
    const isn = 0xfffffff0;
    const packets = [c(0, SYN, isn), c(0.1, ACK, isn + 1), c(0.2, PSH | ACK, isn + 1, { len: 100 }), c(0.3, ACK, (isn + 101) >>> 0)];
    expect(reasons(packets, TIGHT)).toEqual([null, null, null, null]);
    // the end of the segment is past 2^32: a packet at the start again is far behind it
    expect(reasons([...packets.slice(0, 3), c(0.3, ACK, (isn + 1) >>> 0)], TIGHT).at(-1)).toBe('OUT_OF_SEQUENCE');
  });
});

describe('closing a connection', () => {
  const bidi = { bidirectional: true };
  const hello = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })];

  it('one FIN makes it Closing, not Closed: the sender\'s later ACKs are in state until it times out', () => {
    const packets = [...hello, c(0.2, FIN | ACK, 101, { ack: 9001 }), c(0.3, ACK, 102, { ack: 9001 }), c(0.4, ACK, 102, { ack: 9001 })];
    expect(reasons(packets, bidi)).toEqual([null, null, null, null, null]);
    // Closing times out after timeouts.closingSeconds (30 s) idle and is then remembered as Closed
    expect(reasons([...packets, c(31, ACK, 102, { ack: 9001 })], bidi).at(-1)).toBe('ALREADY_CLOSED');
    // an Open connection is still in state after the same idle time
    expect(reasons([...hello, c(31, ACK, 101, { ack: 9001 })], bidi).at(-1)).toBeNull();
  });

  it('after both FINs, the last ACK closes it; a retransmitted data segment does not', () => {
    const fins = [...hello, c(0.2, PSH | ACK, 101, { ack: 9001, len: 10 }), c(0.3, FIN | ACK, 111, { ack: 9001 }), s(0.35, FIN | ACK, 9001, 112)];
    // the data segment sent again after both FINs: the connection stays Closing, so the last ACK is in state
    expect(reasons([...fins, c(0.4, PSH | ACK, 101, { ack: 9002, len: 10 }), c(0.5, ACK, 112, { ack: 9002 })], bidi).slice(-2)).toEqual([null, null]);
    // the last ACK closes it: the next packet is ALREADY_CLOSED
    expect(reasons([...fins, c(0.4, ACK, 112, { ack: 9002 }), c(0.5, ACK, 112, { ack: 9002 })], bidi).slice(-2)).toEqual([null, 'ALREADY_CLOSED']);
  });

  it('the protected side\'s FIN first, then the client\'s FIN and last ACK, close it too', () => {
    const packets = [...hello, s(0.2, FIN | ACK, 9001, 101), c(0.3, FIN | ACK, 101, { ack: 9002 }), c(0.4, ACK, 102, { ack: 9002 }), c(0.5, ACK, 102, { ack: 9002 })];
    // the client's FIN itself does not close it (the FIN is not the last ACK): its last ACK does
    expect(reasons(packets, bidi)).toEqual([null, null, null, null, 'ALREADY_CLOSED']);
  });

  it('an RST closes it at once', () => {
    expect(reasons([...hello, c(0.2, RST, 101), c(0.3, ACK, 101, { ack: 9001 })], bidi).slice(-2)).toEqual([null, 'ALREADY_CLOSED']);
  });
});

describe('a connection adopted mid-stream (learning window)', () => {
  const learning = { ...TIGHT, learningSeconds: 5 };

  it('is Open, expecting the end of the packet it was adopted from', () => {
    const first = c(0, PSH | ACK, 7000, { len: 100 });
    expect(reasons([first, c(6, ACK, 7100)], learning)).toEqual([null, null]);
    expect(reasons([first, c(6, ACK, 7102)], learning).at(-1)).toBe('OUT_OF_SEQUENCE');
    // Open: still in state after the Closing timeout (30 s)
    expect(reasons([first, c(40, ACK, 7100)], learning).at(-1)).toBeNull();
  });

  it('from a FIN: Closing, the FIN counted in its sequence numbers and as the sender\'s FIN', () => {
    const fin = c(0, FIN | ACK, 7000);
    expect(reasons([fin, c(6, ACK, 7002)], learning)).toEqual([null, null]);
    expect(reasons([fin, c(6, ACK, 6999)], learning).at(-1)).toBe('OUT_OF_SEQUENCE');
    // data past the sender's FIN
    expect(reasons([fin, c(6, PSH | ACK, 7001, { len: 10 })], learning).at(-1)).toBe('UNEXPECTED');
    // Closing times out after 30 s idle into Closed
    expect(reasons([fin, c(35, ACK, 7001)], learning).at(-1)).toBe('ALREADY_CLOSED');
  });

  it('from the protected side\'s packet: the client\'s packets are checked against its acknowledgement', () => {
    const server = s(0, PSH | ACK, 9000, 500, { len: 100 });
    const opts = { ...learning, bidirectional: true };
    // the server's next is 9100; a client ACK of 9100 fits, one of 9300 acknowledges data never sent
    expect(reasons([server, c(6, ACK, 500, { ack: 9100 })], opts)).toEqual([null]);
    expect(reasons([server, c(6, ACK, 500, { ack: 9300 })], opts)).toEqual(['OUT_OF_SEQUENCE']);
    // its FIN: Closing, timed out into Closed
    expect(reasons([s(0, FIN | ACK, 9000, 500), c(35, ACK, 500, { ack: 9001 })], opts)).toEqual(['ALREADY_CLOSED']);
    expect(reasons([server, c(35, ACK, 500, { ack: 9100 })], opts)).toEqual([null]);
  });

  it('adopted from the protected side: the client\'s first packet after it sets the client\'s expected sequence number', () => {
    const opts = { ...learning, bidirectional: true };
    const first = [s(0, PSH | ACK, 9000, 500, { len: 100 }), c(6, PSH | ACK, 500, { ack: 9100, len: 20 })];
    expect(reasons([...first, c(6.1, ACK, 520, { ack: 9100 })], opts)).toEqual([null, null]);
    expect(reasons([...first, c(6.1, ACK, 525, { ack: 9100 })], opts)).toEqual([null, 'OUT_OF_SEQUENCE']);
  });

  it('with the table full, a connection met mid-stream is not adopted (later: NOT_FOUND)', () => {
    const packets = [c(0, ACK, 7000), c(0.1, ACK, 8000, { sport: 40001 }), c(6, ACK, 7000), c(6.1, ACK, 8000, { sport: 40001 })];
    expect(reasons(packets, { ...learning, maxFlows: 1 })).toEqual([null, null, null, 'NOT_FOUND']);
  });
});

describe('a FIN before the handshake completes', () => {
  it('the protected side\'s FIN on a New connection does not make it Closing: the handshake ACK still opens it', () => {
    const packets = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), s(0.06, FIN | ACK, 9001, 101), c(0.1, ACK, 101, { ack: 9002 })];
    // Open: in state after 40 s idle, where a Closing connection would have timed out into Closed
    expect(reasons([...packets, c(40, ACK, 101, { ack: 9002 })], { bidirectional: true })).toEqual([null, null, null]);
  });
});
