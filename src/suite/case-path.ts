// The packet path a suite's packet cases run on. The configuration is compiled once per suite; each
// case gets fresh Advanced TCP Protection state (a case's handshake must not depend on the cases
// before it), and its packets go through the same PacketPath a replay uses. Looked-up fields a case
// gives (countries, ASNs, data center) replace the lookups' answers right after the lookups run, so
// the firewall and ATP see them exactly where they would see GeoIP's.
import { AdvancedTcpProtection } from '../atp/index.js';
import { Has, type PacketRecord } from '../capture/record.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { IngressColos } from '../data/colos.js';
import type { Enrichment } from '../data/enrichment.js';
import { interned } from '../data/interned.js';
import type { Firewall } from '../firewall/firewall.js';
import { buildPacketPath, type BuiltPath, type PathOptions, type PathSetup } from '../sim/build.js';
import { PacketPath } from '../sim/packet-path.js';
import { refLocator, type RefLocator } from '../sim/rule-places.js';
import type { PacketVerdict } from '../sim/verdict.js';
import type { LookupOverrides } from './packet-spec.js';
import type { KnownRefs } from './verdict-expect.js';

/** The lookups, then the case's own values for looked-up fields. */
class LookupOverride implements Enrichment {
  lookups: LookupOverrides = {};

  constructor(
    private readonly inner: Enrichment | undefined,
    private readonly ingress: IngressColos,
  ) {}

  enrich(rec: PacketRecord): void {
    this.inner?.enrich(rec);
    const o = this.lookups;
    // ip.geoip.country stands for the source or the destination country: it sets the source's,
    // or the destination's when the source country is given too
    const src = o.srcCountry ?? o.geoipCountry;
    const dst = o.dstCountry ?? (o.srcCountry !== undefined ? o.geoipCountry : undefined);
    if (src !== undefined) {
      rec.srcCountry = interned(src);
      rec.present |= Has.SRC_COUNTRY;
      // the ingress data center follows the source country, as the lookups choose it
      if ((rec.present & Has.COLO_NAME) !== 0 && o.coloName === undefined && o.coloRegion === undefined) {
        const colo = this.ingress.forCountry(rec.srcCountry);
        rec.coloName = colo.name;
        rec.coloRegion = colo.region;
      }
    }
    if (dst !== undefined) {
      rec.dstCountry = interned(dst);
      rec.present |= Has.DST_COUNTRY;
    }
    if (o.srcAsn !== undefined) {
      rec.srcAsn = o.srcAsn;
      rec.present |= Has.SRC_ASN;
    }
    if (o.dstAsn !== undefined) {
      rec.dstAsn = o.dstAsn;
      rec.present |= Has.DST_ASN;
    }
    if (o.coloName !== undefined) {
      rec.coloName = interned(o.coloName);
      rec.present |= Has.COLO_NAME;
    }
    if (o.coloRegion !== undefined) {
      rec.coloRegion = interned(o.coloRegion);
      rec.present |= Has.COLO_REGION;
    }
  }
}

/** A case's own path: fresh protection state over the suite's compiled configuration. */
export interface CasePath {
  path: PacketPath;
  verdict: PacketVerdict;
  /** the path's protection, or null when it is not active */
  atp: AdvancedTcpProtection | null;
  /** decides one packet (its looked-up values set first) */
  process(rec: PacketRecord, lookups: LookupOverrides): void;
}

/** The refs ATP names its rules and filters by in verdicts: the id, else the path in the snapshot. */
function atpRefs(snapshot: Snapshot): string[] {
  return (['syn_protection', 'tcp_flow_protection'] as const).flatMap((component) =>
    (['rules', 'filters'] as const).flatMap((kind) => (snapshot[component]?.[kind] ?? []).map((item, i) => (typeof item.id === 'string' ? item.id : `${component}.${kind}[${i}]`))),
  );
}

/** The compiled configuration of a suite, from which each packet case gets its own path. */
export class SuitePaths {
  private constructor(
    readonly snapshot: Snapshot,
    readonly options: PathOptions,
    /** the compiled configuration (a replay over it starts from withFreshState) */
    readonly built: BuiltPath & { setup: PathSetup },
    private readonly ingress: IngressColos,
    /** the refs expectations may name */
    readonly refs: KnownRefs,
    /** where a rule (by its ref) is written in the configuration's files, for failure reports */
    readonly placeOf: RefLocator,
  ) {}

  get firewall(): Firewall {
    return this.built.firewall;
  }

  get warnings(): string[] {
    return this.built.warnings;
  }

  private get enrichment(): Enrichment | undefined {
    return this.built.enrichment;
  }

  /** Compiles the configuration; throws the compile errors of buildPacketPath. `locate`: where its rules are written. */
  static async open(snapshot: Snapshot, options: PathOptions, locate: RuleLocator = NOWHERE): Promise<SuitePaths> {
    const built = await buildPacketPath(snapshot, options);
    const refs = { deciding: [...built.firewall.rules.map((r) => r.ref), ...atpRefs(snapshot)], firewall: built.firewall.rules.map((r) => r.ref) };
    return new SuitePaths(snapshot, options, built, new IngressColos({ colo: options.colo, region: options.region }), refs, refLocator(snapshot, locate));
  }

  private spare: CasePath | null = null;
  /** the spare path's protection state changed: a TCP packet reached active ATP */
  private spareUsed = false;

  /**
   * A path with fresh protection state. Only a TCP packet changes ATP's state (connections, rates;
   * every case's first packet has the same time), so a path that saw none is handed out again rather
   * than rebuilt: a suite of thousands of UDP cases, or a configuration without active protection,
   * compiles ATP once.
   */
  fresh(): CasePath {
    if (this.spare !== null && !this.spareUsed) return this.spare;
    const atp = AdvancedTcpProtection.fromSnapshot(this.snapshot, this.options.atp);
    const override = new LookupOverride(this.enrichment, this.ingress);
    const path = new PacketPath({ enrichment: override, atp, firewall: this.firewall });
    const verdict = path.newVerdict();
    const active = atp.active;
    this.spareUsed = false;
    const made: CasePath = {
      path,
      verdict,
      atp: active ? atp : null,
      process: (rec, lookups) => {
        override.lookups = lookups;
        path.process(rec, verdict);
        if (active && (rec.present & Has.TCP) !== 0) this.spareUsed = true;
      },
    };
    this.spare = made;
    return made;
  }
}
