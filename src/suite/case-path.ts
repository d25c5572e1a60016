// The compiled path a suite's cases run on. The configuration is compiled once per suite; each case
// takes a run of its own over it (fresh Advanced TCP Protection state: a case's handshake must not
// depend on the cases before it), and its frames are decided by the same decideFrame a replay uses,
// on the decoder's lane (a case's trace reads every field). Looked-up fields a case gives
// (countries, ASNs, data center) replace the lookups' answers right after the lookups run (the run's
// overrides), so the firewall and ATP see them exactly where they would see GeoIP's.
import { STAGES } from '../atp/index.js';
import { Has, type PacketRecord } from '../capture/record.js';
import type { Frame } from '../capture/frame.js';
import { NOWHERE, type RuleLocator } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { IngressColos } from '../data/colos.js';
import type { Enrichment } from '../data/enrichment.js';
import { interned } from '../data/interned.js';
import type { Firewall } from '../firewall/firewall.js';
import { compilePath, type PathOptions } from '../sim/build.js';
import type { CompiledPath } from '../sim/compiled-path.js';
import { decideFrame } from '../sim/decide-frame.js';
import { Run } from '../sim/run.js';
import { refLocator, type RefLocator } from '../sim/rule-places.js';
import type { PacketVerdict } from '../sim/verdict.js';
import type { LookupOverrides } from './packet-spec.js';
import type { KnownRefs } from './verdict-expect.js';

/** The case's own values for looked-up fields, set after the path's lookups. */
class LookupOverride implements Enrichment {
  lookups: LookupOverrides = {};

  constructor(private readonly ingress: IngressColos) {}

  enrich(rec: PacketRecord): void {
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

/** A case's own run over the suite's compiled path: fresh protection state. */
export interface CasePath {
  run: Run;
  /** decides one frame, the case's values for looked-up fields set after the lookups */
  decide(frame: Frame, lookups: LookupOverrides): PacketVerdict;
}

/** The refs ATP names its rules and filters by in verdicts: the id, else the path in the snapshot. */
function atpRefs(snapshot: Snapshot): string[] {
  return STAGES.flatMap((component) =>
    (['rules', 'filters'] as const).flatMap((kind) => (snapshot[component]?.[kind] ?? []).map((item, i) => (typeof item.id === 'string' ? item.id : `${component}.${kind}[${i}]`))),
  );
}

/** The compiled configuration of a suite, over which each case takes a run of its own. */
export class SuitePaths {
  private constructor(
    readonly snapshot: Snapshot,
    readonly options: PathOptions,
    /** the compiled configuration (a replay on it takes a run of its own) */
    readonly path: CompiledPath,
    private readonly ingress: IngressColos,
    /** the refs expectations may name */
    readonly refs: KnownRefs,
    /** where a rule (by its ref) is written in the configuration's files, for failure reports */
    readonly placeOf: RefLocator,
  ) {}

  get firewall(): Firewall {
    return this.path.firewall;
  }

  get warnings(): string[] {
    return this.path.warnings;
  }

  /** Compiles the configuration; throws the compile errors of compilePath. `locate`: where its rules are written. */
  static async open(snapshot: Snapshot, options: PathOptions, locate: RuleLocator = NOWHERE): Promise<SuitePaths> {
    const path = await compilePath(snapshot, options);
    const refs = { deciding: [...path.firewall.rules.map((r) => r.ref), ...atpRefs(snapshot)], firewall: path.firewall.rules.map((r) => r.ref) };
    return new SuitePaths(snapshot, options, path, new IngressColos({ colo: options.colo, region: options.region }), refs, refLocator(snapshot, locate));
  }

  private spare: CasePath | null = null;
  /** the spare path's protection state changed: a TCP packet reached active ATP */
  private spareUsed = false;

  /**
   * A run with fresh protection state. Only a TCP packet changes ATP's state (connections, rates;
   * every case's first packet has the same time), so a run that saw none is handed out again rather
   * than made anew: a suite of thousands of UDP cases, or a configuration without active protection,
   * makes one run.
   */
  fresh(): CasePath {
    if (this.spare !== null && !this.spareUsed) return this.spare;
    const override = new LookupOverride(this.ingress);
    const run = new Run(this.path, { record: true });
    run.overrides = override;
    const active = run.protection !== null;
    this.spareUsed = false;
    const path = this.path;
    const made: CasePath = {
      run,
      decide: (frame, lookups) => {
        override.lookups = lookups;
        const v = decideFrame(frame, path, run);
        if (active && (v.record.present & Has.TCP) !== 0) this.spareUsed = true;
        return v;
      },
    };
    this.spare = made;
    return made;
  }
}
