// The connection table against a plain Map model: same entries found, same expiry (Closing turns
// Closed after its timeout, every state expires after its idle timeout), through growth, backward
// shift deletion and sweeping; and a full table refuses new connections instead of evicting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Flag, FlowTable, Side, State } from '../../src/atp/flow-table.js';
import { PacketRecord } from '../../src/capture/record.js';
import { SlotFlowTable } from './helpers/slot-flow-table.js';
import { connectionKey } from './helpers/connection-keys.js';

const TIMEOUTS = new Float64Array([0, 3, 30, 600, 30, 10, 10]);

function keyed(rec: PacketRecord, k: number, v6 = false): PacketRecord {
  rec.reset();
  if (v6) {
    rec.ipVersion = 6;
    // no word zero: an entry's words written over with zeros would not show
    rec.src6.set([0x20010db8, 0xa0000 + k, 0xb0000 + k, k]);
    rec.dst6.set([0x20010db8, 1, 2, 1]);
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
    expect([t.peak, t.created]).toEqual([100, 101]);
  });

  it('keeps what is set on an entry apart from what is set on its other fields and on other entries', () => {
    const t = new FlowTable(1000, TIMEOUTS);
    const rec = new PacketRecord();
    const entries = [0, 1, 2].map((k) => {
      t.setKey(keyed(rec, k, k === 1), true);
      return t.insert(k, State.NEW);
    });
    const values = (e: number) => [t.state(e), t.flags(e), t.lastSeen(e), t.since(e), t.remoteIsn(e), t.remoteNext(e), t.localNext(e), t.next(e, Side.REMOTE), t.next(e, Side.LOCAL)];
    expect(values(entries[1])).toEqual([State.NEW, 0, 1, 1, 0, 0, 0, 0, 0]);
    const [a, b, c] = entries;
    t.enter(a, State.OPEN, Flag.VALIDATED | Flag.AWAIT_RETRANSMIT, 5);
    t.setRemoteSeq(a, 100, 101);
    t.setLocalSeq(a, 0xffffffff, 7);
    t.update(b, State.NEW, Flag.LOCAL_INITIATED, 6);
    t.setSeq(b, Side.LOCAL, 200, 201);
    t.setSeq(b, Side.REMOTE, 300, 301);
    t.setNext(b, Side.LOCAL, 202);
    t.update(c, State.CLOSING, Flag.REMOTE_FIN, 7);
    t.setFlags(c, Flag.REMOTE_FIN | Flag.LOCAL_FIN);
    t.setLastSeen(c, 8);
    t.setNext(c, Side.REMOTE, 9);
    expect(values(a)).toEqual([State.OPEN, Flag.VALIDATED | Flag.AWAIT_RETRANSMIT, 5, 5, 100, 101, 7, 101, 7]);
    expect(values(b)).toEqual([State.NEW, Flag.LOCAL_INITIATED, 6, 1, 300, 301, 202, 301, 202]);
    expect(values(c)).toEqual([State.CLOSING, Flag.REMOTE_FIN | Flag.LOCAL_FIN, 8, 7, 0, 9, 0, 9, 0]);
    // the IPv6 entry keeps its key through all of it
    t.setKey(keyed(rec, 1, true), true);
    expect(t.find(8)).toBe(b);
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

  it('keeps tables apart: what one holds another never finds, and inserts and removals in one leave the other as it was', () => {
    // every run makes fresh tables (a bench pass, each replay): a fresh one must start empty whatever
    // another table has held, and two tables in use at once must not share entries or slots
    const op = fc.record({
      t: fc.nat(1),
      kind: fc.constantFrom('insert' as const, 'find' as const, 'remove' as const),
      k: fc.nat(40),
      fresh: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 300 }), (ops) => {
        const tables = [new FlowTable(100, TIMEOUTS), new FlowTable(100, TIMEOUTS)];
        const models = [new Map<number, number>(), new Map<number, number>()];
        const rec = new PacketRecord();
        for (const o of ops) {
          if (o.fresh && o.kind === 'find') {
            // a table made now holds nothing, whatever the others hold
            tables[o.t] = new FlowTable(100, TIMEOUTS);
            models[o.t].clear();
          }
          const table = tables[o.t];
          const model = models[o.t];
          table.setKey(keyed(rec, o.k), true);
          const e = table.find(0);
          expect(e >= 0).toBe(model.has(o.k));
          if (e >= 0) expect(table.state(e)).toBe(model.get(o.k));
          if (o.kind === 'insert' && e < 0) {
            const state = 1 + (o.k % 5);
            expect(table.insert(0, state)).toBeGreaterThanOrEqual(0);
            model.set(o.k, state);
          } else if (o.kind === 'remove' && e >= 0) {
            table.remove(e);
            model.delete(o.k);
          }
        }
        for (const t of [0, 1]) {
          expect(tables[t].count).toBe(models[t].size);
          for (let k = 0; k <= 40; k++) {
            tables[t].setKey(keyed(rec, k), true);
            expect(tables[t].find(0) >= 0).toBe(models[t].has(k));
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('FlowTable at its limits', () => {
  // Challenged 3 s, New 30 s, Open 600 s, Closing 20 s, Closed 10 s, awaiting a retransmission 7 s
  const LIMITS = new Float64Array([0, 3, 30, 600, 20, 10, 7]);

  /** `n` keys of `keyed` whose home slot in a 1024-slot index is the same */
  function sameHome(n: number): number[] {
    const probe = new SlotFlowTable(1000, LIMITS);
    const rec = new PacketRecord();
    const byHome = new Map<number, number[]>();
    for (let k = 0; ; k++) {
      probe.setKey(keyed(rec, k), true);
      const home = probe.insert(0, State.OPEN);
      probe.remove(home);
      const keys = byHome.get(home) ?? [];
      keys.push(k);
      if (keys.length === n) return keys;
      byHome.set(home, keys);
    }
  }

  it('keeps an entry idle for exactly its timeout, and expires it a moment later', () => {
    const rec = new PacketRecord();
    const cases: Array<[state: number, flags: number, limit: number]> = [
      [State.CHALLENGED, 0, 3],
      [State.CHALLENGED, Flag.AWAIT_RETRANSMIT, 7],
      [State.NEW, Flag.AWAIT_RETRANSMIT, 30],
      [State.OPEN, 0, 600],
      [State.CLOSED, 0, 10],
    ];
    for (const [state, flags, limit] of cases) {
      const t = new FlowTable(1000, LIMITS);
      t.setKey(keyed(rec, 1), true);
      t.enter(t.insert(0, state), state, flags, 0);
      expect(t.find(limit), `state ${state} flags ${flags}`).toBeGreaterThanOrEqual(0);
      expect(t.find(limit + 0.25), `state ${state} flags ${flags}`).toBe(-1);
    }
  });

  it('turns a Closing entry Closed exactly after its timeout, dated then, and forgets it after closedSeconds more', () => {
    const t = new FlowTable(1000, LIMITS);
    const rec = new PacketRecord();
    t.setKey(keyed(rec, 1), true);
    t.enter(t.insert(0, State.CLOSING), State.CLOSING, Flag.REMOTE_FIN, 0);
    expect(t.state(t.find(20))).toBe(State.CLOSING);
    const e = t.find(25);
    expect([t.state(e), t.flags(e), t.lastSeen(e), t.since(e)]).toEqual([State.CLOSED, Flag.REMOTE_FIN, 20, 20]);
    expect(t.find(30)).toBe(e);
    expect(t.find(30.25)).toBe(-1);
  });

  it('gives an insert the slot of an entry past its timeouts, never of a live one', () => {
    const [a, b] = sameHome(2);
    const rec = new PacketRecord();
    // [state of a, idle time at which a is still live (a Closing entry: Closed, then remembered)]
    const cases: Array<[number, number]> = [
      [State.NEW, 30],
      [State.CLOSING, 30],
    ];
    for (const [state, live] of cases) {
      for (const [at, kept] of [
        [live, true],
        [live + 0.25, false],
      ] as const) {
        const t = new FlowTable(1000, LIMITS);
        t.setKey(keyed(rec, a), true);
        t.insert(0, state);
        t.setKey(keyed(rec, b), true);
        t.insert(at, State.NEW);
        expect(t.count, `state ${state} at ${at}`).toBe(kept ? 2 : 1);
        t.setKey(keyed(rec, a), true);
        expect(t.peek() >= 0, `state ${state} at ${at}`).toBe(kept);
      }
    }
  });

  it('tells apart connections whose keys hash alike', () => {
    // The hash changes with any one word of the key when the others stay, so keys that hash alike
    // differ in two words at least: here the remote port and address (the local address the same),
    // and two IPv6 words past the first. Pairs are searched for with the table's own hash, which is
    // private: read here only to find them.
    // a word that looks random, from n (words that follow n in step miss the hash's collisions)
    const scramble = (n: number) => {
      const x = Math.imul(n ^ (n >>> 16), 0x45d9f3b);
      const y = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
      return (y ^ (y >>> 16)) >>> 0;
    };
    const variants: Array<(rec: PacketRecord, n: number) => void> = [
      (rec, n) => ((rec.srcPort = scramble(n) & 0xffff), (rec.src4 = scramble(n + (1 << 24)))),
      (rec, n) => ((rec.ipVersion = 6), rec.src6.set([0x20010db8, 0, scramble(n), scramble(n + (1 << 24))]), rec.dst6.set([0x20010db8, 1, 0, 1])),
    ];
    const rec = new PacketRecord();
    for (const [v, vary] of variants.entries()) {
      const set = (n: number) => {
        keyed(rec, 1);
        vary(rec, n);
        return rec;
      };
      const search = new FlowTable(1000, LIMITS);
      const seen = new Map<number, number>();
      let pair: [number, number] | undefined;
      for (let n = 0; pair === undefined && n < 1 << 20; n++) {
        search.setKey(set(n), true);
        const h = (search as unknown as { hash: number }).hash;
        const other = seen.get(h);
        if (other === undefined) seen.set(h, n);
        else pair = [other, n];
      }
      expect(pair, `variant ${v}`).toBeDefined();
      const [a, b] = pair!;
      const t = new FlowTable(1000, LIMITS);
      t.setKey(set(a), true);
      const ea = t.insert(0, State.NEW);
      t.setKey(set(b), true);
      expect(t.find(0), `variant ${v}`).toBe(-1);
      const eb = t.insert(0, State.OPEN);
      expect(t.find(0), `variant ${v}`).toBe(eb);
      t.setKey(set(a), true);
      expect([t.find(0), t.state(ea), t.state(eb)], `variant ${v}`).toEqual([ea, State.NEW, State.OPEN]);
    }
  });

  it('when full, sweeps out expired entries at most once a second', () => {
    const t = new FlowTable(2, LIMITS);
    const rec = new PacketRecord();
    const insert = (k: number, now: number) => {
      t.setKey(keyed(rec, k), true);
      return t.insert(now, State.NEW) >= 0;
    };
    expect([insert(1, 0), insert(2, 0.5)]).toEqual([true, true]);
    // 1 has expired (idle 30.25 s): swept
    expect(insert(3, 30.25)).toBe(true);
    // 2 has expired too, but the last sweep was only 0.5 s ago
    expect(insert(4, 30.75)).toBe(false);
    expect(insert(4, 31.25)).toBe(true);
    expect([t.count, t.untracked]).toEqual([2, 1]);
  });

  it('grows its index at the same point as the slot table when a sweep leaves about 3/8 of the slots held', () => {
    const rec = new PacketRecord();
    for (const expired of [127, 128, 129]) {
      const a = new FlowTable(10_000, LIMITS);
      const b = new SlotFlowTable(10_000, LIMITS);
      for (let k = 0; k < 512; k++) {
        const state = k < expired ? State.CHALLENGED : State.OPEN;
        for (const table of [a, b]) {
          table.setKey(keyed(rec, k), true);
          table.insert(0, state);
        }
      }
      for (const table of [a, b]) {
        table.setKey(keyed(rec, 512), true);
        table.insert(10, State.NEW);
      }
      expect([a.slots, a.count], `${expired} expired`).toEqual([b.slots, b.count]);
    }
  });
});

describe('FlowTable against the slot table it replaced, on small tables', () => {
  // flow-table-layout.test.ts compares the two over long runs (50 s); these runs are short and the
  // tables small (full often, entries removed and reused, one growth of the index), and every
  // accessor is used on every entry, not only the first.
  const LIMITS = new Float64Array([0, 3, 30, 600, 20, 10, 7]);

  type Table = FlowTable | SlotFlowTable;
  const figures = (t: Table) => [t.count, t.peak, t.created, t.untracked, t.slots];
  const fields = (t: Table, e: number) =>
    e < 0 ? [] : [t.state(e), t.flags(e), t.lastSeen(e), t.since(e), t.remoteIsn(e), t.remoteNext(e), t.localNext(e), t.next(e, Side.REMOTE), t.next(e, Side.LOCAL)];

  const op = fc.record({
    key: fc.noBias(fc.nat()),
    ingress: fc.boolean(),
    dt: fc.constantFrom(0, 0, 0, 0.001, 0.5, 1, 4, 12),
    action: fc.nat(11),
    state: fc.constantFrom(State.CHALLENGED, State.NEW, State.OPEN, State.CLOSING, State.CLOSED),
    flags: fc.constantFrom(0, Flag.VALIDATED, Flag.AWAIT_RETRANSMIT | Flag.REMOTE_SEQ, Flag.LOCAL_INITIATED | Flag.LOCAL_SEQ, 0xffff),
    seq: fc.nat(),
  });

  it('answers every operation the same, with the same fields on every entry and the same figures', () => {
    fc.assert(
      fc.property(fc.constantFrom(6, 40, 700), fc.array(op, { minLength: 100, maxLength: 2500, size: 'max' }), (maxFlows, ops) => {
        const a = new FlowTable(maxFlows, LIMITS);
        const b = new SlotFlowTable(maxFlows, LIMITS);
        const rec = new PacketRecord();
        const pool = Math.round(maxFlows * 1.6);
        let t = 0;
        const check = (ea: number, eb: number, where: string) => {
          const got = JSON.stringify([ea < 0, figures(a), fields(a, ea)]);
          const want = JSON.stringify([eb < 0, figures(b), fields(b, eb)]);
          if (got !== want) expect(got, where).toBe(want);
        };
        ops.forEach((o, n) => {
          t += o.dt;
          connectionKey(rec, o.key % pool);
          a.setKey(rec, o.ingress);
          b.setKey(rec, o.ingress);
          const where = `op ${n} at ${t} (${maxFlows} flows)`;
          if (o.action === 11) return check(a.peek(), b.peek(), `${where} peek`);
          let ea = a.find(t);
          let eb = b.find(t);
          check(ea, eb, `${where} find`);
          const both = (f: (table: Table, e: number) => void) => {
            f(a, ea);
            f(b, eb);
          };
          if (ea < 0) {
            ea = a.insert(t, o.state);
            eb = b.insert(t, o.state);
            check(ea, eb, `${where} insert`);
            if (ea < 0) return;
            if (o.action % 2 === 0) both((x, e) => x.enter(e, o.state, o.flags, t));
          } else if (o.action === 0) {
            a.remove(ea);
            b.remove(eb);
            return check(-1, -1, `${where} remove`);
          } else if (o.action === 1) both((x, e) => x.update(e, o.state, o.flags, t));
          else if (o.action === 2) both((x, e) => (x.setRemoteSeq(e, o.seq, o.seq + 1), x.setLastSeen(e, t)));
          else if (o.action === 3) both((x, e) => (x.setSeq(e, Side.LOCAL, o.seq, o.seq + 2), x.setFlags(e, o.flags)));
          else if (o.action === 4) both((x, e) => (x.setSeq(e, Side.REMOTE, o.seq, o.seq + 3), x.setState(e, o.state)));
          else if (o.action === 5) both((x, e) => (x.setLocalSeq(e, o.seq, o.seq + 4), x.setSince(e, t)));
          else if (o.action === 6) both((x, e) => (x.setRemoteNext(e, o.seq), x.setNext(e, Side.LOCAL, o.seq ^ 1)));
          else if (o.action === 7) both((x, e) => x.setNext(e, Side.REMOTE, o.seq ^ 2));
          else both((x, e) => x.enter(e, o.state, o.flags, t));
          check(ea, eb, `${where} action ${o.action}`);
        });
      }),
      { numRuns: 30 },
    );
  });
});

describe('FlowTable removals and lookups around the end of its index', () => {
  const LIMITS = new Float64Array([0, 3, 30, 600, 20, 10, 7]);

  // keys of `keyed` by home slot in a 1024-slot index, for the homes from 1019 to 2 (runs of slots
  // that wrap past the end), three per home; looked for when a test runs, among a bounded number of keys
  const HOMES = [1019, 1020, 1021, 1022, 1023, 0, 1, 2];
  let found: Map<number, number[]> | undefined;
  function byHome(): Map<number, number[]> {
    if (found !== undefined) return found;
    const probe = new SlotFlowTable(1000, LIMITS);
    const rec = new PacketRecord();
    found = new Map<number, number[]>(HOMES.map((h) => [h, []]));
    for (let k = 0; [...found.values()].some((keys) => keys.length < 3) && k < 1 << 16; k++) {
      probe.setKey(keyed(rec, k), true);
      const home = probe.insert(0, State.OPEN);
      probe.remove(home);
      const keys = found.get(home);
      if (keys !== undefined && keys.length < 3) keys.push(k);
    }
    return found;
  }

  it('keeps every other connection findable, with its own entry, through removals and inserts in probe runs that wrap', () => {
    const pool = [...byHome().values()].flat();
    expect(pool).toHaveLength(3 * HOMES.length);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 120 }), (keys) => {
        const t = new FlowTable(1000, LIMITS);
        const rec = new PacketRecord();
        const held = new Set<number>();
        for (const k of keys) {
          t.setKey(keyed(rec, k), true);
          const e = t.find(0);
          if (e >= 0) {
            t.remove(e);
            held.delete(k);
          } else {
            t.setRemoteNext(t.insert(0, State.OPEN), k);
            held.add(k);
          }
          expect(t.count).toBe(held.size);
          for (const other of pool) {
            t.setKey(keyed(rec, other), true);
            const found = t.peek();
            expect(found >= 0, `key ${other} after ${k}`).toBe(held.has(other));
            if (found >= 0) expect(t.remoteNext(found)).toBe(other);
            expect(t.find(0)).toBe(found);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the entries of a run that wraps where a lookup finds them when the slot before the run is emptied', () => {
    // slots 1020 to 1 held: x (home 1020), y (1021), a, b and c (1022: slots 1022, 1023 and 0), d
    // (1023: slot 1). Removing x moves nothing back into its slot: every entry after it has its home
    // after it, c's and d's too, which sit past the index's end, in slots 0 and 1.
    const homes = byHome();
    const [x] = homes.get(1020)!;
    const [y] = homes.get(1021)!;
    const [a, b, c] = homes.get(1022)!;
    const [d] = homes.get(1023)!;
    const t = new FlowTable(1000, LIMITS);
    const rec = new PacketRecord();
    const entries = new Map<number, number>();
    for (const k of [x, y, a, b, c, d]) {
      t.setKey(keyed(rec, k), true);
      entries.set(k, t.insert(0, State.OPEN));
    }
    t.setKey(keyed(rec, x), true);
    t.remove(t.find(0));
    for (const k of [y, a, b, c, d]) {
      t.setKey(keyed(rec, k), true);
      expect([k, t.peek(), t.find(0)]).toEqual([k, entries.get(k), entries.get(k)]);
    }
    t.setKey(keyed(rec, x), true);
    expect([t.find(0), t.count]).toEqual([-1, 5]);
  });

  it('peeks at an entry moved off its home slot, and expires nothing', () => {
    const [a, b, c] = byHome().get(1023)!;
    const t = new FlowTable(1000, LIMITS);
    const rec = new PacketRecord();
    const entries = [a, b, c].map((k) => {
      t.setKey(keyed(rec, k), true);
      return t.insert(0, State.CHALLENGED);
    });
    [a, b, c].forEach((k, i) => {
      t.setKey(keyed(rec, k), true);
      expect(t.peek()).toBe(entries[i]);
    });
    expect(t.count).toBe(3);
    // long past their timeout: peek still sees them; find expires them
    t.setKey(keyed(rec, c), true);
    expect(t.find(100)).toBe(-1);
    expect(t.count).toBe(2);
  });

  it('holds maxFlows live connections when maxFlows is above half the first index, and refuses the next', () => {
    const t = new FlowTable(3000, LIMITS);
    const rec = new PacketRecord();
    for (let k = 0; k < 3000; k++) {
      t.setKey(keyed(rec, k, k % 3 === 0), true);
      t.setRemoteNext(t.insert(0, State.OPEN), k);
    }
    t.setKey(keyed(rec, 3000), true);
    expect(t.insert(0, State.OPEN)).toBe(-1);
    expect([t.count, t.untracked]).toEqual([3000, 1]);
    for (let k = 0; k < 3000; k++) {
      t.setKey(keyed(rec, k, k % 3 === 0), true);
      expect(t.remoteNext(t.find(0))).toBe(k);
    }
  });

  it('reuses the entries of removed connections: a table of 4 serves any number of connections one after another', () => {
    const t = new FlowTable(4, LIMITS);
    const rec = new PacketRecord();
    for (let k = 0; k < 50; k++) {
      t.setKey(keyed(rec, k, k % 2 === 0), true);
      const e = t.insert(k, State.NEW);
      expect(e, `connection ${k}`).toBeGreaterThanOrEqual(0);
      t.setRemoteSeq(e, k, k + 1);
      expect([t.find(k), t.remoteIsn(e), t.count]).toEqual([e, k, 1]);
      t.remove(e);
    }
    expect([t.count, t.created, t.untracked]).toEqual([0, 50, 0]);
  });

  it('tells an IPv4 connection from an IPv6 one with the same first words and the same hash', () => {
    // The IPv6 key's last word is chosen to give the IPv4 key's hash: with the words before it the
    // same, the hash's steps (murmur3's: each a bijection) give equal hashes when the states before
    // the last word's mixing, each xored with that word, are equal. The hashes are read (private)
    // only to check that the pair collides.
    const mix = (h: number, word: number) => {
      const m = Math.imul(h ^ word, 0xcc9e2d51);
      return m ^ (m >>> 15);
    };
    const v4 = keyed(new PacketRecord(), 5);
    const prefix = mix(mix(mix(0x9747b28c, ((v4.srcPort << 16) | v4.dstPort) >>> 0), v4.src4), v4.dst4);
    const v6 = new PacketRecord();
    v6.ipVersion = 6;
    v6.srcPort = v4.srcPort;
    v6.dstPort = v4.dstPort;
    v6.src6.set([v4.src4, 11, 12, 13]);
    const before = [6, 11, 12, 13, 21, 22].reduce(mix, prefix);
    v6.dst6.set([v4.dst4, 21, 22, (before ^ prefix ^ 4) >>> 0]);
    const t = new FlowTable(1000, LIMITS);
    const hash = () => (t as unknown as { hash: number }).hash;
    t.setKey(v6, true);
    const h6 = hash();
    t.setKey(v4, true);
    expect(hash()).toBe(h6);
    const e4 = t.insert(0, State.OPEN);
    t.setKey(v6, true);
    expect([t.find(0), t.peek()]).toEqual([-1, -1]);
    const e6 = t.insert(0, State.NEW);
    expect(e6).not.toBe(e4);
    expect([t.find(0), t.state(e6)]).toEqual([e6, State.NEW]);
    t.setKey(v4, true);
    expect([t.find(0), t.state(e4)]).toEqual([e4, State.OPEN]);
  });
});
