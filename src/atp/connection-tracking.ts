// The step of connection tracking that is the same whichever end sent the packet: once a packet
// is known to fit its connection, the sender's next expected sequence number moves forward (never
// back: sequence numbers compare modulo 2^32), a FIN marks the sender's half closed and moves an
// Open connection to Closing, the last ACK after both FINs closes it, and an RST closes it at once.
// Out-of-state protection runs it for the remote side (ingress packets); bidirectional tracking
// runs it for the protected side (egress packets). The same goes for picking up a connection met
// mid-stream during the learning window. What differs between the sides — which packets are
// judged, how a handshake opens — stays with the caller.
import type { PacketRecord } from '../capture/record.js';
import { TcpFlag } from '../capture/record.js';
import { Flag, Side, State, type FlowTable } from './flow-table.js';

/** `[side]`: the flag saying that side's sequence numbers are known, and the flag of its FIN. */
const SEQ_KNOWN = [Flag.REMOTE_SEQ, Flag.LOCAL_SEQ];
const FIN_SENT = [Flag.REMOTE_FIN, Flag.LOCAL_FIN];
const BOTH_FINS = Flag.REMOTE_FIN | Flag.LOCAL_FIN;

// The sequence number after the packet: its payload, plus one for a FIN.
function segmentEnd(rec: PacketRecord): number {
  return (rec.tcpSeq + rec.payloadLen + ((rec.tcpFlags & TcpFlag.FIN) !== 0 ? 1 : 0)) >>> 0;
}

/**
 * Starts tracking the packet's connection (key set on the table) as already established — Open, or
 * Closing when the packet carries a FIN — with `side`'s sequence numbers taken from the packet.
 * Returns the slot, or -1 when the table is full.
 */
export function adoptConnection(tb: FlowTable, rec: PacketRecord, t: number, side: number): number {
  const fin = (rec.tcpFlags & TcpFlag.FIN) !== 0;
  const slot = tb.insert(t, fin ? State.CLOSING : State.OPEN);
  if (slot < 0) return -1;
  tb.setFlags(slot, Flag.ADOPTED | SEQ_KNOWN[side] | (fin ? FIN_SENT[side] : 0));
  tb.setSeq(slot, side, rec.tcpSeq, segmentEnd(rec));
  return slot;
}

/**
 * Moves the connection in `slot` along for an in-state, non-SYN packet from `side` at time `t`;
 * `opens`: the packet completes the handshake (a New connection becomes Open).
 */
export function advanceConnection(tb: FlowTable, slot: number, rec: PacketRecord, t: number, side: number, opens: boolean): void {
  let fl = tb.flags(slot);
  if ((rec.tcpFlags & TcpFlag.RST) !== 0) {
    tb.update(slot, State.CLOSED, fl, t);
    return;
  }
  const fin = (rec.tcpFlags & TcpFlag.FIN) !== 0;
  const end = segmentEnd(rec);
  if ((fl & SEQ_KNOWN[side]) === 0) {
    fl |= SEQ_KNOWN[side];
    tb.setNext(slot, side, end);
  } else if (((end - tb.next(slot, side)) | 0) > 0) tb.setNext(slot, side, end);
  let st = tb.state(slot);
  if (st === State.NEW && opens) st = State.OPEN;
  if (fin) {
    fl |= FIN_SENT[side];
    if (st === State.OPEN) st = State.CLOSING;
  } else if (st === State.CLOSING && (fl & BOTH_FINS) === BOTH_FINS && rec.payloadLen === 0) st = State.CLOSED;
  tb.update(slot, st, fl, t);
}
