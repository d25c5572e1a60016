// The connection table against a plain Map model: same entries found, same expiry (Closing turns
// Closed after its timeout, every state expires after its idle timeout), through growth, backward
// shift deletion and sweeping; and a full table refuses new connections instead of evicting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlowTable, State } from '../../src/atp/flow-table.js';
import { PacketRecord } from '../../src/capture/record.js';
import { SlotFlowTable } from './helpers/slot-flow-table.js';

const TIMEOUTS = new Float64Array([0, 3, 30, 600, 30, 10, 10]);

function keyed(rec: PacketRecord, k: number, v6 = false): PacketRecord {
  rec.reset();
  if (v6) {
    rec.ipVersion = 6;
    rec.src6.set([0x20010db8, 0, 0, k]);
    rec.dst6.set([0x20010db8, 1, 0, 1]);
  } else {
    rec.ipVersion = 4;
    rec.src4 = (0x0a000000 + (k >> 4)) >>> 0;
    rec.dst4 = 0xcb007101;
  }
  rec.srcPort = 1024 + (k & 15);
  rec.dstPort = 443;
  return rec;
}

interface ModelEntry {
  state: number;
  last: number;
}

function modelFind(model: Map<number, ModelEntry>, k: number, now: number): ModelEntry | undefined {
  const e = model.get(k);
  if (e === undefined) return undefined;
  if (e.state === State.CLOSING && now - e.last > TIMEOUTS[State.CLOSING]) {
    e.state = State.CLOSED;
    e.last += TIMEOUTS[State.CLOSING];
  }
  if (now - e.last > TIMEOUTS[e.state]) {
    model.delete(k);
    return undefined;
  }
  return e;
}

