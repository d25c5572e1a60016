// src/net and src/data figures: building a 100,000-prefix IpSet, membership lookups on it, address
// parsing and GeoIP country lookups, each next to a peer measured in the same run where one exists
// (ipaddr.js for addresses, the maxmind reader for GeoIP).
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { Reader } from 'maxmind';
import { CountryDb, defaultGeoipPath } from '../src/data/geoip.js';
import { parseIPv4 } from '../src/net/ipv4.js';
import { parseIPv6 } from '../src/net/ipv6.js';
import { IpSetBuilder } from '../src/net/ip-set.js';
import type { BenchRow, BenchSuite } from './types.js';

function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}

function perSecond(n: number, run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

export const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const N = 100_000;
  const next = lcg(42);
  const prefixes = Array.from({ length: N }, () => [next(), 20 + (next() % 13)] as const);

  const buildMs = median(
    [0, 1, 2, 3, 4].map(() => {
      const t0 = process.hrtime.bigint();
      const b = new IpSetBuilder();
      for (const [a, len] of prefixes) b.addPrefix4(a, len);
      b.build();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    }),
  );
  rows.push({ suite: 'net', name: 'IpSet build, 100,000 random IPv4 prefixes', value: buildMs, unit: 'ms', note: 'median of 5, add + sort + merge' });

  const b = new IpSetBuilder();
  for (const [a, len] of prefixes) b.addPrefix4(a, len);
  const set = b.build();
  const probes = Uint32Array.from({ length: 1 << 20 }, () => next());
  let hits = 0;
  const rate4 = median(
    [0, 1, 2].map(() =>
      perSecond(probes.length * 4, () => {
        for (let r = 0; r < 4; r++) for (let i = 0; i < probes.length; i++) if (set.has4(probes[i])) hits++;
      }),
    ),
  );
  rows.push({ suite: 'net', name: 'IpSet.has4 on the 100k-prefix set', value: rate4, unit: 'lookups/s', note: `${set.ranges4} merged ranges, random probes, ${hits} hits` });

  const peerList = prefixes.slice(0, 1000).map(([a, len]) => ipaddr.parseCIDR(`${ipaddr.fromByteArray([a >>> 24, (a >>> 16) & 255, (a >>> 8) & 255, a & 255]).toString()}/${len}`));
  const peerProbes = Array.from(probes.subarray(0, 20_000), (a) => ipaddr.fromByteArray([a >>> 24, (a >>> 16) & 255, (a >>> 8) & 255, a & 255]) as ipaddr.IPv4);
  let peerHits = 0;
  const peerRate = perSecond(peerProbes.length, () => {
    for (const p of peerProbes) if (peerList.some(([net, len]) => p.match(net as ipaddr.IPv4, len))) peerHits++;
  });
  rows.push({ suite: 'net', name: 'peer: ipaddr.js match() scan, 1,000 prefixes', value: peerRate, unit: 'lookups/s', note: `a list 100x smaller than ours; ${peerHits} hits` });

  const six = new IpSetBuilder();
  const w = new Uint32Array(4);
  for (let i = 0; i < N; i++) {
    w[0] = 0x20010000 | (next() & 0xffff);
    w[1] = next();
    six.addPrefix6(w, 32 + (next() % 33));
  }
  const set6 = six.build();
  const probes6 = Array.from({ length: 1 << 16 }, () => Uint32Array.of(0x20010000 | (next() & 0xffff), next(), next(), next()));
  let hits6 = 0;
  const rate6 = perSecond(probes6.length * 16, () => {
    for (let r = 0; r < 16; r++) for (const p of probes6) if (set6.has6(p)) hits6++;
  });
  rows.push({ suite: 'net', name: 'IpSet.has6 on a 100k-prefix IPv6 set', value: rate6, unit: 'lookups/s', note: `${set6.ranges6} merged ranges, ${hits6} hits` });

  const texts = Array.from(probes.subarray(0, 100_000), (a) => `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`);
  let sum = 0;
  const parse4 = perSecond(texts.length, () => {
    for (const t of texts) sum += parseIPv4(t);
  });
  const peerParse4 = perSecond(texts.length, () => {
    for (const t of texts) sum += (ipaddr.IPv4.parse(t) as ipaddr.IPv4).octets[3];
  });
  rows.push({ suite: 'net', name: 'parseIPv4', value: parse4, unit: 'parses/s', note: `ipaddr.js IPv4.parse: ${Math.round(peerParse4).toLocaleString('en-US')}/s (${(parse4 / peerParse4).toFixed(1)}x)` });

  const texts6 = probes6.slice(0, 50_000).map((p) => `2001:${(p[0] & 0xffff).toString(16)}:${(p[1] >>> 16).toString(16)}::${(p[3] & 0xffff).toString(16)}`);
  const out = new Uint32Array(4);
  const parse6 = perSecond(texts6.length, () => {
    for (const t of texts6) sum += parseIPv6(t, out)![3];
  });
  const peerParse6 = perSecond(texts6.length, () => {
    for (const t of texts6) sum += (ipaddr.IPv6.parse(t) as ipaddr.IPv6).parts[7];
  });
  rows.push({ suite: 'net', name: 'parseIPv6 into a reused array', value: parse6, unit: 'parses/s', note: `ipaddr.js IPv6.parse: ${Math.round(peerParse6).toLocaleString('en-US')}/s (${(parse6 / peerParse6).toFixed(1)}x); checksum ${sum % 1000}` });

  const db = await CountryDb.open();
  const reader = new Reader(readFileSync(defaultGeoipPath()));
  const random = probes.subarray(0, 200_000);
  let found = 0;
  const geoRandom = perSecond(random.length, () => {
    for (let i = 0; i < random.length; i++) if (db.country4(random[i]) !== null) found++;
  });
  const peerTexts = texts.slice(0, 50_000);
  const geoPeer = perSecond(peerTexts.length, () => {
    for (const t of peerTexts) if (reader.get(t) !== null) found++;
  });
  rows.push({ suite: 'net', name: 'GeoIP country4, random addresses', value: geoRandom, unit: 'lookups/s', note: `maxmind reader.get on text (its LRU on): ${Math.round(geoPeer).toLocaleString('en-US')}/s (${(geoRandom / geoPeer).toFixed(1)}x)` });
  const pool = probes.subarray(0, 2000);
  const geoRepeated = perSecond(2_000_000, () => {
    for (let i = 0; i < 2_000_000; i++) if (db.country4(pool[(i * 7) % 2000]) !== null) found++;
  });
  rows.push({ suite: 'net', name: 'GeoIP country4, 2,000 distinct addresses repeated', value: geoRepeated, unit: 'lookups/s', note: `per-address cache; ${found} found` });
  return rows;
};
