// What the dropped packets were: by the firewall rule that blocked them, by the reason an ATP
// component gave, and the addresses that sent or received the most of them. Addresses are counted
// with bounded memory (heavy-hitters.ts), exactly while few distinct addresses were seen; counting
// a drop allocates nothing.
//
// Top addresses depend on the order drops come in (counters are taken over), so a part of a capture
// counted on another thread (sim/jobs/) does not count them: it keeps its drops' addresses in order
// (`parts`), and the thread that adds the parts in capture order counts them (`absorb`).
import { REASONS, STAGES, type AtpStage, type MitigationReason } from '../atp/vocabulary.js';
import type { PacketRecord } from '../capture/record.js';
import type { Firewall } from '../firewall/firewall.js';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';
import { HeavyHitters } from './heavy-hitters.js';
import type { PacketVerdict } from './verdict.js';

/** How many addresses each top list reports. */
export const TOP_ADDRESSES = 20;

export interface TopAddress {
  address: string;
  packets: number;
  /** how much `packets` may overstate the true count (0: exact) */
  error: number;
}

export interface TopAddresses {
  /** true: every count is exact; false: counts are estimates within their `error` */
  exact: boolean;
  entries: TopAddress[];
}

export interface DropReport {
  /** packets each firewall rule dropped (block rules that decided at least one packet), most first */
  byRule: Array<{ rule: string; ruleset: string; packets: number }>;
  /** packets each stage dropped, by reason: ATP's mitigation reason, or `block` for the firewall */
  byReason: Array<{ stage: 'firewall' | AtpStage; reason: MitigationReason | 'block'; packets: number }>;
  topSources: TopAddresses;
  topDestinations: TopAddresses;
}

/**
 * A part's drops as plain data: ATP's counts, and each dropped packet's source and destination in
 * order: an IPv4 drop as two words in `v4`, an IPv6 drop as eight in `v6`, bit i of `isV6` saying
 * which the i-th drop is (a drop without IP keeps nothing).
 */
export interface DropParts {
  atp: Float64Array;
  drops: number;
  v4: Int32Array;
  v6: Int32Array;
  isV6: Uint8Array;
}

/** A growable log of a part's dropped packets' addresses, in order (8 bytes an IPv4 drop). */
class AddressLog {
  drops = 0;
  v4 = new Int32Array(1024);
  v4Used = 0;
  v6 = new Int32Array(64);
  v6Used = 0;
  isV6 = new Uint8Array(128);

  add(rec: PacketRecord): void {
    const i = this.drops++;
    if (i >> 3 >= this.isV6.length) this.isV6 = grown(this.isV6, this.isV6.length * 2);
    if (rec.ipVersion === 4) {
      if (this.v4Used + 2 > this.v4.length) this.v4 = grown(this.v4, this.v4.length * 2);
      this.v4[this.v4Used++] = rec.src4;
      this.v4[this.v4Used++] = rec.dst4;
    } else {
      if (this.v6Used + 8 > this.v6.length) this.v6 = grown(this.v6, this.v6.length * 2);
      this.v6.set(rec.src6, this.v6Used);
      this.v6.set(rec.dst6, this.v6Used + 4);
      this.v6Used += 8;
      this.isV6[i >> 3] |= 1 << (i & 7);
    }
  }
}

function grown<T extends Int32Array | Uint8Array>(a: T, length: number): T {
  const bigger = new (a.constructor as new (n: number) => T)(length);
  bigger.set(a);
  return bigger;
}

export class DropBreakdown {
  /** ATP drops at [stage * REASONS.length + reason index] */
  private readonly atp = new Float64Array(STAGES.length * REASONS.length);
  private readonly sources: HeavyHitters;
  private readonly destinations: HeavyHitters;
  /** a part's drops' addresses, in order, instead of counting them (null: count them) */
  private readonly log: AddressLog | null;

  constructor(opts: { keepAddresses?: boolean } = {}) {
    this.log = opts.keepAddresses ? new AddressLog() : null;
    // a part keeping its addresses never counts them: no counters to make
    this.sources = new HeavyHitters(opts.keepAddresses ? 1 : undefined);
    this.destinations = new HeavyHitters(opts.keepAddresses ? 1 : undefined);
  }