describe('FlowTable', () => {
  it('finds what was inserted, in both families, and tells the directions of one connection apart from other connections', () => {
    const t = new FlowTable(1000, TIMEOUTS);
    const rec = new PacketRecord();
    t.setKey(keyed(rec, 7), true);
    const a = t.insert(0, State.NEW);
    t.setKey(keyed(rec, 7, true), true);
    const b = t.insert(0, State.OPEN);
    expect(a).not.toBe(b);
    t.setKey(keyed(rec, 7), true);
    expect(t.find(1)).toBe(a);
    // the same connection seen from the protected side (egress: remote = destination)
    const back = keyed(new PacketRecord(), 0);
    back.src4 = rec.dst4;
    back.dst4 = rec.src4;
    back.srcPort = rec.dstPort;
    back.dstPort = rec.srcPort;
    t.setKey(back, false);
    expect(t.find(1)).toBe(a);
    t.setKey(back, true);
    expect(t.find(1)).toBe(-1);
    t.setKey(keyed(rec, 7, true), true);
    expect(t.state(t.find(1))).toBe(State.OPEN);
  });

  it('grows past its initial size and keeps every entry findable, in both families', () => {
    const t = new FlowTable(100_000, TIMEOUTS);
    const rec = new PacketRecord();
    for (let k = 0; k < 20_000; k++) {
      t.setKey(keyed(rec, k >> 1, k % 2 === 1), true);
      const s = t.insert(0, State.OPEN);
      t.setRemoteNext(s, k);
    }
    expect(t.slots).toBeGreaterThanOrEqual(32_768);
    for (let k = 0; k < 20_000; k++) {
      t.setKey(keyed(rec, k >> 1, k % 2 === 1), true);
      expect(t.remoteNext(t.find(1))).toBe(k);
    }
  });

  it('removes from a probe run that wraps past the end of the table without losing the entries after it', () => {
    const rec = new PacketRecord();
    // keys whose home slots (in an empty 1024-slot table) are 1022, 1023, 0 and 0, found with the
    // slot table the index replaced (its insert returns the slot; the index lays keys out the same)
    const wanted = [1022, 1023, 0, 0];
    const keys: number[] = [];
    for (let k = 0; keys.length < wanted.length && k < 1_000_000; k++) {
      const fresh = new SlotFlowTable(1 << 20, TIMEOUTS);
      fresh.setKey(keyed(rec, k), true);
      if (fresh.insert(0, State.OPEN) === wanted[keys.length]) keys.push(k);
    }
    expect(keys).toHaveLength(4);
    const t = new FlowTable(1000, TIMEOUTS);
    for (const k of keys) {
      t.setKey(keyed(rec, k), true);
      t.insert(0, State.OPEN);
    }
    t.setKey(keyed(rec, keys[0]), true);
    t.remove(t.find(0));
    for (const k of keys.slice(1)) {
      t.setKey(keyed(rec, k), true);
      expect(t.find(0)).toBeGreaterThanOrEqual(0);
    }
  });

  it('expires entries by idle time per state, and a timed-out Closing entry is remembered as Closed first', () => {
    const t = new FlowTable(1000, TIMEOUTS);
    const rec = new PacketRecord();
    t.setKey(keyed(rec, 1), true);
    t.insert(100, State.CLOSING);
    t.setKey(keyed(rec, 2), true);
    t.insert(100, State.CHALLENGED);
    t.setKey(keyed(rec, 1), true);
    const s = t.find(135);
    expect(s).toBeGreaterThanOrEqual(0);
    expect(t.state(s)).toBe(State.CLOSED);
    expect(t.find(141)).toBe(-1);
    t.setKey(keyed(rec, 2), true);
    expect(t.find(104)).toBe(-1);
    expect(t.count).toBe(0);
  });

  it('refuses new connections when maxFlows are live, counts them, and takes them again once entries expire', () => {
    const t = new FlowTable(100, TIMEOUTS);
    const rec = new PacketRecord();
    for (let k = 0; k < 100; k++) {
      t.setKey(keyed(rec, k), true);
      expect(t.insert(0, State.NEW)).toBeGreaterThanOrEqual(0);
    }
    t.setKey(keyed(rec, 500), true);
    expect(t.insert(1, State.NEW)).toBe(-1);
    expect(t.untracked).toBe(1);
    expect(t.count).toBe(100);
    expect(t.insert(40, State.NEW)).toBeGreaterThanOrEqual(0);
    expect(t.count).toBeLessThanOrEqual(100);
    expect(t.peak).toBe(100);
  });

  // 500 keys keep the 1024-slot table near its growth point, so probe runs are long and wrap past the end
  it.each([[499], [2999]])('agrees with a Map model over random inserts, lookups, removals and time steps (%i keys)', (keys) => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), k: fc.nat(keys), state: fc.constantFrom(1, 2, 3, 4, 5), dt: fc.double({ min: 0, max: 2, noNaN: true }) }),
      fc.record({ kind: fc.constant('find' as const), k: fc.nat(keys), dt: fc.double({ min: 0, max: 5, noNaN: true }) }),
      fc.record({ kind: fc.constant('remove' as const), k: fc.nat(keys), dt: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 200, maxLength: 3000 }), fc.boolean(), (ops, v6) => {
        const table = new FlowTable(1 << 20, TIMEOUTS);
        const model = new Map<number, ModelEntry>();
        const rec = new PacketRecord();
        let now = 0;
        for (const o of ops) {
          now += o.dt;
          table.setKey(keyed(rec, o.k, v6), true);
          const slot = table.find(now);
          const e = modelFind(model, o.k, now);
          expect(slot >= 0).toBe(e !== undefined);
          if (e !== undefined) expect(table.state(slot)).toBe(e.state);
          if (o.kind === 'insert' && slot < 0) {
            const s = table.insert(now, o.state);
            expect(s).toBeGreaterThanOrEqual(0);
            model.set(o.k, { state: o.state, last: now });
          } else if (o.kind === 'remove' && slot >= 0) {
            table.remove(slot);
            model.delete(o.k);
          }
        }
        for (const k of model.keys()) {
          table.setKey(keyed(rec, k, v6), true);
          expect(table.find(now) >= 0).toBe(modelFind(model, k, now) !== undefined);
        }
      }),
      { numRuns: 40 },
    );
  });
});
