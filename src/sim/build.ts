// Builds the packet path for a configuration snapshot: resolves lists, compiles the firewall and
// Advanced TCP Protection, and switches on only the enrichment the configuration reads (GeoIP
// lookups cost about a microsecond each, so a ruleset that never mentions a country skips them).
import { AdvancedTcpProtection, type AtpOptionsInput } from '../atp/index.js';
import type { Snapshot } from '../config/snapshot.js';
import { createEnrichment, type Enrichment } from '../data/enrichment.js';
import { createListRegistry } from '../data/lists.js';
import { Firewall } from '../firewall/firewall.js';
import { PacketPath } from './packet-path.js';

export interface PathOptions {
  /** a MaxMind-format country database instead of the bundled one */
  geoipPath?: string;
  /** a MaxMind-format ASN database (ip.src.asnum / ip.dst.asnum are absent without one) */
  asnPath?: string;
  /** a folder of managed-list feeds replacing the bundled samples */
  listsDir?: string;
  /** force every packet's ingress data center / region */
  colo?: string;
  region?: string;
  atp?: AtpOptionsInput;
}

export interface BuiltPath {
  path: PacketPath;
  firewall: Firewall;
  atp: AdvancedTcpProtection;
  /** the lookups the path makes (undefined when the configuration reads no looked-up field) */
  enrichment: Enrichment | undefined;
  /** things the user should know before reading the results */
  warnings: string[];
}

const COUNTRY_FIELDS = ['ip.src.country', 'ip.dst.country', 'ip.geoip.country'];
const ASN_FIELDS = ['ip.src.asnum', 'ip.dst.asnum'];
const COLO_FIELDS = ['cf.colo.name', 'cf.colo.region'];
/** every field whose value comes from a lookup rather than from the capture */
export const LOOKUP_FIELDS: ReadonlySet<string> = new Set([...COUNTRY_FIELDS, ...ASN_FIELDS, ...COLO_FIELDS]);

export async function buildPacketPath(snapshot: Snapshot, opts: PathOptions = {}): Promise<BuiltPath> {
  const warnings: string[] = [];
  const lists = createListRegistry({ dir: opts.listsDir, accountLists: snapshot.lists });
  const firewall = Firewall.compile(snapshot.rulesets ?? [], { lists: (name) => lists.resolve(name) });
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot, opts.atp);

  const enrichment = await enrichmentFor(firewall.fields, atp.readsIngress, opts, warnings);
  return { path: new PacketPath({ enrichment, atp, firewall }), firewall, atp, enrichment, warnings };
}

/**
 * The enrichment that expressions reading `fields` need (plus data centers when protection rules are
 * scoped by region or data center), or undefined when they need none.
 */
export async function enrichmentFor(fields: ReadonlySet<string>, readsIngress: boolean, opts: PathOptions, warnings: string[]): Promise<Enrichment | undefined> {
  const uses = (names: string[]) => names.some((f) => fields.has(f));
  const need = {
    // data centers are chosen from the source country; createEnrichment opens GeoIP for that itself
    country: uses(COUNTRY_FIELDS),
    asn: uses(ASN_FIELDS),
    // a data center named on the command line is looked up (and validated) even when no rule reads it
    colo: uses(COLO_FIELDS) || readsIngress || opts.colo !== undefined || opts.region !== undefined,
  };
  if (need.asn && opts.asnPath === undefined) {
    warnings.push('the expressions read ip.src.asnum / ip.dst.asnum but no ASN database was given (--asn FILE): those fields are absent');
    need.asn = false;
  }
  if (!need.country && !need.asn && !need.colo) return undefined;
  return createEnrichment({ geoipPath: opts.geoipPath, asnPath: opts.asnPath, colo: opts.colo, region: opts.region, need });
}
