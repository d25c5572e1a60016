// Where the addresses are: countries (GeoIP) and autonomous systems (the ASN database), looked up
// from the IP layer's addresses by the packet path's enrichment (data/), not read from the bytes.
import { field, fieldList, layer } from './define.js';

const ASN = 0xffffffff;

export const LOCATION_FIELDS = fieldList(
  field({
    name: 'ip.src.country',
    kind: 'name',
    dim: 'srcCountry',
    part: 'country',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Country of the source address, uppercase ("US"), from the bundled GeoIP database or --geoip FILE. Absent when the database does not know the address.',
  }),
  field({ name: 'ip.dst.country', kind: 'name', dim: 'dstCountry', part: 'country', unit: 'ISO 3166-1 alpha-2 code', meaning: 'Country of the destination address, as ip.src.country.' }),
  field({
    name: 'ip.geoip.country',
    kind: 'name',
    anyOf: ['ip.src.country', 'ip.dst.country'],
    part: 'country',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Deprecated, still accepted: a comparison holds when it holds for the source or the destination country; != holds when neither equals the value.',
  }),
  field({ name: 'ip.src.asnum', kind: 'int', max: ASN, dim: 'srcAsn', part: 'asn', unit: 'AS number', meaning: 'Autonomous system of the source address, from the ASN database given with --asn FILE. Absent without one.' }),
  field({ name: 'ip.dst.asnum', kind: 'int', max: ASN, dim: 'dstAsn', part: 'asn', unit: 'AS number', meaning: 'Autonomous system of the destination address, as ip.src.asnum.' }),
);

export const LOCATION_LAYER = layer({ name: 'location', fields: LOCATION_FIELDS });

/** The data center a packet enters the network at, and its region: chosen from the source country (data/colos.ts). */
export const COLO_FIELDS = fieldList(
  field({
    name: 'cf.colo.name',
    kind: 'name',
    dim: 'coloName',
    part: 'colo',
    unit: 'data center code',
    meaning: 'The data center where the packet enters the network ("sfo06"): chosen from the source country, or forced with --colo / --region.',
  }),
  field({ name: 'cf.colo.region', kind: 'name', dim: 'coloRegion', part: 'colo', unit: 'region code', meaning: 'Region of that data center: WNAM, ENAM, NSAM, SSAM, WEUR, EEUR, ME, AFR, APAC or OC.' }),
);

export const COLO_LAYER = layer({ name: 'colo', fields: COLO_FIELDS });
