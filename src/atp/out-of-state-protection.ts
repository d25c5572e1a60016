// Out-of-state TCP protection: every ingress TCP packet that is not a SYN or SYN-ACK. A packet that
// fits its tracked connection passes and moves it along (New -> Open on the handshake ACK, Closing
// on a FIN, Closed on an RST or once both FINs are acknowledged). A packet that does not fit is out
// of state, with the vendor's reasons: NOT_FOUND (no tracked connection), UNEXPECTED (flags the
// state does not expect: no ACK flag, data after the sender's FIN, an ACK before the SYN-ACK),
// OUT_OF_SEQUENCE (sequence or, when the protected side is tracked too, acknowledgement numbers
// too far from the connection's), ALREADY_CLOSED. Out-of-state packets are counted on the
// component's meter and dropped only while it is above its threshold ("packets below the threshold
// will not be evaluated"); below it they pass without changing any state.
//
// A capture that starts mid-connection shows established connections without their handshakes:
// during the learning window such packets are undecided — they pass, are flagged as undecided, and
// (with `adoptMidConnection`) start tracking the connection as Open, so it is known when an attack
// comes later. Moving a connection along is the tracking step shared with the protected side
// (connection-tracking.ts).
import type { PacketRecord } from '../capture/record.js';
import { TcpFlag } from '../capture/record.js';
import { evaluates, type AtpComponent, type ComponentModule, type RecordField } from './atp-component.js';
import type { ComponentModes } from './component-modes.js';
import { adoptConnection, advanceConnection } from './connection-tracking.js';
import { Flag, Side, State, type FlowTable } from './flow-table.js';
import type { AtpOptions } from './options.js';
import { ComponentCounters } from './report.js';
import { Reason } from './vocabulary.js';
import { componentSpec } from '../protection-components.js';

export class OutOfStateProtection implements AtpComponent {
  readonly reads: readonly RecordField[] = ['tcpFlags', 'tcpSeq', 'tcpAck', 'payloadLen'];
  readonly counters = new ComponentCounters();
  undecided = false;
  private readonly tolerance: number;

  constructor(
    readonly stage: number,
    readonly modes: ComponentModes,
    private readonly table: FlowTable,
    private readonly options: AtpOptions,
  ) {
    this.tolerance = options.sequenceTolerance;
  }

  private near(value: number, expected: number): boolean {
    const d = (value - expected) | 0;
    return d <= this.tolerance && d >= -this.tolerance;
  }

  /** every TCP packet the SYN component did not take */
  takes(): boolean {
    return true;
  }

  /** Decides an ingress non-SYN TCP packet of the connection in `slot` (-1: none); returns a reason code (0: pass). */
  inspect(rec: PacketRecord, t: number, slot: number, mode: number): number {
    const evaluating = evaluates(mode);
    this.undecided = false;
    let reason: number;
    if (slot < 0) {
      if (t < this.options.learningSeconds) {
        this.undecided = true;
        if (this.options.adoptMidConnection && (rec.tcpFlags & TcpFlag.RST) === 0) adoptConnection(this.table, rec, t, Side.REMOTE);
        return Reason.NONE;
      }
      reason = Reason.NOT_FOUND;
    } else reason = this.check(rec, slot);
    if (reason !== Reason.NONE) return evaluating && this.modes.meter.count(t) ? reason : Reason.NONE;
    advanceConnection(this.table, slot, rec, t, Side.REMOTE, true);
    return Reason.NONE;
  }

  private check(rec: PacketRecord, slot: number): number {
    const tb = this.table;
    const st = tb.state(slot);
    const fl = tb.flags(slot);
    const flags = rec.tcpFlags;
    const seq = rec.tcpSeq;
    if (st === State.CLOSED) return Reason.ALREADY_CLOSED;
    if ((flags & TcpFlag.RST) !== 0) return (fl & Flag.REMOTE_SEQ) === 0 || this.near(seq, tb.remoteNext(slot)) ? Reason.NONE : Reason.OUT_OF_SEQUENCE;
    if ((flags & TcpFlag.ACK) === 0) return Reason.UNEXPECTED;
    if (st === State.NEW) {
      if ((fl & Flag.LOCAL_INITIATED) !== 0) {
        if ((fl & Flag.REMOTE_SEQ) === 0) return Reason.UNEXPECTED;
      } else {
        if (seq !== tb.remoteNext(slot)) return Reason.OUT_OF_SEQUENCE;
        if ((fl & Flag.LOCAL_SEQ) !== 0 && rec.tcpAck !== tb.localNext(slot)) return Reason.OUT_OF_SEQUENCE;
        return Reason.NONE;
      }
    }
    if ((fl & Flag.REMOTE_SEQ) !== 0 && !this.near(seq, tb.remoteNext(slot))) return Reason.OUT_OF_SEQUENCE;
    if ((fl & Flag.LOCAL_SEQ) !== 0 && !this.near(rec.tcpAck, tb.localNext(slot))) return Reason.OUT_OF_SEQUENCE;
    if ((fl & Flag.REMOTE_FIN) !== 0 && rec.payloadLen > 0 && ((seq + rec.payloadLen - tb.remoteNext(slot)) | 0) > 0) return Reason.UNEXPECTED;
    return Reason.NONE;
  }
}

/** Out-of-state TCP protection as the engine's list holds it (components.ts). */
export const OUT_OF_STATE_PROTECTION: ComponentModule = {
  spec: componentSpec('tcp_flow_protection'),
  create: (stage, modes, table, options) => new OutOfStateProtection(stage, modes, table, options),
};
