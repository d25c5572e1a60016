// The packet path of DESIGN.md for one decoded packet: enrichment (GeoIP, ASN, data center) ->
// Advanced TCP Protection -> network firewall -> verdict. The DDoS protections come first and a
// packet they drop never reaches the firewall, as in the vendor's documented order.
import type { AdvancedTcpProtection } from '../atp/index.js';
import { Has, type PacketRecord } from '../capture/record.js';
import type { Enrichment } from '../data/enrichment.js';
import type { Firewall } from '../firewall/firewall.js';
import { PacketVerdict } from './verdict.js';

export interface PathStages {
  enrichment?: Enrichment;
  atp?: AdvancedTcpProtection;
  firewall: Firewall;
}

export class PacketPath {
  private readonly enrichment: Enrichment | undefined;
  private readonly atp: AdvancedTcpProtection | undefined;
  readonly firewall: Firewall;

  constructor(stages: PathStages) {
    this.enrichment = stages.enrichment;
    this.atp = stages.atp?.active ? stages.atp : undefined;
    this.firewall = stages.firewall;
  }

  /** whether Advanced TCP Protection inspects packets on this path */
  get protects(): boolean {
    return this.atp !== undefined;
  }

  newVerdict(): PacketVerdict {
    return new PacketVerdict(this.firewall.newResult());
  }

  /** Decides one packet into `v` (which is reset first). */
  process(rec: PacketRecord, v: PacketVerdict): void {
    v.reset();
    // a frame without IP (ARP, LLDP, a broken IP header) is outside both stages: it passes uninspected
    if ((rec.present & Has.IP) === 0) return;
    if (this.enrichment !== undefined) this.enrichment.enrich(rec);
    if (this.atp !== undefined) {
      this.atp.inspect(rec, v.atp);
      if (v.atp.drop) {
        v.setFromAtp();
        return;
      }
    }
    this.firewall.evaluate(rec, v.firewall);
    if (v.firewall.drop) v.setFirewallDrop();
  }

  /**
   * Decides a packet whose firewall result the fast path has already written into `v.firewall` and
   * counted, and whose record holds what ATP reads (fastpath/protection-decoding.ts): ATP comes
   * first, as in process(), and when it drops the packet the firewall's result and counts are
   * taken back, as if the packet had never reached the firewall.
   */
  processDecided(rec: PacketRecord, v: PacketVerdict): void {
    v.setFromFirewall();
    if (this.atp === undefined || (rec.present & Has.IP) === 0) return;
    this.atp.inspect(rec, v.atp);
    if (!v.atp.drop) return;
    const fw = v.firewall;
    const hits = this.firewall.hits;
    for (let i = 0; i < fw.matchedCount; i++) hits[fw.matched[i]]--;
    if (fw.decidingRule >= 0) this.firewall.decided[fw.decidingRule]--;
    fw.drop = false;
    fw.decidingRule = -1;
    fw.matchedCount = 0;
    v.setFromAtp();
  }
}
