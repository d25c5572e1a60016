// Data centers (colos) and regions, for cf.colo.name / cf.colo.region and for Advanced TCP
// Protection rules scoped to a region or a data center. A packet enters the network at a data
// center near its SOURCE, so the ingress colo is chosen from the source country through the table in
// datasets/colos.json (every ISO 3166-1 country -> its nearest simulated colo; an unknown country,
// e.g. a private address, -> the default colo). The vendor publishes no complete list, so the set is
// ours: see datasets/README.md.
//
// Overrides, for replaying a capture "as if it arrived in Frankfurt": `colo` forces one data center
// (its region follows); `region` forces the region, keeping the country's colo when it is in that
// region and otherwise taking the region's first colo, so name and region always agree.

import { readDataset } from './datasets.js';
import { DataError } from './errors.js';
import { interned } from './interned.js';

/** A simulated data center. */
export interface Colo {
  /** lowercase IATA code of its city plus a number, e.g. "fra01" (the vendor's style: "sfo06") */
  name: string;
  city: string;
  /** uppercase region code, one of REGIONS */
  region: string;
  lat: number;
  lon: number;
}

interface ColoTable {
  regions: Record<string, string>;
  default: string;
  colos: Colo[];
  countries: Record<string, string>;
}

const table = JSON.parse(readDataset('colos.json')) as ColoTable;
const byName = new Map(table.colos.map((c) => [c.name, c]));

/** Known region codes, uppercase (WNAM ENAM NSAM SSAM WEUR EEUR ME AFR APAC OC). */
export const REGIONS: readonly string[] = Object.keys(table.regions);

/** Known data-center names, lowercase. */
export const COLO_NAMES: readonly string[] = table.colos.map((c) => c.name);

/** The data center of packets whose source country is unknown. */
export const DEFAULT_COLO: string = table.default;

/** The region code for `name` in any case ("weur" -> "WEUR"), or undefined if unknown. */
export function findRegion(name: string): string | undefined {
  const upper = name.toUpperCase();
  return upper in table.regions ? upper : undefined;
}

/**
 * The data center named `name` in any case: a full name ("FRA01") or a bare city code ("lax", as
 * the vendor's SDK examples write it), which means that city's first data center.
 */
export function findColo(name: string): Colo | undefined {
  const lower = name.toLowerCase();
  return byName.get(lower) ?? (/^[a-z]{3}$/.test(lower) ? table.colos.find((c) => c.name.startsWith(lower)) : undefined);
}

/** Why `name` is not a known region (the known ones listed), or null: for rules scoped to a region. */
export function regionProblem(name: string): string | null {
  return findRegion(name) === undefined ? `unknown region ${JSON.stringify(name)} (known: ${REGIONS.join(', ')})` : null;
}

/**
 * Why `name` is not a known data center, or null: for rules scoped to a data center. A near name
 * is offered (the same city's data centers, or names one letter away), else a few examples.
 */
export function coloProblem(name: string): string | null {
  if (findColo(name) !== undefined) return null;
  const lower = name.toLowerCase();
  const near = COLO_NAMES.filter((c) => c.startsWith(lower.slice(0, 3)) || (c.length === lower.length && [...c].filter((ch, i) => ch !== lower[i]).length === 1));
  const hint = near.length > 0 ? `did you mean ${near.slice(0, 3).map((c) => JSON.stringify(c)).join(' or ')}?` : `expected one of the ${COLO_NAMES.length} in datasets/colos.json, e.g. fra01 or sfo06, or a city code such as lax`;
  return `unknown data center ${JSON.stringify(name)} (${hint})`;
}

/** The data center the table assigns to a country code ("DE" -> fra01), or the default colo. */
export function coloForCountry(country: string): Colo {
  return byName.get(table.countries[country.toUpperCase()] ?? DEFAULT_COLO)!;
}

/** The ingress data center as PacketRecord stores it: interned name and region bytes. */
export interface Ingress {
  readonly name: Uint8Array;
  readonly region: Uint8Array;
}

function ingressOf(colo: Colo): Ingress {
  return { name: interned(colo.name), region: interned(colo.region) };
}

/** Picks each packet's ingress data center from its source country, honouring the overrides. */
export class IngressColos {
  private readonly byCountry = new Map<Uint8Array, Ingress>();
  private readonly forced: Ingress | undefined;
  private readonly region: string | undefined;
  private readonly unknown: Ingress;

  /** Throws DataError for an unknown colo or region, or a colo outside the forced region. */
  constructor(opts: { colo?: string; region?: string } = {}) {
    if (opts.region !== undefined) {
      this.region = findRegion(opts.region);
      if (this.region === undefined) throw new DataError(regionProblem(opts.region)!);
    }
    if (opts.colo !== undefined) {
      const colo = findColo(opts.colo);
      if (colo === undefined) throw new DataError(`unknown data center ${JSON.stringify(opts.colo)}: expected one of the ${COLO_NAMES.length} in datasets/colos.json, e.g. fra01 or sfo06, or a city code such as lax`);
      if (this.region !== undefined && colo.region !== this.region) throw new DataError(`data center ${colo.name} is in region ${colo.region}, not ${this.region}`);
      this.forced = ingressOf(colo);
    }
    this.unknown = this.choose(byName.get(DEFAULT_COLO)!);
  }

  private choose(colo: Colo): Ingress {
    if (this.forced !== undefined) return this.forced;
    if (this.region === undefined || colo.region === this.region) return ingressOf(colo);
    return ingressOf(table.colos.find((c) => c.region === this.region)!);
  }

  /** Ingress for a packet from `country` (an interned code, or null/empty when unknown). */
  forCountry(country: Uint8Array | null): Ingress {
    if (country === null || country.length === 0) return this.unknown;
    let ingress = this.byCountry.get(country);
    if (ingress === undefined) {
      ingress = this.choose(coloForCountry(String.fromCharCode(...country)));
      this.byCountry.set(country, ingress);
    }
    return ingress;
  }
}
