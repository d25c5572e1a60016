// The connection table as it was before its entries moved out of the index (src/atp/flow-table.ts
// until the protection-on fast path): each slot of the open-addressing table held its 80-byte entry.
// It is kept here as the oracle the table is compared with (flow-table-layout.test.ts): which slot
// a key takes decides which expired entries an insert reuses and when sweeps run, and so the
// connection figures ATP reports, which must not change.
import type { PacketRecord } from '../../../src/capture/record.js';
import { Flag, RETRANSMIT_WAIT, State } from '../../../src/atp/flow-table.js';

const KEY_WORDS = 10;
// An entry: words 0..9 key, 10 hash, 11 state | flags << 8, 12..15 sequence numbers; then (as
// doubles 8 and 9 of the slot) the last time seen and the time the state was entered.
const STRIDE = 20;
const HASH = 10;
const META = 11;
const REMOTE_ISN = 12;
const REMOTE_NEXT = 13;
// the local side's two words follow the remote side's (the side accessors rely on it)
const LOCAL_ISN = REMOTE_ISN + 2;
const LOCAL_NEXT = REMOTE_NEXT + 2;
const D_STRIDE = STRIDE / 2;
const LAST_SEEN = 8;
const SINCE = 9;
const MIN_SLOTS = 1024;
const FULL_SWEEP_GAP = 1;

function nextPow2(n: number): number {
  let p = MIN_SLOTS;
  while (p < n) p *= 2;
  return p;
}

/** Connection entries by slot (slots stay valid until the next insert or removal): the table before the index. */
export class SlotFlowTable {
  slots = MIN_SLOTS;
  private mask = MIN_SLOTS - 1;
  private readonly maxSlots: number;
  count = 0;
  /** entries ever created, most entries held at once (expired ones are reclaimed lazily), connections refused because the table was full */
  created = 0;
  peak = 0;
  untracked = 0;

  private u32 = new Uint32Array(MIN_SLOTS * STRIDE);
  private f64 = new Float64Array(this.u32.buffer);
  private readonly key = new Uint32Array(KEY_WORDS);
  private hash = 0;
  private lastFullSweep = -Infinity;

  /** `timeouts[state]`: idle seconds after which an entry in that state expires; `timeouts[RETRANSMIT_WAIT]` for Challenged entries awaiting a retransmission. */
  constructor(
    readonly maxFlows: number,
    private readonly timeouts: Float64Array,
  ) {
    this.maxSlots = nextPow2(maxFlows * 2);
  }

  state(slot: number): number {
    return this.u32[slot * STRIDE + META] & 0xff;
  }

  setState(slot: number, state: number): void {
    const i = slot * STRIDE + META;
    this.u32[i] = (this.u32[i] & ~0xff) | state;
  }

  flags(slot: number): number {
    return this.u32[slot * STRIDE + META] >>> 8;
  }

  setFlags(slot: number, flags: number): void {
    const i = slot * STRIDE + META;
    this.u32[i] = (this.u32[i] & 0xff) | (flags << 8);
  }

  /** Puts the entry in `state` with `flags` at time `t` (since and last seen). */
  enter(slot: number, state: number, flags: number, t: number): void {
    this.u32[slot * STRIDE + META] = state | (flags << 8);
    this.f64[slot * D_STRIDE + LAST_SEEN] = this.f64[slot * D_STRIDE + SINCE] = t;
  }

  /** Moves the entry to `state` (unchanged: only `flags`) with `flags`, seen at `t`. */
  update(slot: number, state: number, flags: number, t: number): void {
    if (state !== this.state(slot)) this.f64[slot * D_STRIDE + SINCE] = t;
    this.u32[slot * STRIDE + META] = state | (flags << 8);
    this.f64[slot * D_STRIDE + LAST_SEEN] = t;
  }

  lastSeen(slot: number): number {
    return this.f64[slot * D_STRIDE + LAST_SEEN];
  }

  setLastSeen(slot: number, t: number): void {
    this.f64[slot * D_STRIDE + LAST_SEEN] = t;
  }

  /** when the entry entered its state (Challenged: the time of the challenge) */
  since(slot: number): number {
    return this.f64[slot * D_STRIDE + SINCE];
  }

