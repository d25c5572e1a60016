// The embedded country blocks against the bundled GeoIP database: every block must lie inside one
// database leaf of its country (checked at its first, last and random addresses, and by the leaf's
// prefix length), and the geo scenario's clients must geolocate to the countries asked for.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Reader } from 'maxmind';
import type { CountryResponse } from 'maxmind';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIPv4 } from '../../../src/net/ipv4.js';
import { formatIPv6 } from '../../../src/net/ipv6.js';
import { parseCidr } from '../../../src/net/cidr.js';
import { AddressPool } from '../../../src/capture/synth/addresses.js';
import { COUNTRY_PREFIXES, generateToFile, readLabels } from '../../../src/capture/synth/index.js';
import { Rng } from '../../../src/capture/synth/rng.js';
import { decodeAll } from './capture.js';

const require = createRequire(import.meta.url);
const dbPath = path.join(path.dirname(require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')), 'geo-whois-asn-country.mmdb');
const db = new Reader<{ country_code: string } & Partial<CountryResponse>>(readFileSync(dbPath));
const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-synth-geo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function country(ip: string): string | null {
  return db.get(ip)?.country_code ?? null;
}

describe('embedded country blocks', () => {
  const rows = Object.entries(COUNTRY_PREFIXES).flatMap(([cc, list]) => list.map((p) => [cc, p] as const));

  it.each(rows)('%s %s geolocates to its country everywhere inside', (cc, prefix) => {
    const c = parseCidr(prefix);
    const pool = new AddressPool([c]);
    const rng = new Rng(99);
    const samples: string[] = [];
    if (c.family === 4) {
      const last = (c.v4 | (~(0xffffffff << (32 - c.len)) >>> 0)) >>> 0;
      samples.push(formatIPv4(c.v4), formatIPv4(last));
      for (let i = 0; i < 20; i++) samples.push(formatIPv4(pool.pick4(rng)));
    } else {
      const w = new Uint32Array(4);
      samples.push(formatIPv6(c.v6));
      for (let i = 0; i < 20; i++) {
        pool.pick6(rng, w);
        samples.push(formatIPv6(w));
      }
    }
    for (const ip of samples) expect({ ip, cc: country(ip) }).toEqual({ ip, cc });
    const [, leafLen] = db.getWithPrefixLength(samples[0]!);
    expect(leafLen).toBeLessThanOrEqual(c.len);
  });
});

describe('geo scenario', () => {
  it('draws its clients from the countries asked for, and only those', async () => {
    const out = path.join(dir, 'geo.pcap');
    await generateToFile('geo', out, { packets: 1500, countries: ['JP', 'fr', 'CA'] });
    const labels = (await readLabels(out))!;
    const seen = new Set<string>();
    const firstOfFlow = new Set<number>();
    for (const f of await decodeAll(out)) {
      const flow = labels.flow(f.frame)!;
      if (firstOfFlow.has(flow)) continue;
      firstOfFlow.add(flow);
      const ip = f.v === 4 ? f.src : f.src.match(/.{4}/g)!.join(':');
      seen.add(country(ip) ?? 'none');
    }
    expect(seen).toEqual(new Set(['JP', 'FR', 'CA']));
  });
});
