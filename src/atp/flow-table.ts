// The connection table: one entry per TCP connection to a protected prefix, keyed by the
// connection's two endpoints seen from the protected side (remote address and port, local address
// and port), so both directions of a connection find the same entry.
//
// Floods create entries by the hundred thousand, so the table is built for bounded memory, no
// per-packet garbage and few cache misses. It is two typed arrays: an index of slots, open
// addressing with linear probing, each slot 8 bytes (the key's hash and the number of its entry),
// deletion by backward shift (no tombstones), growth by doubling up to a capacity cap; and the
// entries, 48 contiguous bytes each (everything about an IPv4 connection sits together; an IPv6
// key's last six words sit aside), packed densely and reused through a free list. The entries
// never move when the index grows or shifts, so a probe walks 8-byte slots and growth rehashes
// slots only. A table takes room when its first connection comes, then the entries' room doubles
// with the connections held, so a run that tracks nothing costs a few empty arrays whatever
// `maxFlows` (bench makes a run per pass). Past its first few thousand entries, room for half a
// million is taken at once, but the system maps a page only when an entry first lands on it, so
// memory follows the connections held: a 250,000-connection flood touches 12 MB of entries and
// 8 MB of index, where one 80-byte entry per slot touched 80 MB, and 160 MB over its doublings
// (mapping fresh pages was most of the old table's cost). A key is ten 32-bit words: ports, the
// IPv4 addresses or the first IPv6 words, the family, then the rest of the IPv6 words.
// Entries expire by idle time per state. An expired entry is removed when a lookup meets it, its
// slot is reused when an insert's probe meets it (a flood's short-lived entries recycle each other's
// slots in place), and a full sweep runs before the table would grow, so floods do not inflate it.
// Which slot a key takes, and so which expired entries an insert reuses, when sweeps run and what
// `count` says, depend only on the index, exactly as when the entries sat in the slots themselves.
// Closing entries that time out become Closed (remembered for a while, so late packets are told
// apart from never-seen ones). When `maxFlows` entries are held the table refuses new ones and
// counts them as untracked rather than evicting live connections.
import type { PacketRecord } from '../capture/record.js';

/** Connection states (the vendor's New, Open, Closing, Closed, plus Challenged: a SYN held by a challenge). */
export const State = { NONE: 0, CHALLENGED: 1, NEW: 2, OPEN: 3, CLOSING: 4, CLOSED: 5 } as const;

/** Per-entry flag bits. */
export const Flag = {
  /** the remote side passed a challenge for this connection */
  VALIDATED: 1,
  /** the protected (local) side opened the connection: the remote sent the SYN-ACK */
  LOCAL_INITIATED: 2,
  /** picked up mid-connection during the learning window */
  ADOPTED: 4,
  REMOTE_FIN: 8,
  LOCAL_FIN: 16,
  /** localIsn/localNext are known (bidirectional tracking saw the local side) */
  LOCAL_SEQ: 32,
  /** the challenged packet was a SYN-ACK */
  SYNACK: 64,
  /** remoteIsn/remoteNext are known */
  REMOTE_SEQ: 128,
  /** a Challenged entry waiting for a retransmission (expires after the retransmission window, not the answer window) */
  AWAIT_RETRANSMIT: 256,
} as const;

/** The two ends of a connection, for the accessors that take a side. */
export const Side = { REMOTE: 0, LOCAL: 1 } as const;

/** Index of `timeouts` for a Challenged entry with AWAIT_RETRANSMIT (the other indexes are states). */
export const RETRANSMIT_WAIT = 6;

const KEY_WORDS = 10;
// An entry: words 0..2 the key's first three words (ports, remote and local IPv4 address or first
// IPv6 words), 3 state | flags << 8 | V6_KEY, then (as doubles 2 and 3 of the entry) the last time
// seen and the time the state was entered, then words 8..11 the sequence numbers. What a lookup and
// an insert's probe read of an entry (key, state, last seen) is its first 24 bytes, so at the
// 48-byte stride it spans two cache lines for one entry in four (before: key and state in the first
// 16 bytes, the last time seen at bytes 32..39: one in two). An IPv6 key's other six words are in
// `wide`, which IPv4 traffic never touches.
const STRIDE = 12;
const META = 3;
const V6_KEY = 1 << 24;
const FLAG_BITS = 0xffff;
const REMOTE_ISN = 8;
const REMOTE_NEXT = 9;
// the local side's two words follow the remote side's (the side accessors rely on it)
const LOCAL_ISN = REMOTE_ISN + 2;
const LOCAL_NEXT = REMOTE_NEXT + 2;
const D_STRIDE = STRIDE / 2;
const LAST_SEEN = 2;
const SINCE = 3;
const WIDE = KEY_WORDS - 4;
const MIN_SLOTS = 1024;
const FULL_SWEEP_GAP = 1;
const FIRST_ROOM = 16;
const FIRST_ENTRIES = 4096;
/** the room a table takes past its FIRST_ENTRIES, at once (see allocate) */
const LARGE_ROOM = 1 << 19;
/** the index of a table that has held nothing yet: every slot empty, never written (insert gives a table its own) */
const NO_SLOTS = new Uint32Array(MIN_SLOTS * 2);

