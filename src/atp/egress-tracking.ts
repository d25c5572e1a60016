// With `bidirectional` on, the protected side's own packets (source in a protected prefix) update
// the connection table too, so ATP knows the server's sequence numbers and its FINs, and can check
// the acknowledgement numbers of ingress packets and see a connection close completely. These
// packets are never mitigated (ATP protects ingress) and never create connections outside the
// learning window, except the protected side's own SYN, which opens an outbound connection (its
// SYN-ACK from the remote side is then in state). Past the SYN, a packet moves its connection along
// with the tracking step shared with ingress (connection-tracking.ts).
import type { PacketRecord } from '../capture/record.js';
import { TcpFlag } from '../capture/record.js';
import type { RecordField } from './atp-component.js';
import { adoptConnection, advanceConnection } from './connection-tracking.js';
import { Flag, Side, State, type FlowTable } from './flow-table.js';
import type { AtpOptions } from './options.js';

export class EgressTracking {
  /** the record's fields it reads beyond ENGINE_READS (as AtpComponent.reads) */
  readonly reads: readonly RecordField[] = ['tcpFlags', 'tcpSeq', 'payloadLen'];
  packets = 0;

  constructor(
    private readonly table: FlowTable,
    private readonly options: AtpOptions,
  ) {}

  track(rec: PacketRecord, t: number): void {
    const tb = this.table;
    const flags = rec.tcpFlags;
    const seq = rec.tcpSeq;
    this.packets++;
    tb.setKey(rec, false);
    let slot = tb.find(t);
    if ((flags & TcpFlag.SYN) !== 0) {
      if ((flags & TcpFlag.ACK) === 0) {
        if (slot < 0) slot = tb.insert(t, State.NEW);
        if (slot < 0) return;
        tb.enter(slot, State.NEW, Flag.LOCAL_INITIATED | Flag.LOCAL_SEQ, t);
        tb.setLocalSeq(slot, seq, (seq + 1) >>> 0);
      } else if (slot >= 0 && (tb.flags(slot) & Flag.LOCAL_INITIATED) === 0 && (tb.state(slot) === State.NEW || tb.state(slot) === State.CHALLENGED)) {
        tb.setFlags(slot, tb.flags(slot) | Flag.LOCAL_SEQ);
        tb.setLocalSeq(slot, seq, (seq + 1) >>> 0);
      }
      return;
    }
    if (slot < 0) {
      if (t < this.options.learningSeconds && this.options.adoptMidConnection && (flags & TcpFlag.RST) === 0) adoptConnection(tb, rec, t, Side.LOCAL);
      return;
    }
    const st = tb.state(slot);
    if (st === State.CHALLENGED || st === State.CLOSED) return;
    const fl = tb.flags(slot);
    const opens = (fl & Flag.LOCAL_INITIATED) !== 0 && (fl & Flag.REMOTE_SEQ) !== 0 && (flags & TcpFlag.ACK) !== 0;
    advanceConnection(tb, slot, rec, t, Side.LOCAL, opens);
  }
}
