// Out-of-state protection's checks at their edges (src/atp/out-of-state-protection.ts): the
// sequence tolerance either way, the learning window's end, what each state expects of a packet.
import { describe, expect, it } from 'vitest';
import { c, reasons, s } from './helpers/conversation.js';
import { ACK, FIN, PSH, RST, SYN } from './helpers/traffic.js';

describe('the sequence tolerance', () => {
  const tol = { sequenceTolerance: 10 };
  const open = [c(0, SYN, 100), c(0.1, ACK, 101)];
  const last = (seq: number) => reasons([...open, c(0.2, ACK, seq)], tol).at(-1);

  it('a sequence number up to the tolerance away, either way, is in state; one more is not', () => {
    expect([last(111), last(112), last(91), last(90)]).toEqual([null, 'OUT_OF_SEQUENCE', null, 'OUT_OF_SEQUENCE']);
  });

  it('an acknowledgement number the same, when the protected side is tracked', () => {
    const bidi = { ...tol, bidirectional: true };
    const hello = [c(0, SYN, 100), s(0.05, SYN | ACK, 9000, 101), c(0.1, ACK, 101, { ack: 9001 })];
    const ack = (n: number) => reasons([...hello, c(0.2, ACK, 101, { ack: n })], bidi).at(-1);
    expect([ack(9011), ack(9012), ack(8991), ack(8990)]).toEqual([null, 'OUT_OF_SEQUENCE', null, 'OUT_OF_SEQUENCE']);
  });

  it('an RST the same', () => {
    const rst = (seq: number) => reasons([...open, c(0.2, RST, seq), c(0.3, ACK, 101)], tol).slice(-2);
    expect(rst(111)).toEqual([null, 'ALREADY_CLOSED']);
    expect(rst(112)).toEqual(['OUT_OF_SEQUENCE', null]);
    expect(rst(90)).toEqual(['OUT_OF_SEQUENCE', null]);
  });
});

describe('what each state expects', () => {
  it('New, opened by the client: the handshake ACK exactly at the byte after the SYN', () => {
    expect(reasons([c(0, SYN, 100), c(0.1, ACK, 102)])).toEqual([null, 'OUT_OF_SEQUENCE']);
    expect(reasons([c(0, SYN, 100), c(0.1, ACK, 100)])).toEqual([null, 'OUT_OF_SEQUENCE']);
  });

  it('New, opened by the protected side: nothing from the client before its SYN-ACK', () => {
    const bidi = { bidirectional: true };
    expect(reasons([s(0, SYN, 9000, 0), c(0.1, ACK, 300, { ack: 9001 })], bidi)).toEqual(['UNEXPECTED']);
    expect(reasons([s(0, SYN, 9000, 0), c(0.05, SYN | ACK, 300, { ack: 9001 }), c(0.1, PSH | ACK, 301, { ack: 9001, len: 5 })], bidi)).toEqual([null, null]);
  });

  it('after the sender\'s FIN: a segment sent again up to the FIN is in state, one byte past it is not', () => {
    const fin = [c(0, SYN, 100), c(0.1, ACK, 101), c(0.2, PSH | ACK, 101, { len: 10 }), c(0.3, FIN | ACK, 111)];
    expect(reasons([...fin, c(0.4, PSH | ACK, 101, { len: 11 })]).at(-1)).toBeNull();
    expect(reasons([...fin, c(0.4, PSH | ACK, 101, { len: 12 })]).at(-1)).toBe('UNEXPECTED');
  });

  it('an RST of a connection whose client sequence numbers are unknown passes and closes it', () => {
    const bidi = { bidirectional: true, learningSeconds: 5 };
    // adopted from the protected side's packet: the client's numbers are not known yet
    expect(reasons([s(0, PSH | ACK, 9000, 500, { len: 10 }), c(6, RST, 0x40000000), c(6.1, ACK, 500, { ack: 9010 })], bidi)).toEqual([null, 'ALREADY_CLOSED']);
  });
});

describe('the learning window', () => {
  it('ends at learningSeconds after the first packet: a packet of no connection at that time is judged', () => {
    const packets = [c(0, SYN, 100, { sport: 40009 }), c(5, ACK, 7000)];
    expect(reasons(packets, { learningSeconds: 5 }).at(-1)).toBe('NOT_FOUND');
    expect(reasons([c(0, SYN, 100, { sport: 40009 }), c(4.9375, ACK, 7000)], { learningSeconds: 5 }).at(-1)).toBeNull();
  });

  it('an RST met in it is undecided but adopts nothing', () => {
    expect(reasons([c(0, RST | ACK, 7000), c(6, ACK, 7000)], { learningSeconds: 5 })).toEqual([null, 'NOT_FOUND']);
    expect(reasons([c(0, ACK, 7000), c(6, ACK, 7000)], { learningSeconds: 5 })).toEqual([null, null]);
  });
});
