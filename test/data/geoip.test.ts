import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Reader, type Response } from 'maxmind';
import { beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { AsnDb, CountryDb, defaultGeoipPath } from '../../src/data/geoip.js';
import { formatIPv4, parseIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6, parseIPv6 } from '../../src/net/ipv6.js';
import { type MmdbSpec, type MmdbValue, writeMmdb } from './helpers/mmdb-writer.js';
import { tempDir } from '../helpers/temp-dir.js';

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));
const v6 = (t: string) => parseIPv6(t)!;
const code = (r: Response | null) => ((r as { country_code?: string } | null)?.country_code ?? null);
const dir = tempDir('edgesim-geoip-');

function fixture(name: string, spec: MmdbSpec): string {
  const file = path.join(dir, name);
  writeFileSync(file, writeMmdb(spec));
  return file;
}

function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}

describe('CountryDb on the bundled database', () => {
  let db: CountryDb;
  let reader: Reader<Response>;
  beforeAll(async () => {
    db = await CountryDb.open();
    reader = new Reader(readFileSync(defaultGeoipPath()));
  });

  it('gives the countries measured in reference/deps.md §5', () => {
    expect(['1.1.1.1', '8.8.8.8', '9.9.9.9', '10.0.0.1'].map((t) => text(db.country4(parseIPv4(t))))).toEqual(['AU', 'US', 'US', null]);
    expect(['2001:4860::1', '2001:67c:2e8:22::c100:68b', '2a00:1450:4001:80b::200e'].map((t) => text(db.country6(v6(t))))).toEqual(['US', 'NL', 'IE']);
  });

  it('looks up v4-mapped IPv6 addresses as IPv4 (the reader itself answers null for them)', () => {
    expect(reader.get('::ffff:8.8.8.8')).toBeNull();
    expect(text(db.country6(v6('::ffff:8.8.8.8')))).toBe('US');
    expect(db.country6(v6('::ffff:10.0.0.1'))).toBeNull();
  });

  it('hands out one shared array per country', () => {
    const a = db.country4(parseIPv4('8.8.8.8'));
    expect(a).not.toBeNull();
    expect(db.country4(parseIPv4('8.8.4.4'))).toBe(a);
    expect(db.country6(v6('2001:4860::1'))).toBe(a);
  });

  it('agrees with the maxmind reader on 30,000 random IPv4 addresses, repeated so the caches are hit', () => {
    const next = lcg(1);
    const pool = Array.from({ length: 10_000 }, () => next());
    const differ: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const v of pool) {
        const ours = text(db.country4(v));
        const theirs = code(reader.get(formatIPv4(v)));
        if (ours !== theirs) differ.push(`${formatIPv4(v)}: ${ours} vs ${theirs}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('agrees with the maxmind reader on random IPv6 addresses in 2000::/3', () => {
    const next = lcg(2);
    const differ: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const w = Uint32Array.of(0x20000000 | (next() & 0x1fffffff), next(), next(), next());
      const ours = text(db.country6(w));
      const theirs = code(reader.get(formatIPv6(w)));
      if (ours !== theirs) differ.push(`${formatIPv6(w)}: ${ours} vs ${theirs}`);
    }
    expect(differ).toEqual([]);
    expect(text(db.country6(v6('2001:4860::1')))).toBe('US');
  });
});

describe('CountryDb and AsnDb on written fixtures, every record size and tree kind', () => {
  const geolite = (code: string) => ({ continent: { code: 'EU' }, country: { iso_code: code, names: { en: code } } });
  const entries: Array<[string, MmdbValue]> = [
    ['192.0.2.0/24', geolite('DE')],
    ['192.0.2.128/25', geolite('FR')],
    ['192.0.2.200', geolite('IT')],
    ['198.51.100.0/24', { registered_country: { iso_code: 'SE' } }],
    ['203.0.113.0/24', { country_code: 'jp' }],
    ['0.0.0.0/1', geolite('NL')],
  ];
  const v6entries: Array<[string, MmdbValue]> = [
    ['2001:db8::/32', geolite('CH')],
    ['2001:db8:1::/48', geolite('AT')],
  ];

  for (const recordSize of [24, 28, 32] as const) {
    for (const ipVersion of [4, 6] as const) {
      it(`record size ${recordSize}, IPv${ipVersion} tree`, async () => {
        const file = fixture(`country-${recordSize}-${ipVersion}.mmdb`, {
          ipVersion,
          recordSize,
          databaseType: 'GeoLite2-Country',
          entries: ipVersion === 6 ? [...entries, ...v6entries] : entries,
        });
        const db = await CountryDb.open(file);
        const c4 = (t: string) => text(db.country4(parseIPv4(t)));
        // 198.51.100.1 has only registered_country: no country, like GeoLite2 for anycast space
        expect(['192.0.2.1', '192.0.2.129', '192.0.2.200', '192.0.2.201', '198.51.100.1', '203.0.113.9', '1.2.3.4', '128.0.0.1'].map(c4)).toEqual(
          ['DE', 'FR', 'IT', 'FR', null, 'JP', 'NL', null],
        );
        expect(text(db.country6(v6('::ffff:192.0.2.1')))).toBe('DE');
        if (ipVersion === 6) {
          expect(text(db.country6(v6('2001:db8::1')))).toBe('CH');
          expect(text(db.country6(v6('2001:db8:1::1')))).toBe('AT');
          expect(text(db.country6(v6('::192.0.2.1')))).toBe('DE');
        } else {
          // an IPv4-only tree must never be walked with an IPv6 address (it would answer by the first 32 bits)
          expect(db.country6(v6('c000:0201::1'))).toBeNull();
          expect(db.country6(v6('2001:db8::1'))).toBeNull();
        }
      });
    }
  }

  it('agrees with the maxmind reader on a written fixture (checks the writer and the walk together)', async () => {
    const ranges: Array<[string, MmdbValue]> = [];
    const next = lcg(3);
    for (let i = 0; i < 300; i++) {
      const len = 8 + (next() % 25);
      const a = (next() & (len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0)) >>> 0;
      ranges.push([`${formatIPv4(a)}/${len}`, { country_code: String.fromCharCode(65 + (i % 26), 65 + ((i >> 3) % 26)) }]);
    }
    const file = fixture('random.mmdb', { ipVersion: 6, recordSize: 28, databaseType: 'test', entries: ranges });
    const db = await CountryDb.open(file);
    const reader = new Reader<Response>(readFileSync(file));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => text(db.country4(v)) === (code(reader.get(formatIPv4(v))))),
      { numRuns: 5000 },
    );
    for (const [cidr] of ranges.slice(0, 100)) {
      const v = parseIPv4(cidr.split('/')[0]);
      expect(text(db.country4(v))).toBe(code(reader.get(formatIPv4(v))));
    }
  });

  // IPv4 walks start from where the address's /16 leads, kept per /16 on first use: addresses of the
  // same /16 whose records lie above, at and below /16 must each find their own
  for (const recordSize of [24, 28, 32] as const) {
    for (const ipVersion of [4, 6] as const) {
      it(`agrees with the maxmind reader on many addresses of the same /16s (record size ${recordSize}, IPv${ipVersion} tree)`, async () => {
        const next = lcg(recordSize + ipVersion);
        const sixteens = [0x0a00, 0x0a01, 0xc000, 0xc0a8, 0xffff, 0x0000];
        const ranges: Array<[string, MmdbValue]> = [['10.0.0.0/9', { country_code: 'AA' }], ['192.0.0.0/16', { country_code: 'BB' }]];
        for (let i = 0; i < 60; i++) {
          const len = 17 + (next() % 16);
          const a = ((sixteens[i % sixteens.length]! << 16) | (next() & 0xffff)) & ((0xffffffff << (32 - len)) >>> 0);
          ranges.push([`${formatIPv4(a >>> 0)}/${len}`, { country_code: String.fromCharCode(67 + (i % 24), 65 + (i % 26)) }]);
        }
        const file = fixture(`sixteens-${recordSize}-${ipVersion}.mmdb`, { ipVersion, recordSize, databaseType: 'test', entries: ranges });
        const db = await CountryDb.open(file);
        const reader = new Reader<Response>(readFileSync(file));
        fc.assert(
          fc.property(fc.constantFrom(...sixteens), fc.integer({ min: 0, max: 0xffff }), (high, low) => {
            const v = ((high << 16) | low) >>> 0;
            return text(db.country4(v)) === code(reader.get(formatIPv4(v)));
          }),
          { numRuns: 3000 },
        );
      });
    }
  }

  // A split /16's first lookup reads its whole subtree into a block of /24 entries and, for /24s the
  // database splits further, lists of ranges searched by the last byte (mmdb.ts): every address of
  // such /24s, in an order that visits each /16 from a different /24 first, and every /16 of the /8s
  // whose /16s are filled at once, must each find what the reader finds
  for (const recordSize of [24, 28, 32] as const) {
    for (const ipVersion of [4, 6] as const) {
      it(`agrees with the maxmind reader on every address of /24s split into ranges (record size ${recordSize}, IPv${ipVersion} tree)`, async () => {
        const next = lcg(7 * recordSize + ipVersion);
        const ranges: Array<[string, MmdbValue]> = [['10.0.0.0/8', { country_code: 'AA' }], ['172.16.0.0/12', { country_code: 'BB' }], ['10.1.0.0/16', { country_code: 'CC' }]];
        const split24s: number[] = [];
        for (let i = 0; i < 40; i++) {
          const base24 = ((i % 2 === 0 ? 0x0a00 : 0xac10 + (i % 16)) << 16) | ((next() & 0xff) << 8);
          split24s.push(base24 >>> 0);
          for (let j = 0; j < 6; j++) {
            const len = 25 + (next() % 8);
            const a = (base24 | (next() & 0xff)) & ((0xffffffff << (32 - len)) >>> 0);
            ranges.push([`${formatIPv4(a >>> 0)}/${len}`, { country_code: String.fromCharCode(68 + ((i + j) % 22), 65 + (j % 26)) }]);
          }
        }
        const file = fixture(`split24-${recordSize}-${ipVersion}.mmdb`, { ipVersion, recordSize, databaseType: 'test', entries: ranges });
        const db = await CountryDb.open(file);
        const reader = new Reader<Response>(readFileSync(file));
        for (const base of split24s.reverse()) {
          for (let low = 255; low >= 0; low--) expect(text(db.country4(base + low)), formatIPv4(base + low)).toBe(code(reader.get(formatIPv4(base + low))));
        }
        for (const eight of [0x0a, 0xac, 0x0b, 0xff]) {
          for (let s = 0; s < 256; s++) {
            const v = ((eight << 24) | (s << 16) | ((s * 37) & 0xffff)) >>> 0;
            expect(text(db.country4(v)), formatIPv4(v)).toBe(code(reader.get(formatIPv4(v))));
          }
        }
      });
    }
  }

  it('reads autonomous_system_number from a GeoLite2-ASN style database', async () => {
    const file = fixture('asn.mmdb', {
      ipVersion: 6,
      recordSize: 24,
      databaseType: 'GeoLite2-ASN',
      entries: [
        ['192.0.2.0/24', { autonomous_system_number: 64496, autonomous_system_organization: 'Example One' }],
        ['198.51.100.0/24', { autonomous_system_number: 4200000001, autonomous_system_organization: 'Four-byte' }],
        ['2001:db8::/32', { autonomous_system_number: 64511, autonomous_system_organization: 'Example Six' }],
        ['203.0.113.0/24', { autonomous_system_organization: 'no number' }],
      ],
    });
    const asn = await AsnDb.open(file);
    expect([asn.asn4(parseIPv4('192.0.2.7')), asn.asn4(parseIPv4('198.51.100.1')), asn.asn4(parseIPv4('203.0.113.1')), asn.asn4(parseIPv4('10.0.0.1'))]).toEqual([64496, 4200000001, 0, 0]);
    expect([asn.asn6(v6('2001:db8::1')), asn.asn6(v6('::ffff:192.0.2.7')), asn.asn6(v6('2001:db9::1'))]).toEqual([64511, 64496, 0]);
  });
});

describe('errors', () => {
  it('names a missing file', async () => {
    const missing = path.join(dir, 'nope.mmdb');
    await expect(CountryDb.open(missing)).rejects.toThrow(DataError);
    await expect(CountryDb.open(missing)).rejects.toThrow(`${missing}: cannot read the database (no such file)`);
  });

  it('names a file that is not a MaxMind DB', async () => {
    const bad = path.join(dir, 'bad.mmdb');
    writeFileSync(bad, 'hello, not a database');
    await expect(AsnDb.open(bad)).rejects.toThrow(DataError);
    await expect(AsnDb.open(bad)).rejects.toThrow(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a MaxMind DB file`));
  });
});