// The key's hash: each word mixed in turn, then the final mixing (murmur3's fmix32).
const HASH_SEED = 0x9747b28c;

function mix(h: number, word: number): number {
  const m = Math.imul(h ^ word, 0xcc9e2d51);
  return m ^ (m >>> 15);
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function nextPow2(n: number): number {
  let p = MIN_SLOTS;
  while (p < n) p *= 2;
  return p;
}

/** Connection entries by number (an entry's number stays valid until the entry is removed). */
export class FlowTable {
  slots = MIN_SLOTS;
  private mask = MIN_SLOTS - 1;
  private readonly maxSlots: number;
  count = 0;
  /** entries ever created, most entries held at once (expired ones are reclaimed lazily), connections refused because the table was full */
  created = 0;
  peak = 0;
  untracked = 0;

  /** per slot: [2i] the key's hash, [2i + 1] its entry's number + 1 (0: empty) */
  private index = NO_SLOTS;
  /** none, then room for FIRST_ROOM entries, doubled up to FIRST_ENTRIES, then for LARGE_ROOM, doubled again, never past maxFlows (see allocate) */
  private u32: Uint32Array;
  private f64: Float64Array;
  private wide: Uint32Array;
  /** entries handed out so far (the rest of u32 is untouched), and the removed ones to hand out again */
  private used = 0;
  private free: Int32Array;
  private freeCount = 0;
  /** a bit per entry: set while a sweep has found it expired and not yet emptied its slot */
  private doomed: Uint32Array;
  private readonly key = new Uint32Array(KEY_WORDS);
  private hash = 0;
  private lastFullSweep = -Infinity;

  /** `timeouts[state]`: idle seconds after which an entry in that state expires; `timeouts[RETRANSMIT_WAIT]` for Challenged entries awaiting a retransmission. */
  constructor(
    readonly maxFlows: number,
    private readonly timeouts: Float64Array,
  ) {
    this.maxSlots = nextPow2(maxFlows * 2);
    this.u32 = new Uint32Array(0);
    this.f64 = new Float64Array(0);
    this.wide = new Uint32Array(0);
    this.free = new Int32Array(0);
    this.doomed = new Uint32Array(0);
  }

  state(e: number): number {
    return this.u32[e * STRIDE + META] & 0xff;
  }

  setState(e: number, state: number): void {
    const i = e * STRIDE + META;
    this.u32[i] = (this.u32[i] & ~0xff) | state;
  }

  flags(e: number): number {
    return (this.u32[e * STRIDE + META] >>> 8) & FLAG_BITS;
  }

  setFlags(e: number, flags: number): void {
    const i = e * STRIDE + META;
    this.u32[i] = (this.u32[i] & (V6_KEY | 0xff)) | (flags << 8);
  }

  /** Puts the entry in `state` with `flags` at time `t` (since and last seen). */
  enter(e: number, state: number, flags: number, t: number): void {
    const i = e * STRIDE + META;
    this.u32[i] = (this.u32[i] & V6_KEY) | state | (flags << 8);
    this.f64[e * D_STRIDE + LAST_SEEN] = this.f64[e * D_STRIDE + SINCE] = t;
  }

  /** Moves the entry to `state` (unchanged: only `flags`) with `flags`, seen at `t`. */
  update(e: number, state: number, flags: number, t: number): void {
    if (state !== this.state(e)) this.f64[e * D_STRIDE + SINCE] = t;
    const i = e * STRIDE + META;
    this.u32[i] = (this.u32[i] & V6_KEY) | state | (flags << 8);
    this.f64[e * D_STRIDE + LAST_SEEN] = t;
  }

  lastSeen(e: number): number {
    return this.f64[e * D_STRIDE + LAST_SEEN];
  }

  setLastSeen(e: number, t: number): void {
    this.f64[e * D_STRIDE + LAST_SEEN] = t;
  }

  /** when the entry entered its state (Challenged: the time of the challenge) */
  since(e: number): number {
    return this.f64[e * D_STRIDE + SINCE];
  }

  setSince(e: number, t: number): void {
    this.f64[e * D_STRIDE + SINCE] = t;
  }

  remoteIsn(e: number): number {
    return this.u32[e * STRIDE + REMOTE_ISN];
  }

  /** the remote side's initial sequence number and the next sequence number expected from it */
  setRemoteSeq(e: number, isn: number, next: number): void {
    this.u32[e * STRIDE + REMOTE_ISN] = isn;
    this.u32[e * STRIDE + REMOTE_NEXT] = next;
  }

  remoteNext(e: number): number {
    return this.u32[e * STRIDE + REMOTE_NEXT];
  }

  setRemoteNext(e: number, next: number): void {
    this.u32[e * STRIDE + REMOTE_NEXT] = next;
  }

  localNext(e: number): number {
    return this.u32[e * STRIDE + LOCAL_NEXT];
  }

  /** the protected side's initial sequence number and the next sequence number expected from it */
  setLocalSeq(e: number, isn: number, next: number): void {
    this.u32[e * STRIDE + LOCAL_ISN] = isn;
    this.u32[e * STRIDE + LOCAL_NEXT] = next;
  }

  /** the next sequence number expected from `side` (Side.REMOTE or Side.LOCAL) */
  next(e: number, side: number): number {
    return this.u32[e * STRIDE + REMOTE_NEXT + 2 * side];
  }

  setNext(e: number, side: number, next: number): void {
    this.u32[e * STRIDE + REMOTE_NEXT + 2 * side] = next;
  }

  /** `side`'s initial sequence number and the next sequence number expected from it */
  setSeq(e: number, side: number, isn: number, next: number): void {
    this.u32[e * STRIDE + REMOTE_ISN + 2 * side] = isn;
    this.u32[e * STRIDE + REMOTE_NEXT + 2 * side] = next;
  }

  /** Sets the key of the packet's connection: ingress (remote = source) or egress (remote = destination). */
  setKey(rec: PacketRecord, ingress: boolean): void {
    const k = this.key;
    const remotePort = ingress ? rec.srcPort : rec.dstPort;
    const localPort = ingress ? rec.dstPort : rec.srcPort;
    k[0] = ((remotePort << 16) | localPort) >>> 0;
    if (rec.ipVersion === 4) {
      // an IPv4 key is its first four words (keyAt and insert read no more of it)
      const k1 = (k[1] = ingress ? rec.src4 : rec.dst4);
      const k2 = (k[2] = ingress ? rec.dst4 : rec.src4);
      k[3] = 4;
      this.hash = finish(mix(mix(mix(mix(HASH_SEED, k[0]), k1), k2), 4));
      return;
    }
    const r = ingress ? rec.src6 : rec.dst6;
    const l = ingress ? rec.dst6 : rec.src6;
    k[1] = r[0];
    k[2] = l[0];
    k[3] = 6;
    k[4] = r[1];
    k[5] = r[2];
    k[6] = r[3];
    k[7] = l[1];
    k[8] = l[2];
    k[9] = l[3];
    let h = HASH_SEED;
    for (let i = 0; i < KEY_WORDS; i++) h = mix(h, k[i]);
    this.hash = finish(h);
  }

  // whether entry e holds the key set by setKey() (its hash already matched)
  private keyAt(e: number): boolean {
    const k = this.key;
    const u = this.u32;
    const at = e * STRIDE;
    if (u[at] !== k[0] || u[at + 1] !== k[1] || u[at + 2] !== k[2]) return false;
    const v6 = (u[at + META] & V6_KEY) !== 0;
    if (v6 !== (k[3] === 6)) return false;
    if (!v6) return true;
    const w = this.wide;
    for (let i = 0; i < WIDE; i++) if (w[e * WIDE + i] !== k[4 + i]) return false;
    return true;
  }

  private limit(state: number, flags: number): number {
    return state === State.CHALLENGED && (flags & Flag.AWAIT_RETRANSMIT) !== 0 ? this.timeouts[RETRANSMIT_WAIT] : this.timeouts[state];
  }

  // An entry past every timeout of its state (a Closing entry first spends closedSeconds as Closed).
  private dead(e: number, now: number): boolean {
    const st = this.state(e);
    const idle = now - this.lastSeen(e);
    if (st === State.CLOSING) return idle > this.timeouts[State.CLOSING] + this.timeouts[State.CLOSED];
    return idle > this.limit(st, this.flags(e));
  }

  // Applies idle expiry to entry e: a Closing entry past its timeout turns Closed; true when the
  // entry is past the timeout of its state.
  private outlived(e: number, now: number): boolean {
    if (this.state(e) === State.CLOSING && now - this.lastSeen(e) > this.timeouts[State.CLOSING]) {
      const closed = this.lastSeen(e) + this.timeouts[State.CLOSING];
      this.setLastSeen(e, closed);
      this.setSince(e, closed);
      this.setState(e, State.CLOSED);
    }
    return now - this.lastSeen(e) > this.limit(this.state(e), this.flags(e));
  }

  /** The entry of the connection set by setKey(), or -1 (also when it had expired by `now`). */
  find(now: number): number {
    const index = this.index;
    const mask = this.mask;
    const h = this.hash;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e1 = index[2 * i + 1];
      if (e1 === 0) return -1;
      if (index[2 * i] === h && this.keyAt(e1 - 1)) {
        if (!this.outlived(e1 - 1, now)) return e1 - 1;
        this.removeSlot(i);
        return -1;
      }
    }
  }

  /** The entry of the connection set by setKey(), or -1, expiring nothing (for explanations: no side effects). */
  peek(): number {
    const index = this.index;
    const mask = this.mask;
    const h = this.hash;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e1 = index[2 * i + 1];
      if (e1 === 0) return -1;
      if (index[2 * i] === h && this.keyAt(e1 - 1)) return e1 - 1;
    }
  }

  /**
   * Creates the entry for the key set by setKey() (which must not be in the table) in `state`, and
   * returns it, or -1 when the table is full. The entry's other fields are zero.
   */
  insert(now: number, state: number): number {
    if (this.count >= this.maxFlows) {
      if (now - this.lastFullSweep >= FULL_SWEEP_GAP) {
        this.lastFullSweep = now;
        this.sweep(now);
      }
      if (this.count >= this.maxFlows) {
        this.untracked++;
        return -1;
      }
    }
    if ((this.count + 1) * 2 > this.slots && this.slots < this.maxSlots) {
      this.sweep(now);
      if (this.count * 8 > this.slots * 3) this.grow();
    }
    if (this.index === NO_SLOTS) this.index = new Uint32Array(MIN_SLOTS * 2);
    const index = this.index;
    const mask = this.mask;
    let i = this.hash & mask;
    let e1 = index[2 * i + 1];
    while (e1 !== 0 && !this.dead(e1 - 1, now)) {
      i = (i + 1) & mask;
      e1 = index[2 * i + 1];
    }
    let e: number;
    if (e1 === 0) {
      e = this.allocate();
      index[2 * i + 1] = e + 1;
      this.count++;
    } else e = e1 - 1;
    index[2 * i] = this.hash;
    const u = this.u32;
    const at = e * STRIDE;
    const k = this.key;
    u[at] = k[0];
    u[at + 1] = k[1];
    u[at + 2] = k[2];
    if (k[3] === 6) {
      for (let w = 0; w < WIDE; w++) this.wide[e * WIDE + w] = k[4 + w];
      u[at + META] = V6_KEY | state;
    } else u[at + META] = state;
    u[at + REMOTE_ISN] = u[at + REMOTE_NEXT] = u[at + LOCAL_ISN] = u[at + LOCAL_NEXT] = 0;
    this.f64[e * D_STRIDE + LAST_SEEN] = this.f64[e * D_STRIDE + SINCE] = now;
    this.created++;
    if (this.count > this.peak) this.peak = this.count;
    return e;
  }

  /** Removes entry `e`, the connection set by setKey(). */
  remove(e: number): void {
    const index = this.index;
    const mask = this.mask;
    let i = this.hash & mask;
    while (index[2 * i + 1] !== e + 1) i = (i + 1) & mask;
    this.removeSlot(i);
  }

  // Frees the entry in `slot` and shifts later slots of its probe run back.
  private removeSlot(slot: number): void {
    const e = this.index[2 * slot + 1] - 1;
    this.u32[e * STRIDE + META] = State.NONE;
    this.free[this.freeCount++] = e;
    this.unlink(slot);
  }

  // Empties `slot` (its entry already freed) and shifts later slots of its probe run back.
  private unlink(slot: number): void {
    const mask = this.mask;
    const index = this.index;
    index[2 * slot + 1] = 0;
    this.count--;
    let hole = slot;
    let j = slot;
    for (;;) {
      j = (j + 1) & mask;
      const e1 = index[2 * j + 1];
      if (e1 === 0) return;
      const home = index[2 * j] & mask;
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      index[2 * hole] = index[2 * j];
      index[2 * hole + 1] = e1;
      index[2 * j + 1] = 0;
      hole = j;
    }
  }

  // A free entry's number: a removed one (its state is NONE), else the next never used.
  // The room doubles while the table is small (a test case's few packets, a bench pass over a tiny
  // capture: each run makes a table), then a table that outgrows its first FIRST_ENTRIES takes room
  // for LARGE_ROOM entries at once (all of the default maxFlows): the system maps a page only when an
  // entry first lands on it, so the room costs nothing until used, and the entries are copied once
  // instead of at every doubling. Past that it doubles again: the system will not reserve room for
  // 2^30 entries (80 GB) at once, which a maxFlows that large asked for when it was taken whole.
  private allocate(): number {
    if (this.freeCount > 0) return this.free[--this.freeCount];
    if (this.used === this.free.length) {
      const n = Math.min(Math.max(FIRST_ROOM, this.used * 2, this.used < FIRST_ENTRIES ? 0 : LARGE_ROOM), this.maxFlows);
      const u32 = new Uint32Array(n * STRIDE);
      u32.set(this.u32);
      this.u32 = u32;
      this.f64 = new Float64Array(u32.buffer);
      const wide = new Uint32Array(n * WIDE);
      wide.set(this.wide);
      this.wide = wide;
      this.free = new Int32Array(n);
      this.doomed = new Uint32Array((n + 31) >>> 5);
    }
    return this.used++;
  }

  // Removes every expired entry, as looking each slot's entry up in slot order would. Whether an
  // entry has expired (and a Closing entry's turn to Closed) does not depend on that order, so it is
  // worked out in entry order, over contiguous memory rather than jumping from slot to entry, and an
  // expired entry is freed there and then (which entry numbers the free list hands out next changes
  // nothing but where they sit); the slots are walked only when an entry has expired, to empty the
  // marked ones, reading only the index and a bit per entry (64 KB for 500,000 entries), where
  // freeing each from its slot wrote to the entries at random (three quarters of the sweeps' time
  // on the bench capture). Emptying a slot refills it from later in its probe run, so the slot is
  // looked at again.
  private sweep(now: number): void {
    const doomed = this.doomed;
    const u = this.u32;
    const f = this.f64;
    const used = this.used;
    let expired = 0;
    for (let e = 0; e < used; e++) {
      // outlived(e, now), its state and time read once (a Closing entry, which may turn Closed, goes through outlived itself)
      const meta = u[e * STRIDE + META];
      const st = meta & 0xff;
      if (st === State.NONE) continue;
      const gone = st === State.CLOSING ? this.outlived(e, now) : now - f[e * D_STRIDE + LAST_SEEN] > this.limit(st, (meta >>> 8) & FLAG_BITS);
      if (gone) {
        doomed[e >>> 5] |= 1 << (e & 31);
        u[e * STRIDE + META] = State.NONE;
        this.free[this.freeCount++] = e;
        expired++;
      }
    }
    const index = this.index;
    for (let i = 0; expired > 0; ) {
      const e = index[2 * i + 1] - 1;
      if (e < 0 || (doomed[e >>> 5] & (1 << (e & 31))) === 0) {
        i++;
        continue;
      }
      doomed[e >>> 5] &= ~(1 << (e & 31));
      this.unlink(i);
      expired--;
    }
  }

  // Doubles the index, taking the slots in order. It runs right after a sweep at the same time, so
  // no entry in it is expired.
  private grow(): void {
    const old = this.index;
    const oldSlots = this.slots;
    this.slots = oldSlots * 2;
    const mask = (this.mask = this.slots - 1);
    const index = (this.index = new Uint32Array(this.slots * 2));
    for (let s = 0; s < oldSlots; s++) {
      const e1 = old[2 * s + 1];
      if (e1 === 0) continue;
      const h = old[2 * s];
      let i = h & mask;
      while (index[2 * i + 1] !== 0) i = (i + 1) & mask;
      index[2 * i] = h;
      index[2 * i + 1] = e1;
    }
  }
}
