// SYN-flood protection: SYN and SYN-ACK packets (new connection initiations). Below the threshold
// they pass and open a New connection; above it they are challenged — not forwarded, reason
// CHALLENGE_NEEDED — and the connection waits in the Challenged state for proof that a real TCP
// stack sent it. Spoofed sources never give that proof, so a randomised flood never passes.
//
// The proof, by mitigation type (the vendor names the types but does not describe them; this is the
// model documented in README.md):
// - challenge (SYN cookie): the challenge SYN-ACK is not in an ingress capture, so the client's answer
//   is modelled as its handshake ACK for that connection (sequence = challenged ISN + 1) within
//   `challenge.answerWindowSeconds`. That ACK is consumed by the challenge (dropped, reason
//   CHALLENGE_PASSED: "belongs to a solved challenge") and the connection is validated: from then on
//   it is Open and its later SYNs pass.
// - retransmit: the same SYN again after `minGapSeconds` and within `maxGapSeconds` passes and
//   validates the connection. A capture cannot contain the retransmission that dropping its SYN would
//   have caused, so with `acceptHandshakeAck` the handshake ACK counts as that proof (as above).
// A SYN-ACK cannot be answered with a cookie, so a challenged SYN-ACK always needs a retransmission.
//
// Monitoring mode goes through exactly the same states (the "would" world), so its notes name the
// same packets that enabled mode drops. A challenged connection's packets are the SYN component's
// while it evaluates them; in a mode that does not, the challenge is dropped with its entry and the
// packet goes on to out-of-state protection.
import type { PacketRecord } from '../capture/record.js';
import { TcpFlag } from '../capture/record.js';
import { evaluates, PASSED_ON, type AtpComponent, type ComponentModule, type RecordField } from './atp-component.js';
import type { ComponentModes } from './component-modes.js';
import { Flag, State, type FlowTable } from './flow-table.js';
import type { AtpOptions } from './options.js';
import { ComponentCounters } from './report.js';
import { Reason } from './vocabulary.js';
import { componentSpec } from '../protection-components.js';

const INVALID_WITH_SYN = TcpFlag.RST | TcpFlag.FIN;
const ANSWER_MASK = TcpFlag.SYN | TcpFlag.ACK | TcpFlag.RST | TcpFlag.FIN;

export class SynProtection implements AtpComponent {
  readonly reads: readonly RecordField[] = ['tcpFlags', 'tcpSeq', 'tcpAck', 'payloadLen'];
  readonly counters = new ComponentCounters();
  readonly undecided = false;

  constructor(
    readonly stage: number,
    readonly modes: ComponentModes,
    private readonly table: FlowTable,
    private readonly options: AtpOptions,
  ) {}

  /** SYNs and SYN-ACKs, and any packet of a Challenged connection */
  takes(rec: PacketRecord, slot: number): boolean {
    return (rec.tcpFlags & TcpFlag.SYN) !== 0 || (slot >= 0 && this.table.state(slot) === State.CHALLENGED);
  }

  inspect(rec: PacketRecord, t: number, slot: number, mode: number): number {
    const evaluating = evaluates(mode);
    if ((rec.tcpFlags & TcpFlag.SYN) !== 0) return this.initiation(rec, t, slot, evaluating);
    if (evaluating) return this.answer(rec, t, slot);
    this.table.remove(slot);
    return PASSED_ON;
  }