// mmdb.ts reads the file in pages when a walk or a record first needs them: with pages of 64 bytes,
// every tree node and record of a small database straddles or starts near a page's end somewhere
describe('MmdbTree read in small pages', () => {
  it('finds and decodes the same records as the maxmind reader, for IPv4 and IPv6, across page ends', async () => {
    const { MmdbTree } = await import('../../src/data/mmdb.js');
    const next = lcg(38);
    const entries: Array<[string, MmdbValue]> = [];
    for (let i = 0; i < 200; i++) {
      const len = 8 + (next() % 25);
      const a = (next() & ((0xffffffff << (32 - len)) >>> 0)) >>> 0;
      entries.push([`${formatIPv4(a)}/${len}`, { country: { iso_code: `C${i % 10}`, names: { en: `land ${i} ${'x'.repeat(i % 70)}` } }, ids: [i, i * 1000, i * 1_000_000], ok: i % 2 === 0 }]);
    }
    for (let i = 0; i < 50; i++) entries.push([`2001:db8:${(i * 977).toString(16)}::/${48 + (i % 60)}`, { country: { iso_code: 'SIX' }, n: i }]);
    for (const recordSize of [24, 28, 32] as const) {
      const file = fixture(`paged-${recordSize}.mmdb`, { ipVersion: 6, recordSize, databaseType: 'paged', entries });
      const tree = await MmdbTree.open(file, 6);
      const reader = new Reader<Response>(readFileSync(file));
      expect(tree.databaseType).toBe('paged');
      const decoded = (id: number) => (id === 0 ? null : tree.record(id));
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
          expect(decoded(tree.id4(v))).toEqual(reader.get(formatIPv4(v)));
        }),
        { numRuns: 2000 },
      );
      for (const [cidr] of entries) {
        const base = cidr.split('/')[0]!;
        if (base.includes(':')) expect(decoded(tree.id6(v6(base)))).toEqual(reader.get(base));
        else expect(decoded(tree.id4(parseIPv4(base)))).toEqual(reader.get(base));
      }
    }
  });

  it('refuses to read on from a database replaced or rewritten after it was opened (never half old, half new)', async () => {
    const { MmdbTree } = await import('../../src/data/mmdb.js');
    // 3,000 /24s: a tree of ~400 KB, more than the metadata's 128 KB tail that opening reads
    const next = lcg(5);
    const entries: Array<[string, MmdbValue]> = Array.from({ length: 3000 }, (_, i) => [`${formatIPv4((next() & 0xffffff00) >>> 0)}/24`, { country_code: i % 2 ? 'AA' : 'BB' }]);
    const spec = { ipVersion: 6, recordSize: 24, databaseType: 'x', entries } as const;
    const file = fixture('rewritten.mmdb', spec);
    const tree = await MmdbTree.open(file, 6);
    const first = parseIPv4(entries[0]![0].split('/')[0]!);
    expect(tree.record(tree.id4(first))).toEqual({ country_code: 'BB' });
    writeFileSync(file, writeMmdb({ ...spec, entries: entries.slice(1) }));
    expect(() => tree.id4(parseIPv4('1.2.3.4'))).toThrow(DataError);
    expect(() => tree.id4(parseIPv4('1.2.3.4'))).toThrow(`${file}: the database changed while it was being read; run again`);
    // what was read before the change still answers
    expect(tree.record(tree.id4(first))).toEqual({ country_code: 'BB' });
  });
});
