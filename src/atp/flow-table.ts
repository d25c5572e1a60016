// The connection table: one entry per TCP connection to a protected prefix, keyed by the
// connection's two endpoints seen from the protected side (remote address and port, local address
// and port), so both directions of a connection find the same entry.
//
// Floods create entries by the hundred thousand, so the table is built for bounded memory and no
// per-packet garbage: open addressing with linear probing over parallel typed arrays (a key is ten
// 32-bit words: ports, the IPv4 addresses or the first IPv6 words, the family, then the rest of the
// IPv6 words), deletion by backward shift (no tombstones), growth by doubling up to a capacity cap.
// Entries expire by idle time per state; expired entries are removed when a lookup meets them and by
// a small sweep on every insert, and a full sweep before the table would grow (so a flood of
// short-lived entries does not inflate it); Closing entries that time out become Closed (remembered
// for a while, so late packets are told apart from never-seen ones). When `maxFlows` entries are
// live the table refuses new ones and counts them as untracked rather than evicting live connections.
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

/** Index of `timeouts` for a Challenged entry with AWAIT_RETRANSMIT (the other indexes are states). */
export const RETRANSMIT_WAIT = 6;

const KEY_WORDS = 10;
const MIN_SLOTS = 1024;
const FULL_SWEEP_GAP = 1;

function nextPow2(n: number): number {
  let p = MIN_SLOTS;
  while (p < n) p *= 2;
  return p;
}

/** Connection entries in parallel arrays indexed by slot; re-read the arrays after insert() (it may grow them). */
export class FlowTable {
  slots = MIN_SLOTS;
  private mask = MIN_SLOTS - 1;
  private readonly maxSlots: number;
  count = 0;
  /** entries ever created, most entries live at once, connections refused because the table was full */
  created = 0;
  peak = 0;
  untracked = 0;

  keys = new Uint32Array(MIN_SLOTS * KEY_WORDS);
  hashes = new Uint32Array(MIN_SLOTS);
  state = new Uint8Array(MIN_SLOTS);
  flags = new Uint16Array(MIN_SLOTS);
  lastSeen = new Float64Array(MIN_SLOTS);
  /** when the entry entered its state (Challenged: the time of the challenge) */
  since = new Float64Array(MIN_SLOTS);
  remoteIsn = new Uint32Array(MIN_SLOTS);
  remoteNext = new Uint32Array(MIN_SLOTS);
  localIsn = new Uint32Array(MIN_SLOTS);
  localNext = new Uint32Array(MIN_SLOTS);

  private readonly key = new Uint32Array(KEY_WORDS);
  private hash = 0;
  private sweepAt = 0;
  private lastFullSweep = -Infinity;

  /** `timeouts[state]`: idle seconds after which an entry in that state expires; `timeouts[RETRANSMIT_WAIT]` for Challenged entries awaiting a retransmission. */
  constructor(
    readonly maxFlows: number,
    private readonly timeouts: Float64Array,
  ) {
    this.maxSlots = nextPow2(maxFlows * 2);
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
    const keys = this.keys;
    const at = slot * KEY_WORDS;
    if (keys[at] !== k[0] || keys[at + 1] !== k[1] || keys[at + 2] !== k[2] || keys[at + 3] !== k[3]) return false;
    if (k[3] === 4) return true;
    for (let i = 4; i < KEY_WORDS; i++) if (keys[at + i] !== k[i]) return false;
    return true;
  }

  private limit(state: number, flags: number): number {
    return state === State.CHALLENGED && (flags & Flag.AWAIT_RETRANSMIT) !== 0 ? this.timeouts[RETRANSMIT_WAIT] : this.timeouts[state];
  }

  // Applies idle expiry to a live entry: Closing turns Closed, anything past its timeout is removed.
  private expired(slot: number, now: number): boolean {
    const state = this.state;
    if (state[slot] === State.CLOSING && now - this.lastSeen[slot] > this.timeouts[State.CLOSING]) {
      this.lastSeen[slot] += this.timeouts[State.CLOSING];
      this.since[slot] = this.lastSeen[slot];
      state[slot] = State.CLOSED;
    }
    if (now - this.lastSeen[slot] <= this.limit(state[slot], this.flags[slot])) return false;
    this.remove(slot);
    return true;
  }

  /** The slot of the connection set by setKey(), or -1 (also when its entry had expired by `now`). */
  find(now: number): number {
    const state = this.state;
    const mask = this.mask;
    for (let i = this.hash & mask; state[i] !== State.NONE; i = (i + 1) & mask) {
      if (this.hashes[i] === this.hash && this.keyAt(i)) return this.expired(i, now) ? -1 : i;
    }
    return -1;
  }