  setSince(slot: number, t: number): void {
    this.f64[slot * D_STRIDE + SINCE] = t;
  }

  remoteIsn(slot: number): number {
    return this.u32[slot * STRIDE + REMOTE_ISN];
  }

  /** the remote side's initial sequence number and the next sequence number expected from it */
  setRemoteSeq(slot: number, isn: number, next: number): void {
    this.u32[slot * STRIDE + REMOTE_ISN] = isn;
    this.u32[slot * STRIDE + REMOTE_NEXT] = next;
  }

  remoteNext(slot: number): number {
    return this.u32[slot * STRIDE + REMOTE_NEXT];
  }

  setRemoteNext(slot: number, next: number): void {
    this.u32[slot * STRIDE + REMOTE_NEXT] = next;
  }

  localNext(slot: number): number {
    return this.u32[slot * STRIDE + LOCAL_NEXT];
  }

  /** the protected side's initial sequence number and the next sequence number expected from it */
  setLocalSeq(slot: number, isn: number, next: number): void {
    this.u32[slot * STRIDE + LOCAL_ISN] = isn;
    this.u32[slot * STRIDE + LOCAL_NEXT] = next;
  }

  /** the next sequence number expected from `side` (Side.REMOTE or Side.LOCAL) */
  next(slot: number, side: number): number {
    return this.u32[slot * STRIDE + REMOTE_NEXT + 2 * side];
  }

  setNext(slot: number, side: number, next: number): void {
    this.u32[slot * STRIDE + REMOTE_NEXT + 2 * side] = next;
  }

  /** `side`'s initial sequence number and the next sequence number expected from it */
  setSeq(slot: number, side: number, isn: number, next: number): void {
    this.u32[slot * STRIDE + REMOTE_ISN + 2 * side] = isn;
    this.u32[slot * STRIDE + REMOTE_NEXT + 2 * side] = next;
  }