  // Decides an ingress SYN or SYN-ACK of the connection in `slot` (-1: none); returns a reason code (0: pass).
  private initiation(rec: PacketRecord, t: number, slot: number, evaluating: boolean): number {
    const tb = this.table;
    const flags = rec.tcpFlags;
    const seq = rec.tcpSeq;
    const synAck = (flags & TcpFlag.ACK) !== 0;
    const mitigating = evaluating && this.modes.meter.count(t);
    if ((flags & INVALID_WITH_SYN) !== 0) return mitigating ? Reason.UNEXPECTED : Reason.NONE;
    if (slot >= 0) {
      const st = tb.state(slot);
      const fl = tb.flags(slot);
      const sameKind = ((fl & Flag.LOCAL_INITIATED) !== 0) === synAck;
      if (st === State.CHALLENGED) {
        const gap = t - tb.since(slot);
        const r = this.options.retransmit;
        if (tb.remoteIsn(slot) === seq && sameKind && (synAck || this.modes.retransmit) && gap >= r.minGapSeconds && gap <= r.maxGapSeconds) {
          this.open(slot, t, seq, synAck, Flag.VALIDATED);
          return Reason.NONE;
        }
      } else if ((fl & Flag.VALIDATED) !== 0 && sameKind) {
        this.open(slot, t, seq, synAck, Flag.VALIDATED);
        return Reason.NONE;
      } else if ((fl & Flag.REMOTE_SEQ) !== 0 && tb.remoteIsn(slot) === seq && sameKind && st !== State.CLOSED) {
        tb.setLastSeen(slot, t);
        return Reason.NONE;
      } else if (synAck && st === State.NEW && (fl & Flag.LOCAL_SEQ) !== 0 && (fl & Flag.REMOTE_SEQ) === 0 && rec.tcpAck === tb.localNext(slot)) {
        tb.setFlags(slot, fl | Flag.REMOTE_SEQ);
        tb.setRemoteSeq(slot, seq, (seq + 1) >>> 0);
        tb.setLastSeen(slot, t);
        return Reason.NONE;
      }
    }
    if (slot < 0) slot = tb.insert(t, State.NEW);
    if (mitigating) {
      if (slot >= 0) {
        const waits = synAck || this.modes.retransmit ? Flag.AWAIT_RETRANSMIT : 0;
        tb.enter(slot, State.CHALLENGED, Flag.REMOTE_SEQ | waits | (synAck ? Flag.LOCAL_INITIATED | Flag.SYNACK : 0), t);
        tb.setRemoteSeq(slot, seq, (seq + 1) >>> 0);
      }
      return Reason.CHALLENGE_NEEDED;
    }
    if (slot >= 0) this.open(slot, t, seq, synAck, 0);
    return Reason.NONE;
  }

  private open(slot: number, t: number, seq: number, synAck: boolean, keep: number): void {
    const tb = this.table;
    tb.enter(slot, State.NEW, (tb.flags(slot) & keep) | Flag.REMOTE_SEQ | (synAck ? Flag.LOCAL_INITIATED : 0), t);
    tb.setRemoteSeq(slot, seq, (seq + 1) >>> 0);
  }

  // Decides a non-SYN packet of a Challenged connection: the client's answer (CHALLENGE_PASSED, the
  // connection is validated and Open) or anything else (CHALLENGE_NEEDED: its SYN never got through).
  private answer(rec: PacketRecord, t: number, slot: number): number {
    const tb = this.table;
    const o = this.options;
    const window = this.modes.retransmit ? (o.retransmit.acceptHandshakeAck ? o.retransmit.maxGapSeconds : -1) : o.challenge.answerWindowSeconds;
    const fl = tb.flags(slot);
    const isAnswer = (rec.tcpFlags & ANSWER_MASK) === TcpFlag.ACK && (fl & Flag.SYNACK) === 0 && rec.tcpSeq === tb.remoteNext(slot) && t - tb.since(slot) <= window;
    if (!isAnswer) return Reason.CHALLENGE_NEEDED;
    tb.enter(slot, State.OPEN, (fl & ~Flag.AWAIT_RETRANSMIT) | Flag.VALIDATED, t);
    tb.setRemoteNext(slot, (rec.tcpSeq + rec.payloadLen) >>> 0);
    return Reason.CHALLENGE_PASSED;
  }
}

/** SYN-flood protection as the engine's list holds it (components.ts). */
export const SYN_FLOOD_PROTECTION: ComponentModule = {
  spec: componentSpec('syn_protection'),
  create: (stage, modes, table, options) => new SynProtection(stage, modes, table, options),
};
