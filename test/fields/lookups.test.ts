import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Has, PacketRecord } from '../../src/capture/record.js';
import { enrichmentFor } from '../../src/fields/lookups.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { writeMmdb } from '../data/helpers/mmdb-writer.js';
import { tempDir } from '../helpers/temp-dir.js';

const asnPath = path.join(tempDir('edgesim-lookups-'), 'asn.mmdb');
writeFileSync(asnPath, writeMmdb({ ipVersion: 6, recordSize: 24, databaseType: 'GeoLite2-ASN', entries: [['1.1.1.0/24', { autonomous_system_number: 13335 }], ['8.8.8.0/24', { autonomous_system_number: 15169 }]] }));

const LOOKED_UP = Has.SRC_COUNTRY | Has.DST_COUNTRY | Has.SRC_ASN | Has.DST_ASN | Has.COLO_NAME | Has.COLO_REGION;

/** What the enrichment for the fields `expression` reads sets on a packet from 1.1.1.1 (AU) to 8.8.8.8 (US). */
async function filled(expression: string): Promise<number> {
  const firewall = Firewall.compile([{ name: 'r', phase: 'edge_transit', kind: 'root', rules: [{ ref: 'r', action: 'block', expression }] }]);
  const enrichment = await enrichmentFor(firewall.fields, false, { asnPath }, []);
  const rec = new PacketRecord();
  rec.reset();
  rec.present = Has.IP;
  rec.ipVersion = 4;
  rec.src4 = parseIPv4('1.1.1.1');
  rec.dst4 = parseIPv4('8.8.8.8');
  enrichment?.enrich(rec);
  return rec.present & LOOKED_UP;
}

describe('enrichmentFor', () => {
  it('looks up only the ends the expressions read (a lookup costs more than a rule)', async () => {
    expect(await filled('ip.src.country == "AU"')).toBe(Has.SRC_COUNTRY);
    expect(await filled('ip.dst.country == "US"')).toBe(Has.DST_COUNTRY);
    expect(await filled('ip.src.asnum == 13335')).toBe(Has.SRC_ASN);
    expect(await filled('ip.dst.asnum == 15169')).toBe(Has.DST_ASN);
    expect(await filled('ip.src.country == "AU" and ip.dst.asnum == 15169')).toBe(Has.SRC_COUNTRY | Has.DST_ASN);
  });

  it('looks up both countries for ip.geoip.country (either end), and the source country alone for data centers', async () => {
    expect(await filled('ip.geoip.country == "US"')).toBe(Has.SRC_COUNTRY | Has.DST_COUNTRY);
    expect(await filled('cf.colo.region == "OC"')).toBe(Has.COLO_NAME | Has.COLO_REGION);
    expect(await filled('tcp.dstport == 22')).toBe(0);
  });
});
