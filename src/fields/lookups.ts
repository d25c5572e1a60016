// The fields whose values come from a lookup rather than from the capture: countries (GeoIP), AS
// numbers (an ASN database given with --asn) and the ingress data center and region. A packet is
// enriched only with what the expressions read: a GeoIP lookup costs about a microsecond, so a
// ruleset that never mentions a country skips them.
import { createEnrichment, type Enrichment } from '../data/enrichment.js';
import { FIELD_REGISTRY, lookupOf, type Lookup } from '../field-registry.js';

const fieldsFrom = (lookup: Lookup): readonly string[] => FIELD_REGISTRY.filter((f) => lookupOf(f) === lookup).map((f) => f.name);

export const COUNTRY_FIELDS = fieldsFrom('country');
export const ASN_FIELDS = fieldsFrom('asn');
export const COLO_FIELDS = fieldsFrom('colo');
/** every field whose value comes from a lookup rather than from the capture */
export const LOOKUP_FIELDS: ReadonlySet<string> = new Set([...COUNTRY_FIELDS, ...ASN_FIELDS, ...COLO_FIELDS]);

export interface LookupOptions {
  /** a MaxMind-format country database instead of the bundled one */
  geoipPath?: string;
  /** a MaxMind-format ASN database (ip.src.asnum / ip.dst.asnum are absent without one) */
  asnPath?: string;
  /** force every packet's ingress data center / region */
  colo?: string;
  region?: string;
}

/**
 * The enrichment that expressions reading `fields` need (plus data centers when protection rules are
 * scoped by region or data center), or undefined when they need none. What the user should know
 * (an ASN field read without an ASN database) is added to `warnings`.
 */
export async function enrichmentFor(fields: ReadonlySet<string>, readsIngress: boolean, opts: LookupOptions, warnings: string[]): Promise<Enrichment | undefined> {
  const uses = (names: readonly string[]) => names.some((f) => fields.has(f));
  const need = {
    // data centers are chosen from the source country; createEnrichment opens GeoIP for that itself
    country: { src: fields.has('ip.src.country'), dst: fields.has('ip.dst.country') },
    asn: { src: fields.has('ip.src.asnum'), dst: fields.has('ip.dst.asnum') },
    // a data center named on the command line is looked up (and validated) even when no rule reads it
    colo: uses(COLO_FIELDS) || readsIngress || opts.colo !== undefined || opts.region !== undefined,
  };
  if (uses(ASN_FIELDS) && opts.asnPath === undefined) {
    warnings.push('the expressions read ip.src.asnum / ip.dst.asnum but no ASN database was given (--asn FILE): those fields are absent');
    need.asn = { src: false, dst: false };
  }
  if (!need.country.src && !need.country.dst && !need.asn.src && !need.asn.dst && !need.colo) return undefined;
  return createEnrichment({ geoipPath: opts.geoipPath, asnPath: opts.asnPath, colo: opts.colo, region: opts.region, need });
}
