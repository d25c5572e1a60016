// Fills the fields of a decoded packet that come from outside the packet: source and destination
// country (GeoIP), autonomous system numbers (when an ASN database is given) and the ingress data
// center and region. The pipeline switches on only the parts the configuration reads, since a GeoIP
// lookup costs far more than evaluating a rule. Unknown stays absent: a private address has no
// country, so its Has bit stays clear and every comparison on it is false (except `!=`).

import { Has, type PacketRecord } from '../capture/record.js';
import { IngressColos } from './colos.js';
import { AsnDb, CountryDb } from './geoip.js';

/** What createEnrichment sets up. */
export interface EnrichmentOptions {
  /** a MaxMind-format country database instead of the bundled one */
  geoipPath?: string;
  /** a GeoLite2-ASN style database; without it ASN fields stay absent */
  asnPath?: string;
  /** force every packet's ingress data center (its region follows) */
  colo?: string;
  /** force every packet's ingress region */
  region?: string;
  /** which fields to fill: ip.src/dst.country; ip.src/dst.asnum; cf.colo.name/region */
  need: { country?: boolean; asn?: boolean; colo?: boolean };
}

/** Sets the enrichment fields of a decoded packet in place. */
export interface Enrichment {
  enrich(rec: PacketRecord): void;
}

class PacketEnrichment implements Enrichment {
  constructor(
    private readonly countries: CountryDb | undefined,
    private readonly setCountry: boolean,
    private readonly asns: AsnDb | undefined,
    private readonly ingress: IngressColos | undefined,
  ) {}

  /** Looks up the packet's fields; called by the packet path for IP packets only. */
  enrich(rec: PacketRecord): void {
    const v4 = rec.ipVersion === 4;
    let srcCountry: Uint8Array | null = null;
    if (this.countries !== undefined) {
      srcCountry = v4 ? this.countries.country4(rec.src4) : this.countries.country6(rec.src6);
      if (this.setCountry) {
        const dst = v4 ? this.countries.country4(rec.dst4) : this.countries.country6(rec.dst6);
        if (srcCountry !== null) {
          rec.srcCountry = srcCountry;
          rec.present |= Has.SRC_COUNTRY;
        }
        if (dst !== null) {
          rec.dstCountry = dst;
          rec.present |= Has.DST_COUNTRY;
        }
      }
    }
    if (this.asns !== undefined) {
      const src = v4 ? this.asns.asn4(rec.src4) : this.asns.asn6(rec.src6);
      const dst = v4 ? this.asns.asn4(rec.dst4) : this.asns.asn6(rec.dst6);
      if (src !== 0) {
        rec.srcAsn = src;
        rec.present |= Has.SRC_ASN;
      }
      if (dst !== 0) {
        rec.dstAsn = dst;
        rec.present |= Has.DST_ASN;
      }
    }
    if (this.ingress !== undefined) {
      const colo = this.ingress.forCountry(srcCountry);
      rec.coloName = colo.name;
      rec.coloRegion = colo.region;
      rec.present |= Has.COLO_NAME | Has.COLO_REGION;
    }
  }
}

/**
 * Opens the databases the options need (the country database also when data centers are chosen by
 * source country) and checks the colo/region overrides. Throws DataError naming a bad file or name.
 */
export async function createEnrichment(opts: EnrichmentOptions): Promise<Enrichment> {
  const ingress = opts.need.colo ? new IngressColos({ colo: opts.colo, region: opts.region }) : undefined;
  const countriesNeeded = opts.need.country === true || (ingress !== undefined && opts.colo === undefined);
  const [countries, asns] = await Promise.all([
    countriesNeeded ? CountryDb.open(opts.geoipPath) : undefined,
    opts.need.asn && opts.asnPath !== undefined ? AsnDb.open(opts.asnPath) : undefined,
  ]);
  return new PacketEnrichment(countries, opts.need.country === true, asns, ingress);
}
