// The connection table against the table it replaced (helpers/slot-flow-table.ts, whose 80-byte
// entries sat in the slots themselves): random sequences of the operations ATP makes — find, insert,
// state moves, removal — over pools of IPv4 and IPv6 keys, with time running so entries expire,
// through growth (of the index, and of the entries past their first few thousand), sweeps, a full
// table and reuse of expired slots. After every operation both tables must give the same answers
// and the same figures ATP reports (live count, peak, created, untracked): the layout of keys in
// slots, which decides those figures, is unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Flag, FlowTable, State } from '../../src/atp/flow-table.js';
import { PacketRecord } from '../../src/capture/record.js';
import { connectionKey } from './helpers/connection-keys.js';
import { SlotFlowTable } from './helpers/slot-flow-table.js';

const TIMEOUTS = new Float64Array([0, 3, 30, 600, 30, 10, 10]);

const op = fc.record({
  key: fc.noBias(fc.nat()),
  ingress: fc.constantFrom(true, true, true, false),
  dt: fc.constantFrom(0, 0, 0.001, 0.01, 0.1, 1, 4, 12),
  action: fc.nat(5),
  state: fc.constantFrom(State.CHALLENGED, State.NEW, State.OPEN, State.CLOSING, State.CLOSED),
  flags: fc.constantFrom(0, Flag.VALIDATED, Flag.AWAIT_RETRANSMIT | Flag.REMOTE_SEQ, Flag.LOCAL_INITIATED | Flag.LOCAL_SEQ),
  seq: fc.nat(),
});

function same(a: FlowTable, b: SlotFlowTable, ea: number, eb: number, where: string): void {
  expect(ea < 0, where).toBe(eb < 0);
  expect([a.count, a.peak, a.created, a.untracked, a.slots], where).toEqual([b.count, b.peak, b.created, b.untracked, b.slots]);
  if (ea < 0) return;
  const got = [a.state(ea), a.flags(ea), a.lastSeen(ea), a.since(ea), a.remoteIsn(ea), a.remoteNext(ea), a.localNext(ea), a.next(ea, 0), a.next(ea, 1)];
  const want = [b.state(eb), b.flags(eb), b.lastSeen(eb), b.since(eb), b.remoteIsn(eb), b.remoteNext(eb), b.localNext(eb), b.next(eb, 0), b.next(eb, 1)];
  expect(got, where).toEqual(want);
}

describe('FlowTable against the slot table it replaced', () => {
  it('answers every operation the same and reports the same figures', () => {
    fc.assert(
      fc.property(fc.constantFrom(40, 600, 2500, 6000), fc.array(op, { minLength: 500, maxLength: 12_000, size: 'max' }), (maxFlows, ops) => {
        const a = new FlowTable(maxFlows, TIMEOUTS);
        const b = new SlotFlowTable(maxFlows, TIMEOUTS);
        const rec = new PacketRecord();
        const pool = Math.round(maxFlows * 1.6);
        let t = 0;
        ops.forEach((o, n) => {
          t += o.dt;
          connectionKey(rec, o.key % pool);
          a.setKey(rec, o.ingress);
          b.setKey(rec, o.ingress);
          const where = `op ${n} at ${t}`;
          if (o.action === 5) {
            same(a, b, a.peek(), b.peek(), `${where} peek`);
            return;
          }
          let ea = a.find(t);
          let eb = b.find(t);
          same(a, b, ea, eb, `${where} find`);
          if (ea < 0) {
            ea = a.insert(t, o.state);
            eb = b.insert(t, o.state);
            same(a, b, ea, eb, `${where} insert`);
            if (ea >= 0 && o.action % 2 === 0) {
              a.enter(ea, o.state, o.flags, t);
              b.enter(eb, o.state, o.flags, t);
            }
          } else if (o.action === 0) {
            a.remove(ea);
            b.remove(eb);
            ea = eb = -1;
          } else if (o.action === 1) {
            a.update(ea, o.state, o.flags, t);
            b.update(eb, o.state, o.flags, t);
          } else if (o.action === 2) {
            a.setRemoteSeq(ea, o.seq, o.seq + 1);
            b.setRemoteSeq(eb, o.seq, o.seq + 1);
            a.setLastSeen(ea, t);
            b.setLastSeen(eb, t);
          } else if (o.action === 3) {
            a.setSeq(ea, 1, o.seq, o.seq + 2);
            b.setSeq(eb, 1, o.seq, o.seq + 2);
            a.setFlags(ea, o.flags);
            b.setFlags(eb, o.flags);
          } else {
            a.enter(ea, o.state, o.flags, t);
            b.enter(eb, o.state, o.flags, t);
          }
          same(a, b, ea, eb, `${where} action ${o.action}`);
        });
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