  /** Sets the key of the packet's connection: ingress (remote = source) or egress (remote = destination). */
  setKey(rec: PacketRecord, ingress: boolean): void {
    const k = this.key;
    const remotePort = ingress ? rec.srcPort : rec.dstPort;
    const localPort = ingress ? rec.dstPort : rec.srcPort;
    k[0] = ((remotePort << 16) | localPort) >>> 0;
    if (rec.ipVersion === 4) {
      k[1] = ingress ? rec.src4 : rec.dst4;
      k[2] = ingress ? rec.dst4 : rec.src4;
      k[3] = 4;
      k[4] = k[5] = k[6] = k[7] = k[8] = k[9] = 0;
    } else {
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
    }
    const words = k[3] === 4 ? 4 : KEY_WORDS;
    let h = 0x9747b28c;
    for (let i = 0; i < words; i++) {
      h = Math.imul(h ^ k[i], 0xcc9e2d51);
      h ^= h >>> 15;
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    this.hash = h >>> 0;
  }

  private keyAt(slot: number): boolean {
    const k = this.key;
    const u = this.u32;
    const at = slot * STRIDE;
    if (u[at + HASH] !== this.hash || u[at] !== k[0] || u[at + 1] !== k[1] || u[at + 2] !== k[2] || u[at + 3] !== k[3]) return false;
    if (k[3] === 4) return true;
    for (let i = 4; i < KEY_WORDS; i++) if (u[at + i] !== k[i]) return false;
    return true;
  }

  private limit(state: number, flags: number): number {
    return state === State.CHALLENGED && (flags & Flag.AWAIT_RETRANSMIT) !== 0 ? this.timeouts[RETRANSMIT_WAIT] : this.timeouts[state];
  }

  // An entry past every timeout of its state (a Closing entry first spends closedSeconds as Closed).
  private dead(slot: number, now: number): boolean {
    const st = this.state(slot);
    const idle = now - this.lastSeen(slot);
    if (st === State.CLOSING) return idle > this.timeouts[State.CLOSING] + this.timeouts[State.CLOSED];
    return idle > this.limit(st, this.flags(slot));
  }

  // Applies idle expiry to an entry: Closing turns Closed, anything past its timeout is removed.
  private expired(slot: number, now: number): boolean {
    if (this.state(slot) === State.CLOSING && now - this.lastSeen(slot) > this.timeouts[State.CLOSING]) {
      const closed = this.lastSeen(slot) + this.timeouts[State.CLOSING];
      this.setLastSeen(slot, closed);
      this.setSince(slot, closed);
      this.setState(slot, State.CLOSED);
    }
    if (now - this.lastSeen(slot) <= this.limit(this.state(slot), this.flags(slot))) return false;
    this.remove(slot);
    return true;
  }

  /** The slot of the connection set by setKey(), or -1 (also when its entry had expired by `now`). */
  find(now: number): number {
    const mask = this.mask;
    for (let i = this.hash & mask; this.state(i) !== State.NONE; i = (i + 1) & mask) {
      if (this.keyAt(i)) return this.expired(i, now) ? -1 : i;
    }
    return -1;
  }

  /** The slot of the connection set by setKey(), or -1, expiring nothing (for explanations: no side effects). */
  peek(): number {
    const mask = this.mask;
    for (let i = this.hash & mask; this.state(i) !== State.NONE; i = (i + 1) & mask) if (this.keyAt(i)) return i;
    return -1;
  }

  /**
   * Creates the entry for the key set by setKey() (which must not be in the table) in `state`, and
   * returns its slot, or -1 when the table is full. The entry's other fields are zero.
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
      if (this.count * 8 > this.slots * 3) this.grow(now);
    }
    const mask = this.mask;
    let i = this.hash & mask;
    while (this.state(i) !== State.NONE && !this.dead(i, now)) i = (i + 1) & mask;
    if (this.state(i) === State.NONE) this.count++;
    const u = this.u32;
    const at = i * STRIDE;
    const k = this.key;
    for (let w = 0; w < KEY_WORDS; w++) u[at + w] = k[w];
    u[at + HASH] = this.hash;
    u[at + META] = state;
    u[at + REMOTE_ISN] = u[at + REMOTE_NEXT] = u[at + LOCAL_ISN] = u[at + LOCAL_NEXT] = 0;
    this.f64[i * D_STRIDE + LAST_SEEN] = this.f64[i * D_STRIDE + SINCE] = now;
    this.created++;
    if (this.count > this.peak) this.peak = this.count;
    return i;
  }

  /** Removes the entry in `slot`, shifting later entries of its probe run back. */
  remove(slot: number): void {
    const mask = this.mask;
    const u = this.u32;
    let hole = slot;
    let j = slot;
    u[hole * STRIDE + META] = State.NONE;
    this.count--;
    for (;;) {
      j = (j + 1) & mask;
      if (this.state(j) === State.NONE) return;
      const home = u[j * STRIDE + HASH] & mask;
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      u.copyWithin(hole * STRIDE, j * STRIDE, j * STRIDE + STRIDE);
      u[j * STRIDE + META] = State.NONE;
      hole = j;
    }
  }

  // Removes every expired entry. A removal refills the slot from later in its probe run, so the slot
  // is looked at again; removals are bounded by the entries, so the loop is too.
  private sweep(now: number): void {
    for (let i = 0; i < this.slots && this.count > 0; ) {
      if (this.state(i) === State.NONE || !this.expired(i, now)) i++;
    }
  }

  private grow(now: number): void {
    const old = this.u32;
    const oldSlots = this.slots;
    this.slots = oldSlots * 2;
    this.mask = this.slots - 1;
    this.u32 = new Uint32Array(this.slots * STRIDE);
    this.f64 = new Float64Array(this.u32.buffer);
    this.count = 0;
    for (let s = 0; s < oldSlots; s++) {
      if ((old[s * STRIDE + META] & 0xff) === State.NONE) continue;
      let i = old[s * STRIDE + HASH] & this.mask;
      while (this.state(i) !== State.NONE) i = (i + 1) & this.mask;
      for (let w = 0; w < STRIDE; w++) this.u32[i * STRIDE + w] = old[s * STRIDE + w];
      if (this.dead(i, now)) this.u32[i * STRIDE + META] = State.NONE;
      else this.count++;
    }
  }
}
