// The finite name domains (src/analysis/names.ts): country codes are the uppercase codes the
// analysed expressions compare a country field with, plus one "other" code no expression
// mentions; data-center names and regions are the fixed tables.
import { describe, expect, it } from 'vitest';
import { NameTables, countryProblem, walkComparisons } from '../../src/analysis/names.js';
import { COLO_NAMES, REGIONS } from '../../src/data/colos.js';
import { type ComparisonExpr, type Expr, FIREWALL_SCHEME, parse } from '../../src/lang/index.js';

const tables = (...texts: string[]): NameTables => new NameTables(texts.map((t) => parse(t, FIREWALL_SCHEME).expr));

describe('countryProblem', () => {
  it('accepts uppercase codes and names the uppercase form of a code with lowercase letters', () => {
    expect(countryProblem('US')).toBeNull();
    expect(countryProblem('us')).toBe('country codes are uppercase ("US"); "us" never matches');
    expect(countryProblem('Us')).toBe('country codes are uppercase ("US"); "Us" never matches');
  });
});

describe('NameTables', () => {
  it('takes the countries compared with == and in, on any country field, sorted and once each', () => {
    const t = tables('ip.src.country == "US"', 'ip.dst.country in {"FR" "DE"}', 'ip.geoip.country eq "US"');
    expect(t.countries).toEqual(['DE', 'FR', 'US']);
    expect(t.domains).toEqual({ countries: 3, coloNames: COLO_NAMES.length, coloRegions: REGIONS.length });
    expect(t.country('DE')).toBe(0);
    expect(t.country('US')).toBe(2);
    expect(t.country('GB')).toBeUndefined();
  });

  it('finds the codes inside not, groups, and/or, and ignores other fields and lowercase codes', () => {
    const t = tables('not (ip.src.country == "JP" and tcp.dstport == 80)', '(ip.dst.country == "BR") or ip.src.country == "us"', 'cf.colo.region == "AB"');
    expect(t.countries).toEqual(['BR', 'JP']);
  });

  it('finds no code in an expression without a country comparison', () => {
    expect(tables('tcp.dstport == 80').countries).toEqual([]);
    expect(tables('tcp.dstport == 80').domains.countries).toBe(0);
  });

  it('names "other" the first two-letter code no expression mentions', () => {
    const t = tables('ip.src.country in {"AA" "AB" "AD"}');
    expect([0, 1, 2].map((i) => t.countryText(i))).toEqual(['AA', 'AB', 'AD']);
    expect(t.countryText(3)).toBe('AC');
    expect(tables('ip.src.country == "BA"').countryText(1)).toBe('AA');
    expect(tables('tcp.dstport == 1').countryText(0)).toBe('AA');
  });

  it('finds "other" among the last codes when nearly every code is mentioned, and stays a two-letter code when all are', () => {
    const all: string[] = [];
    for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) all.push(String.fromCharCode(a, b));
    const set = (codes: string[]): string => `ip.src.country in {${codes.map((c) => `"${c}"`).join(' ')}}`;
    expect(tables(set(all.filter((c) => c !== 'ZA'))).countryText(675)).toBe('ZA');
    expect(tables(set(all.filter((c) => c !== 'AZ'))).countryText(675)).toBe('AZ');
    expect(tables(set(all)).countryText(676)).toMatch(/^[A-Z]{2}$/);
  });

  it('indexes data-center names and regions by their tables, and back', () => {
    const t = tables('tcp.dstport == 1');
    COLO_NAMES.forEach((n, i) => {
      expect(t.coloName(n)).toBe(i);
      expect(t.coloNameText(i)).toBe(n);
    });
    REGIONS.forEach((r, i) => {
      expect(t.coloRegion(r)).toBe(i);
      expect(t.coloRegionText(i)).toBe(r);
    });
    expect(t.coloName('nowhere')).toBeUndefined();
    expect(t.coloRegion('nowhere')).toBeUndefined();
    expect(t.coloNameText(COLO_NAMES.length)).toBeUndefined();
  });
});

describe('walkComparisons', () => {
  it('visits every comparison once, in order, through not, groups and combinations', () => {
    const seen: string[] = [];
    const visit = (c: ComparisonExpr): void => {
      seen.push(c.lhs.base.kind === 'field' ? c.lhs.base.name : '?');
    };
    walkComparisons(parse('not (tcp.dstport == 1 or (udp.dstport == 2)) and ip.ttl == 3', FIREWALL_SCHEME).expr, visit);
    expect(seen).toEqual(['tcp.dstport', 'udp.dstport', 'ip.ttl']);
    // the firewall's scheme has no array field to write any(...) with: the quantifier built as the parser builds it
    const inner = parse('ip.ttl == 4', FIREWALL_SCHEME).expr;
    walkComparisons({ kind: 'quantifier', which: 'any', arg: inner, type: inner.type } as Expr, visit);
    expect(seen).toEqual(['tcp.dstport', 'udp.dstport', 'ip.ttl', 'ip.ttl']);
  });
});
