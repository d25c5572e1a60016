// What the dropped packets were: by the firewall rule that blocked them, by the reason an ATP
// component gave, and the addresses that sent or received the most of them. Addresses are counted
// with bounded memory (heavy-hitters.ts), exactly while few distinct addresses were seen; counting
// a drop allocates nothing.
//
// Top addresses depend on the order drops come in (counters are taken over), so a part of a capture
// counted on another thread (sim/jobs/) does not count them: it keeps its drops' addresses in order
// (`parts`), and the thread that adds the parts in capture order counts them (`absorb`).
import { REASONS, STAGES, type AtpStage, type MitigationReason } from '../atp/vocabulary.js';
import type { Firewall, RuleCounts } from '../firewall/firewall.js';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';
import { AddressLog, countAddressLog, type AddressLogOptions, type AddressLogParts } from './address-log.js';
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

/** A part's drops as plain data: ATP's counts, and each dropped packet's addresses in order (a drop without IP keeps nothing). */
export interface DropParts {
  atp: Float64Array;
  addresses: AddressLogParts | null;
}

export class DropBreakdown {
  /** ATP drops at [stage * REASONS.length + reason index] */
  private readonly atp = new Float64Array(STAGES.length * REASONS.length);
  private readonly sources: HeavyHitters;
  private readonly destinations: HeavyHitters;
  /** a part's drops' addresses, in order, instead of counting them (null: count them) */
  private readonly log: AddressLog | null;

  /** `keepAddresses`: this breakdown is a part's, which keeps its drops' addresses in a log instead of counting them */
  constructor(opts: { keepAddresses?: AddressLogOptions } = {}) {
    const keep = opts.keepAddresses;
    this.log = keep === undefined ? null : new AddressLog(keep);
    // a part keeping its addresses never counts them: no counters to make
    this.sources = new HeavyHitters(keep === undefined ? undefined : 1);
    this.destinations = new HeavyHitters(keep === undefined ? undefined : 1);
  }

  /** Counts one dropped packet. */
  add(v: PacketVerdict): void {
    const rec = v.record;
    const atp = v.atp;
    if (atp.drop) this.atp[atp.stageCode * REASONS.length + atp.reasonCode - 1]++;
    if (this.log !== null) {
      if (rec.ipVersion === 4) this.log.addV4(rec.src4, rec.dst4);
      else if (rec.ipVersion === 6) this.log.addV6(rec.src6, rec.dst6);
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

  /** This part's counts and kept addresses (see the constructor's keepAddresses); the part is finished. */
  parts(): DropParts {
    return { atp: this.atp.slice(), addresses: this.log === null ? null : this.log.parts() };
  }

  /** Adds a later part of the capture: its ATP counts, and its drops' addresses counted in order (then let go). */
  absorb(p: DropParts): void {
    for (let i = 0; i < this.atp.length; i++) this.atp[i] += p.atp[i]!;
    if (p.addresses === null) return;
    const sources = this.sources;
    const destinations = this.destinations;
    countAddressLog(p.addresses, (sa, sb, sc, sd, da, db, dc, dd) => {
      sources.add(sa, sb, sc, sd);
      destinations.add(da, db, dc, dd);
    });
    // a part is added once: its chunks are let go now rather than when the whole replay ends
    p.addresses.chunks.length = 0;
  }

  /** The report; `counts`: the run's counts of `firewall`'s rules. */
  report(firewall: Firewall, counts: RuleCounts): DropReport {
    const byRule = firewall.rules
      .map((r, i) => ({ rule: r.ref, ruleset: r.ruleset, packets: r.action === 'block' ? counts.decided[i]! : 0 }))
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