  /**
   * Creates the entry for the key set by setKey() (which must not be in the table) in `state`, and
   * returns its slot, or -1 when the table is full. The entry's other fields are zero.
   */
  insert(now: number, state: number): number {
    this.sweep(now, 2);
    if (this.count >= this.maxFlows) {
      if (now - this.lastFullSweep >= FULL_SWEEP_GAP) {
        this.lastFullSweep = now;
        this.sweep(now, this.slots);
      }
      if (this.count >= this.maxFlows) {
        this.untracked++;
        return -1;
      }
    }
    if ((this.count + 1) * 2 > this.slots && this.slots < this.maxSlots) {
      this.sweep(now, this.slots);
      if (this.count * 8 > this.slots * 3) this.grow(now);
    }
    const mask = this.mask;
    let i = this.hash & mask;
    while (this.state[i] !== State.NONE) i = (i + 1) & mask;
    this.keys.set(this.key, i * KEY_WORDS);
    this.hashes[i] = this.hash;
    this.state[i] = state;
    this.flags[i] = 0;
    this.lastSeen[i] = now;
    this.since[i] = now;
    this.remoteIsn[i] = this.remoteNext[i] = this.localIsn[i] = this.localNext[i] = 0;
    this.count++;
    this.created++;
    if (this.count > this.peak) this.peak = this.count;
    return i;
  }

  /** Removes the entry in `slot`, shifting later entries of its probe run back. */
  remove(slot: number): void {
    const state = this.state;
    const mask = this.mask;
    let hole = slot;
    let j = slot;
    state[hole] = State.NONE;
    this.count--;
    for (;;) {
      j = (j + 1) & mask;
      if (state[j] === State.NONE) return;
      const home = this.hashes[j] & mask;
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      this.move(j, hole);
      state[j] = State.NONE;
      hole = j;
    }
  }

  private move(from: number, to: number): void {
    this.keys.copyWithin(to * KEY_WORDS, from * KEY_WORDS, from * KEY_WORDS + KEY_WORDS);
    this.hashes[to] = this.hashes[from];
    this.state[to] = this.state[from];
    this.flags[to] = this.flags[from];
    this.lastSeen[to] = this.lastSeen[from];
    this.since[to] = this.since[from];
    this.remoteIsn[to] = this.remoteIsn[from];
    this.remoteNext[to] = this.remoteNext[from];
    this.localIsn[to] = this.localIsn[from];
    this.localNext[to] = this.localNext[from];
  }

  // Moves a cursor over `n` slots, removing expired entries (a removal refills the slot, which is
  // then looked at again; removals are bounded by the entries, so the loop is too).
  private sweep(now: number, n: number): void {
    for (let passed = 0; passed < n && this.count > 0; ) {
      const i = this.sweepAt;
      if (this.state[i] === State.NONE || !this.expired(i, now)) {
        this.sweepAt = (i + 1) & this.mask;
        passed++;
      }
    }
  }

  private grow(now: number): void {
    const old = { keys: this.keys, hashes: this.hashes, state: this.state, flags: this.flags, lastSeen: this.lastSeen, since: this.since, remoteIsn: this.remoteIsn, remoteNext: this.remoteNext, localIsn: this.localIsn, localNext: this.localNext };
    const oldSlots = this.slots;
    const slots = oldSlots * 2;
    this.slots = slots;
    this.mask = slots - 1;
    this.keys = new Uint32Array(slots * KEY_WORDS);
    this.hashes = new Uint32Array(slots);
    this.state = new Uint8Array(slots);
    this.flags = new Uint16Array(slots);
    this.lastSeen = new Float64Array(slots);
    this.since = new Float64Array(slots);
    this.remoteIsn = new Uint32Array(slots);
    this.remoteNext = new Uint32Array(slots);
    this.localIsn = new Uint32Array(slots);
    this.localNext = new Uint32Array(slots);
    this.count = 0;
    this.sweepAt = 0;
    for (let s = 0; s < oldSlots; s++) {
      const st = old.state[s];
      if (st === State.NONE) continue;
      if (st !== State.CLOSING && now - old.lastSeen[s] > this.limit(st, old.flags[s])) continue;
      let i = old.hashes[s] & this.mask;
      while (this.state[i] !== State.NONE) i = (i + 1) & this.mask;
      for (let w = 0; w < KEY_WORDS; w++) this.keys[i * KEY_WORDS + w] = old.keys[s * KEY_WORDS + w];
      this.hashes[i] = old.hashes[s];
      this.state[i] = st;
      this.flags[i] = old.flags[s];
      this.lastSeen[i] = old.lastSeen[s];
      this.since[i] = old.since[s];
      this.remoteIsn[i] = old.remoteIsn[s];
      this.remoteNext[i] = old.remoteNext[s];
      this.localIsn[i] = old.localIsn[s];
      this.localNext[i] = old.localNext[s];
      this.count++;
    }
  }
}
