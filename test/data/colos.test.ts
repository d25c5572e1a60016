import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLO_NAMES, coloForCountry, DEFAULT_COLO, findColo, findRegion, IngressColos, REGIONS } from '../../src/data/colos.js';
import { DataError } from '../../src/data/errors.js';
import { interned } from '../../src/data/interned.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const table = JSON.parse(readFileSync(new URL('../../datasets/colos.json', import.meta.url), 'utf8')) as {
  colos: Array<{ name: string; region: string }>;
  countries: Record<string, string>;
};
// tzdata's list of ISO 3166-1 alpha-2 codes, the source the table was generated from
const iso = readFileSync('/usr/share/zoneinfo/iso3166.tab', 'utf8').split('\n').filter((l) => /^[A-Z]{2}\t/.test(l)).map((l) => l.slice(0, 2));

describe('the data-center table', () => {
  it('maps every ISO 3166-1 country to a known data center', () => {
    expect(iso.length).toBe(249);
    expect(Object.keys(table.countries).sort()).toEqual([...iso].sort());
    for (const code of iso) expect(COLO_NAMES).toContain(coloForCountry(code).name);
  });

  it('has unique vendor-style names, each in a known region, and every region served', () => {
    expect(new Set(COLO_NAMES).size).toBe(COLO_NAMES.length);
    for (const name of COLO_NAMES) expect(name).toMatch(/^[a-z]{3}\d{2}$/);
    for (const c of table.colos) expect(REGIONS).toContain(c.region);
    expect(new Set(table.colos.map((c) => c.region))).toEqual(new Set(REGIONS));
    expect(REGIONS).toEqual(['WNAM', 'ENAM', 'NSAM', 'SSAM', 'WEUR', 'EEUR', 'ME', 'AFR', 'APAC', 'OC']);
  });

  it('puts big countries near where their traffic comes from', () => {
    const where = (c: string) => `${coloForCountry(c).name}/${coloForCountry(c).region}`;
    expect(['US', 'CA', 'BR', 'DE', 'GB', 'RU', 'IN', 'JP', 'AU', 'ZA', 'AE'].map(where)).toEqual([
      'ewr01/ENAM', 'yyz01/ENAM', 'gru01/SSAM', 'fra01/WEUR', 'lhr01/WEUR', 'dme01/EEUR', 'del01/APAC', 'nrt01/APAC', 'syd01/OC', 'jnb01/AFR', 'dxb01/ME',
    ]);
  });

  it('sends an unknown country to the default data center', () => {
    expect(DEFAULT_COLO).toBe('sfo06');
    expect(coloForCountry('ZZ').name).toBe('sfo06');
    expect(coloForCountry('de').name).toBe('fra01');
  });

  it('finds names case-insensitively, and a bare city code as that city\'s first data center', () => {
    expect(findColo('FRA01')?.name).toBe('fra01');
    expect(findColo('lax')?.name).toBe('lax01');
    expect(findColo('SFO')?.name).toBe('sfo06');
    expect(findColo('xyz')).toBeUndefined();
    expect(findColo('fra0')).toBeUndefined();
    expect(findRegion('weur')).toBe('WEUR');
    expect(findRegion('Wnam')).toBe('WNAM');
    expect(findRegion('WEU')).toBeUndefined();
  });
});

describe('IngressColos', () => {
  const de = interned('DE');
  const us = interned('US');

  it('chooses by source country, default when unknown, and returns interned bytes', () => {
    const ingress = new IngressColos();
    expect(text(ingress.forCountry(de).name)).toBe('fra01');
    expect(text(ingress.forCountry(de).region)).toBe('WEUR');
    expect(ingress.forCountry(de).name).toBe(interned('fra01'));
    expect(text(ingress.forCountry(null).name)).toBe('sfo06');
    expect(text(ingress.forCountry(new Uint8Array(0)).region)).toBe('WNAM');
  });

  it('--colo forces the data center and its region', () => {
    const ingress = new IngressColos({ colo: 'NRT01' });
    for (const c of [de, us, null]) expect([text(ingress.forCountry(c).name), text(ingress.forCountry(c).region)]).toEqual(['nrt01', 'APAC']);
  });

  it('--region forces the region, keeping name and region consistent', () => {
    const ingress = new IngressColos({ region: 'weur' });
    expect(text(ingress.forCountry(de).name)).toBe('fra01');
    const fromUs = ingress.forCountry(us);
    expect([text(fromUs.name), text(fromUs.region)]).toEqual([table.colos.find((c) => c.region === 'WEUR')!.name, 'WEUR']);
    expect(text(ingress.forCountry(null).region)).toBe('WEUR');
  });

  it('refuses unknown names and a colo outside the forced region', () => {
    expect(() => new IngressColos({ colo: 'xyz99' })).toThrow(DataError);
    expect(() => new IngressColos({ colo: 'xyz99' })).toThrow('unknown data center "xyz99": expected one of the 90 in datasets/colos.json, e.g. fra01 or sfo06, or a city code such as lax');
    expect(() => new IngressColos({ region: 'MARS' })).toThrow('unknown region "MARS" (known: WNAM, ENAM, NSAM, SSAM, WEUR, EEUR, ME, AFR, APAC, OC)');
    expect(() => new IngressColos({ colo: 'fra01', region: 'WNAM' })).toThrow('data center fra01 is in region WEUR, not WNAM');
    expect(new IngressColos({ colo: 'fra01', region: 'weur' }).forCountry(null).name).toBe(interned('fra01'));
  });
});