  /** Counts one dropped packet. */
  add(rec: PacketRecord, v: PacketVerdict): void {
    if (v.stage !== 'firewall' && v.stage !== null && v.reason !== null) {
      this.atp[STAGES.indexOf(v.stage) * REASONS.length + REASONS.indexOf(v.reason)]++;
    }
    if (this.log !== null) {
      if (rec.ipVersion !== 0) this.log.add(rec);
      return;
    }
    if (rec.ipVersion === 4) {
      // as 32-bit signed integers, which V8 passes without boxing (the counters store them unsigned)
      this.sources.add(0, 0, 0xffff, rec.src4 | 0);
      this.destinations.add(0, 0, 0xffff, rec.dst4 | 0);
    } else if (rec.ipVersion === 6) {
      const s = rec.src6;
      const d = rec.dst6;
      this.sources.add(s[0] | 0, s[1] | 0, s[2] | 0, s[3] | 0);
      this.destinations.add(d[0] | 0, d[1] | 0, d[2] | 0, d[3] | 0);
    }
  }

  /** This part's counts and kept addresses (see the constructor's keepAddresses). */
  parts(): DropParts {
    const log = this.log;
    if (log === null) return { atp: this.atp.slice(), drops: 0, v4: new Int32Array(0), v6: new Int32Array(0), isV6: new Uint8Array(0) };
    return { atp: this.atp.slice(), drops: log.drops, v4: log.v4.slice(0, log.v4Used), v6: log.v6.slice(0, log.v6Used), isV6: log.isV6.slice(0, (log.drops + 7) >> 3) };
  }

  /** Adds a later part of the capture: its ATP counts, and its drops' addresses counted in order. */
  absorb(p: DropParts): void {
    for (let i = 0; i < this.atp.length; i++) this.atp[i] += p.atp[i]!;
    let j4 = 0;
    let j6 = 0;
    for (let i = 0; i < p.drops; i++) {
      if ((p.isV6[i >> 3]! & (1 << (i & 7))) === 0) {
        this.sources.add(0, 0, 0xffff, p.v4[j4]!);
        this.destinations.add(0, 0, 0xffff, p.v4[j4 + 1]!);
        j4 += 2;
      } else {
        const w = p.v6;
        this.sources.add(w[j6]!, w[j6 + 1]!, w[j6 + 2]!, w[j6 + 3]!);
        this.destinations.add(w[j6 + 4]!, w[j6 + 5]!, w[j6 + 6]!, w[j6 + 7]!);
        j6 += 8;
      }
    }
  }

  report(firewall: Firewall): DropReport {
    const byRule = firewall.rules
      .map((r, i) => ({ rule: r.ref, ruleset: r.ruleset, packets: r.action === 'block' ? firewall.decided[i] : 0 }))
      .filter((r) => r.packets > 0)
      .sort((a, b) => b.packets - a.packets);
    const byReason: DropReport['byReason'] = [];
    const firewallDrops = byRule.reduce((sum, r) => sum + r.packets, 0);
    if (firewallDrops > 0) byReason.push({ stage: 'firewall', reason: 'block', packets: firewallDrops });
    STAGES.forEach((stage, s) =>
      REASONS.forEach((reason, k) => {
        const packets = this.atp[s * REASONS.length + k];
        if (packets > 0) byReason.push({ stage, reason, packets });
      }),
    );
    byReason.sort((a, b) => b.packets - a.packets);
    return { byRule, byReason, topSources: topAddresses(this.sources), topDestinations: topAddresses(this.destinations) };
  }
}

function topAddresses(counter: HeavyHitters): TopAddresses {
  return {
    exact: !counter.evicted,
    entries: counter.top(TOP_ADDRESSES).map((h) => ({ address: formatAddress(h.key), packets: h.count, error: h.error })),
  };
}

function formatAddress(w: Uint32Array): string {
  return w[0] === 0 && w[1] === 0 && w[2] === 0xffff ? formatIPv4(w[3]) : formatIPv6(w);
}
