import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Has, PacketRecord } from '../../src/capture/record.js';
import { createEnrichment } from '../../src/data/enrichment.js';
import { DataError } from '../../src/data/errors.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { writeMmdb } from './helpers/mmdb-writer.js';
import { tempDir } from '../helpers/temp-dir.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const ALL = Has.SRC_COUNTRY | Has.DST_COUNTRY | Has.SRC_ASN | Has.DST_ASN | Has.COLO_NAME | Has.COLO_REGION;

function v4(src: string, dst: string): PacketRecord {
  const rec = new PacketRecord();
  rec.reset();
  rec.present = Has.IP | Has.TCP;
  rec.ipVersion = 4;
  rec.src4 = parseIPv4(src);
  rec.dst4 = parseIPv4(dst);
  return rec;
}

function v6(src: string, dst: string): PacketRecord {
  const rec = new PacketRecord();
  rec.reset();
  rec.present = Has.IP;
  rec.ipVersion = 6;
  parseIPv6(src, rec.src6);
  parseIPv6(dst, rec.dst6);
  return rec;
}

const asnPath = path.join(tempDir('edgesim-enrich-'), 'asn.mmdb');
writeFileSync(
  asnPath,
  writeMmdb({
    ipVersion: 6,
    recordSize: 24,
    databaseType: 'GeoLite2-ASN',
    entries: [
      ['8.8.8.0/24', { autonomous_system_number: 15169 }],
      ['1.1.1.0/24', { autonomous_system_number: 13335 }],
      ['2001:4860::/32', { autonomous_system_number: 15169 }],
    ],
  }),
);

describe('createEnrichment', () => {
  it('sets countries of both ends and the ingress data center of the source country', async () => {
    const e = await createEnrichment({ need: { country: { src: true, dst: true }, colo: true } });
    const rec = v4('1.1.1.1', '8.8.8.8');
    e.enrich(rec);
    expect([text(rec.srcCountry), text(rec.dstCountry), text(rec.coloName), text(rec.coloRegion)]).toEqual(['AU', 'US', 'syd01', 'OC']);
    expect(rec.present & ALL).toBe(Has.SRC_COUNTRY | Has.DST_COUNTRY | Has.COLO_NAME | Has.COLO_REGION);
    expect(rec.present & (Has.IP | Has.TCP)).toBe(Has.IP | Has.TCP);
  });

  it('leaves the country of a private address absent, and such a source enters at the default data center', async () => {
    const e = await createEnrichment({ need: { country: { src: true, dst: true }, colo: true } });
    const rec = v4('10.1.2.3', '8.8.8.8');
    e.enrich(rec);
    expect(rec.present & Has.SRC_COUNTRY).toBe(0);
    expect(text(rec.dstCountry)).toBe('US');
    expect([text(rec.coloName), text(rec.coloRegion)]).toEqual(['sfo06', 'WNAM']);
  });

  it('handles IPv6, including v4-mapped addresses', async () => {
    const e = await createEnrichment({ need: { country: { src: true, dst: true } } });
    const rec = v6('2001:67c:2e8:22::c100:68b', '::ffff:8.8.8.8');
    e.enrich(rec);
    expect([text(rec.srcCountry), text(rec.dstCountry)]).toEqual(['NL', 'US']);
    expect(rec.present & (Has.COLO_NAME | Has.SRC_ASN)).toBe(0);
  });

  it('fills only the parts asked for', async () => {
    const coloOnly = await createEnrichment({ need: { colo: true } });
    const rec = v4('1.1.1.1', '8.8.8.8');
    coloOnly.enrich(rec);
    expect(rec.present & ALL).toBe(Has.COLO_NAME | Has.COLO_REGION);
    expect(text(rec.coloName)).toBe('syd01');

    const countryOnly = await createEnrichment({ need: { country: { src: true, dst: true } } });
    const again = v4('1.1.1.1', '8.8.8.8');
    countryOnly.enrich(again);
    expect(again.present & ALL).toBe(Has.SRC_COUNTRY | Has.DST_COUNTRY);
  });

  it('sets ASNs from an ASN database, absent where it has none, and not at all without one', async () => {
    const e = await createEnrichment({ asnPath, need: { asn: { src: true, dst: true } } });
    const rec = v4('8.8.8.8', '10.0.0.1');
    e.enrich(rec);
    expect([rec.srcAsn, rec.present & Has.SRC_ASN, rec.present & Has.DST_ASN]).toEqual([15169, Has.SRC_ASN, 0]);
    const six = v6('2001:db8::1', '2001:4860::8888');
    e.enrich(six);
    expect([six.present & Has.SRC_ASN, six.dstAsn]).toEqual([0, 15169]);

    const without = await createEnrichment({ need: { asn: { src: true, dst: true } } });
    const plain = v4('8.8.8.8', '1.1.1.1');
    without.enrich(plain);
    expect(plain.present & ALL).toBe(0);
  });

  it('applies --colo and --region overrides', async () => {
    const forced = await createEnrichment({ colo: 'fra01', need: { colo: true } });
    const rec = v4('1.1.1.1', '8.8.8.8');
    forced.enrich(rec);
    expect([text(rec.coloName), text(rec.coloRegion)]).toEqual(['fra01', 'WEUR']);

    const region = await createEnrichment({ region: 'apac', need: { colo: true } });
    const fromUs = v4('8.8.8.8', '1.1.1.1');
    region.enrich(fromUs);
    expect(text(fromUs.coloRegion)).toBe('APAC');
  });

  it('fails with a DataError naming a bad database or override', async () => {
    await expect(createEnrichment({ geoipPath: '/nonexistent.mmdb', need: { country: { src: true, dst: true } } })).rejects.toThrow(DataError);
    await expect(createEnrichment({ geoipPath: '/nonexistent.mmdb', need: { country: { src: true, dst: true } } })).rejects.toThrow('/nonexistent.mmdb: cannot read the database (no such file)');
    await expect(createEnrichment({ colo: 'moon01', need: { colo: true } })).rejects.toThrow('unknown data center "moon01"');
  });
});
