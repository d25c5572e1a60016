// Real address blocks per country, so that synthetic clients geolocate where a scenario says they
// are (`geo` scenario, `countries` in a flow spec, the demo's "sources from various countries").
// Each block is a whole leaf of the bundled GeoIP database (@ip-location-db/geo-whois-asn-country-mmdb,
// data CC BY 4.0 by NRO): the database maps every address inside it to the country listed here, which
// test/synth/countries.test.ts checks against the database itself. Registries move blocks between
// members rarely; if a database update ever moves one, that test names it.

/** Country code (ISO 3166-1 alpha-2) -> IPv4 and IPv6 blocks in it. */
export const COUNTRY_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  US: ['73.0.0.0/8', '24.0.0.0/11', '98.0.0.0/10', '2601::/20', '2600:1000::/28'],
  DE: ['91.0.0.0/10', '87.128.0.0/10', '80.128.0.0/12', '2003::/29', '2a02:8100::/27'],
  BR: ['177.10.0.0/17', '189.0.0.0/16', '187.0.0.0/19', '2804:14c::/31', '2804:7f0::/29'],
  GB: ['81.128.0.0/11', '86.0.0.0/11', '2a02:c78::/29', '2a00:2200::/23'],
  FR: ['90.0.0.0/10', '82.64.0.0/14', '2a01:e00::/28'],
  JP: ['126.0.0.0/11', '133.0.0.0/8', '60.32.0.0/12', '2400:4000::/22', '2404:7a80::/29'],
  CN: ['1.80.0.0/12', '36.96.0.0/11', '223.64.0.0/11', '240e::/18'],
  IN: ['117.192.0.0/10', '59.88.0.0/13', '49.32.0.0/12', '2409:4000::/22'],
  AU: ['1.128.0.0/11', '101.160.0.0/11', '2001:8000::/19'],
  RU: ['95.24.0.0/13', '85.140.0.0/15', '2a00:1fa0::/29'],
  NL: ['145.10.0.0/16', '77.160.0.0/12', '2001:980::/29', '2001:1c00::/23'],
  CA: ['24.48.0.0/17', '70.24.0.0/13', '142.160.0.0/13', '2607:f2c0::/32', '2001:568::/29'],
  KR: ['121.128.0.0/10', '175.192.0.0/10', '211.32.0.0/11'],
  AR: ['181.0.0.0/16', '2800:3f0::/32', '2800:810::/28'],
};

/** Every country of the table, in its order. */
export const COUNTRIES: readonly string[] = Object.keys(COUNTRY_PREFIXES);
