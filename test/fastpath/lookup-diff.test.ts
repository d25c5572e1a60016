// The fast path's looked-up fields (countries, AS numbers, the ingress data center and region)
// against the reference path (decoder + enrichment + evaluator), both with the same lookups (the
// bundled GeoIP database, an ASN database, data centers chosen by source country): per-packet NDJSON
// byte-identical and the same hit and decision counts, over the tcpdump corpus and over synthetic
// traffic from every country's address blocks, read linearly, through the classifier and through the key index. The
// fast path decides those packets itself (it no longer hands them back).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import { createEnrichment, type Enrichment } from '../../src/data/enrichment.js';
import { corpusFiles, corpusPath } from '../capture/helpers/corpus.js';
import { type MmdbValue, writeMmdb } from '../data/helpers/mmdb-writer.js';
import { lists, type Rule, run } from './helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-fast-lookups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** rules on every looked-up field, in every kind of comparison, among rules the fast path reads from the bytes */
const LOOKUPS: Rule[] = [
  ['src-country', 'log', 'ip.src.country in { "US" "DE" "BR" "KP" "IR" }'],
  ['dst-country', 'log', 'ip.dst.country == "US" or ip.dst.country != "AU"'],
  ['geoip', 'log', 'ip.geoip.country in { "CN" "JP" } or ip.geoip.country != "FR"'],
  ['asn', 'log', 'ip.src.asnum in { 64500..64503 } or ip.dst.asnum == 64505 or ip.src.asnum > 64504'],
  ['colo', 'log', 'cf.colo.name in { "sfo06" "fra02" "syd01" } or cf.colo.name matches "^a"'],
  ['region', 'log', 'cf.colo.region == "WEUR" and tcp.dstport in { 80 443 }'],
  ['partners', 'skip', 'ip.src in $bad and ip.src.country != "US"'],
  ['embargo', 'block', 'ip.src.country in { "KP" "IR" "SY" "CU" }'],
  ['apac-ssh', 'block', 'cf.colo.region == "APAC" and tcp.dstport == 22'],
  ['asn-block', 'block', 'ip.src.asnum == 64502 and not tcp.flags.ack'],
  ['ping', 'block', 'icmp.type == 8'],
  ['web', 'skip', 'tcp.dstport in { 80 443 }'],
  ['dns', 'block', 'udp.dstport == 53 and ip.dst.country != "ZZ"'],
];

let enrichment: Enrichment;

beforeAll(async () => {
  const asnPath = path.join(dir, 'asn.mmdb');
  // every /8 of IPv4 in one of seven AS numbers, IPv6 global unicast in another
  const entries: Array<[string, MmdbValue]> = Array.from({ length: 223 }, (_, i) => [`${i + 1}.0.0.0/8`, { autonomous_system_number: 64500 + (i % 7) }]);
  entries.push(['2000::/3', { autonomous_system_number: 64510 }]);
  writeFileSync(asnPath, writeMmdb({ ipVersion: 6, recordSize: 24, databaseType: 'GeoLite2-ASN', entries }));
  enrichment = await createEnrichment({ asnPath, need: { country: { src: true, dst: true }, asn: { src: true, dst: true }, colo: true } });
});

async function differ(file: string, tag: string): Promise<{ differ: string[]; fast: number; packets: number; hits: number[] }> {
  const out: string[] = [];
  let fast = 0;
  const reference = await run(file, LOOKUPS, { lists, enrichment, mode: 'reference' });
  const modes = ['none', 'classifier', 'keys'] as const;
  for (const mode of modes) {
    const got = await run(file, LOOKUPS, { lists, enrichment, mode });
    fast += got.fast;
    if (got.ndjson !== reference.ndjson || got.error !== reference.error || got.hits.join() !== reference.hits.join() || got.decided.join() !== reference.decided.join()) out.push(`${tag} (${mode})`);
  }
  return { differ: out, fast, packets: modes.length * (reference.ndjson.split('\n').length - 1), hits: reference.hits };
}

describe('fast path vs decoder + enrichment + evaluator on looked-up fields', () => {
  it('decides synthetic traffic from every country identically, on the fast path', async () => {
    const hits = LOOKUPS.map(() => 0);
    for (const scenario of ['mixed', 'geo'] as const) {
      const file = path.join(dir, `${scenario}.pcap`);
      await generateToFile(scenario, file, { packets: 20_000, seed: 5, labels: null });
      const r = await differ(file, scenario);
      expect(r.differ).toEqual([]);
      expect(r.fast).toBe(r.packets);
      r.hits.forEach((n, i) => (hits[i]! += n));
    }
    // every rule matched some packets: the comparisons were exercised both ways
    expect(hits.map((n, i) => [LOOKUPS[i]![0], n > 0])).toEqual(LOOKUPS.map(([ref]) => [ref, true]));
  }, 120_000);

  it('decides every file of the tcpdump corpus identically', async () => {
    const all: string[] = [];
    for (const name of corpusFiles()) all.push(...(await differ(corpusPath(name), name)).differ);
    expect(all).toEqual([]);
  }, 300_000);
});
