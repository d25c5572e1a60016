// Country and ASN of an address, from MaxMind-format databases. The bundled default is the
// ip-location-db "geo-whois-asn-country" database (records `{country_code}`; data CC BY 4.0 by NRO,
// see datasets/README.md); a user's own GeoLite2/GeoIP2 Country file (records
// `{country: {iso_code}}`) works too. ASN databases are GeoLite2-ASN style
// (`{autonomous_system_number}`).
//
// Lookups take PacketRecord's numeric addresses and run per packet: the tree's tables give a record
// number without allocating (see mmdb.ts), and what a record means is decoded once per record number.

import { createRequire } from 'node:module';
import { interned } from './interned.js';
import { MmdbTree } from './mmdb.js';

const require = createRequire(import.meta.url);

/** Path of the bundled country database (IPv4 + IPv6). */
export function defaultGeoipPath(): string {
  return require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
}

type Extract<T> = (record: Record<string, unknown> | null) => T;

// Reads values of type T from a database: each record number's value is extracted once (a database
// has only so many records) and kept in an array, so an IPv4 lookup is the tree's tables (mmdb.ts) and
// one array read. IPv6 lookups also keep the last answers per address in a small direct-mapped table
// (bounded: SLOTS entries), since the tree's IPv6 tables stop at /32.
const SLOTS = 4096;

class CachedLookup<T> {
  /** by record number (0: no data) */
  private readonly values: T[];
  private readonly keys6 = new Uint32Array(SLOTS * 4);
  private readonly used6 = new Uint8Array(SLOTS);
  private readonly values6: T[];

  constructor(
    readonly tree: MmdbTree,
    private readonly extract: Extract<T>,
    private readonly missing: T,
  ) {
    this.values = [missing];
    this.values6 = new Array<T>(SLOTS).fill(missing);
  }

  /** the value of record number `id` (from id4 or id6) */
  value(id: number): T {
    const known = this.values[id];
    return known !== undefined ? known : this.extracted(id);
  }

  private extracted(id: number): T {
    const record = this.tree.record(id);
    const value = this.extract(typeof record === 'object' && record !== null && !Array.isArray(record) && !(record instanceof Uint8Array) ? (record as Record<string, unknown>) : null);
    while (this.values.length < id) this.values.push(undefined as T);
    this.values[id] = value;
    return value;
  }

  get4(v: number): T {
    return this.value(this.tree.id4(v));
  }

  get6(w: Uint32Array): T {
    const slot = Math.imul(w[0] ^ Math.imul(w[1], 31) ^ Math.imul(w[2], 961) ^ Math.imul(w[3], 0x9e3779b1), 0x9e3779b1) >>> 20;
    const k = slot << 2;
    const keys = this.keys6;
    if (this.used6[slot] === 1 && keys[k] === w[0] && keys[k + 1] === w[1] && keys[k + 2] === w[2] && keys[k + 3] === w[3]) return this.values6[slot];
    const value = this.value(this.tree.id6(w));
    keys.set(w, k);
    this.used6[slot] = 1;
    this.values6[slot] = value;
    return value;
  }
}

function countryOf(record: Record<string, unknown> | null): Uint8Array | null {
  if (record === null) return null;
  const country = record.country as { iso_code?: unknown } | undefined;
  const code = country?.iso_code ?? record.country_code;
  if (typeof code !== 'string') return null;
  const upper = code.toUpperCase();
  return /^[A-Z]{2}$/.test(upper) ? interned(upper) : null;
}

function asnOf(record: Record<string, unknown> | null): number {
  const n = record?.autonomous_system_number;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
}

/** Country lookups: interned uppercase two-letter codes, or null when the database has none. */
export class CountryDb {
  private constructor(private readonly cache: CachedLookup<Uint8Array | null>) {}

  /** Opens a country database (the bundled one when `path` is undefined); throws DataError. */
  static async open(path: string = defaultGeoipPath()): Promise<CountryDb> {
    return new CountryDb(new CachedLookup(await MmdbTree.open(path), countryOf, null));
  }

  /** the database file */
  get path(): string {
    return this.cache.tree.path;
  }

  /** Country of an IPv4 address (unsigned 32-bit number). */
  country4(v: number): Uint8Array | null {
    return this.cache.get4(v);
  }

  /** Country of an IPv6 address (four words); v4-mapped addresses are looked up as IPv4. */
  country6(w: Uint32Array): Uint8Array | null {
    return this.cache.get6(w);
  }
}

/** ASN lookups: the autonomous system number, or 0 when the database has none. */
export class AsnDb {
  private constructor(private readonly cache: CachedLookup<number>) {}

  /** Opens a GeoLite2-ASN style database; throws DataError. */
  static async open(path: string): Promise<AsnDb> {
    return new AsnDb(new CachedLookup(await MmdbTree.open(path), asnOf, 0));
  }

  /** the database file */
  get path(): string {
    return this.cache.tree.path;
  }

  asn4(v: number): number {
    return this.cache.get4(v);
  }

  asn6(w: Uint32Array): number {
    return this.cache.get6(w);
  }
}
