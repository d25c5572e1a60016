// Fills the fields of a decoded packet that come from outside the packet: source and destination
// country (GeoIP), autonomous system numbers (when an ASN database is given) and the ingress data
// center and region. The pipeline switches on only the parts the configuration reads, each end
// (source, destination) on its own, since a GeoIP lookup costs far more than evaluating a rule. Unknown stays absent: a private address has no
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
  /** which fields to fill: ip.src.country, ip.dst.country; ip.src.asnum, ip.dst.asnum; cf.colo.name/region */
  need: { country?: Ends; asn?: Ends; colo?: boolean };
}

/** Which ends of a packet a lookup is needed for. */
export interface Ends {
  src: boolean;
  dst: boolean;
}

const NEITHER: Ends = { src: false, dst: false };

/** Sets the enrichment fields of a decoded packet in place. */
export interface Enrichment {
  enrich(rec: PacketRecord): void;
}

class PacketEnrichment implements Enrichment {
  constructor(
    private readonly countries: CountryDb | undefined,
    private readonly country: Ends,
    private readonly asns: AsnDb | undefined,
    private readonly asn: Ends,
    private readonly ingress: IngressColos | undefined,
  ) {}

  /** Looks up the packet's fields; called by the packet path for IP packets only. */
  enrich(rec: PacketRecord): void {
    const v4 = rec.ipVersion === 4;
    const countries = this.countries;
    // the source country also chooses the ingress data center
    const srcCountry = countries !== undefined && (this.country.src || this.ingress !== undefined) ? (v4 ? countries.country4(rec.src4) : countries.country6(rec.src6)) : null;
    if (this.country.src && srcCountry !== null) {
      rec.srcCountry = srcCountry;
      rec.present |= Has.SRC_COUNTRY;
    }
    if (countries !== undefined && this.country.dst) {
      const dst = v4 ? countries.country4(rec.dst4) : countries.country6(rec.dst6);
      if (dst !== null) {
        rec.dstCountry = dst;
        rec.present |= Has.DST_COUNTRY;
      }
    }
    const asns = this.asns;
    if (asns !== undefined && this.asn.src) {
      const src = v4 ? asns.asn4(rec.src4) : asns.asn6(rec.src6);
      if (src !== 0) {
        rec.srcAsn = src;
        rec.present |= Has.SRC_ASN;
      }
    }
    if (asns !== undefined && this.asn.dst) {
      const dst = v4 ? asns.asn4(rec.dst4) : asns.asn6(rec.dst6);
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
  const country = opts.need.country ?? NEITHER;
  const asn = opts.need.asn ?? NEITHER;
  const countriesNeeded = country.src || country.dst || (ingress !== undefined && opts.colo === undefined);
  const [countries, asns] = await Promise.all([
    countriesNeeded ? CountryDb.open(opts.geoipPath) : undefined,
    (asn.src || asn.dst) && opts.asnPath !== undefined ? AsnDb.open(opts.asnPath) : undefined,
  ]);
  return new PacketEnrichment(countries, country, asns, asn, ingress);
}
