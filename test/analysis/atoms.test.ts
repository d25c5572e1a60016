// One comparison as a region of the header space (src/analysis/atoms.ts): the exact values each
// operator admits on the field's dimension, IPv6 addresses and prefixes on the address axis, the
// packets an indeterminate comparison may match, and the notes' wording.
import { describe, expect, it } from 'vitest';
import { type Meaning, type Note, comparisonMeaning, ipSetRanges } from '../../src/analysis/atoms.js';
import { type Intervals, fromRanges, point, range } from '../../src/analysis/intervals.js';
import { NameTables } from '../../src/analysis/names.js';
import { ABSENT, ASN_MAX, Dim, L4, V6_BASE, type Region, projection, universe } from '../../src/analysis/space.js';
import { type ComparisonExpr, FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';

function meaningOf(text: string, lists: Readonly<Record<string, Intervals>> = {}): Meaning & { readonly U: Region; readonly notes: string[] } {
  const expr = parse(text, FIREWALL_SCHEME).expr as ComparisonExpr;
  expect(expr.kind).toBe('comparison');
  const names = new NameTables([expr]);
  const notes: Note[] = [];
  const U = universe(names.domains);
  const m = comparisonMeaning(expr, { universe: U, names, lists: (n) => lists[n], notes });
  return { ...m, U, notes: notes.map((n) => n.message) };
}

/** the values an exact comparison admits on one dimension */
const values = (text: string, d: number): Intervals => {
  const m = meaningOf(text);
  expect(m.must).toBe(m.may);
  return projection(m.must, d);
};

const v6 = (low: bigint): bigint => V6_BASE + (0x20010db8n << 96n) + low;

describe('comparisonMeaning on an integer field', () => {
  it('admits exactly the values each ordering operator holds for, bounds included or not', () => {
    expect(values('tcp.dstport < 10', Dim.dport)).toEqual(range(0n, 9n));
    expect(values('tcp.dstport <= 10', Dim.dport)).toEqual(range(0n, 10n));
    expect(values('tcp.dstport > 10', Dim.dport)).toEqual(range(11n, 65535n));
    expect(values('tcp.dstport >= 10', Dim.dport)).toEqual(range(10n, 65535n));
    expect(values('tcp.dstport < 65534', Dim.dport)).toEqual(range(0n, 65533n));
    expect(values('tcp.dstport > 1', Dim.dport)).toEqual(range(2n, 65535n));
    expect(values('tcp.dstport == 0', Dim.dport)).toEqual(point(0n));
    expect(values('tcp.dstport == 65535', Dim.dport)).toEqual(point(65535n));
  });

  it('admits the values with a masked bit on a field of at most 16 bits', () => {
    const odd = values('tcp.dstport & 1', Dim.dport);
    expect(odd.length).toBe(2 * 32768);
    expect([odd[0], odd[1], odd.at(-2), odd.at(-1)]).toEqual([1n, 1n, 65535n, 65535n]);
  });

  it('notes a value outside the field, saying whether == is never or != always true, and an ordering no value holds', () => {
    expect(meaningOf('ip.ttl == 300').notes).toEqual(['ip.ttl: 300 is outside 0–255; `==` is never true']);
    expect(meaningOf('ip.ttl != 300').notes).toEqual(['ip.ttl: 300 is outside 0–255; `!=` is always true']);
    expect(meaningOf('ip.ttl > 255').notes).toEqual(['ip.ttl: no value in 0–255 is gt 255']);
    expect(meaningOf('ip.ttl < 0').notes).toEqual(['ip.ttl: no value in 0–255 is lt 0']);
    for (const fine of ['ip.ttl == 0', 'ip.ttl == 255', 'ip.ttl < 1', 'ip.ttl > 254', 'ip.ttl in {0 255}']) expect(meaningOf(fine).notes).toEqual([]);
  });

  it('notes the members of a set outside the field, ranges as a..b', () => {
    const m = meaningOf('ip.ttl in {10 300 400..500}');
    expect(m.notes).toEqual(['ip.ttl: 300, 400..500 outside 0–255 never match']);
    expect(projection(m.must, Dim.ttl)).toEqual(point(10n));
  });
});

describe('comparisonMeaning on an address field', () => {
  it('places IPv6 addresses, prefixes of any length and ranges on the address axis', () => {
    expect(values('ip.src == 2001:db8::1', Dim.src)).toEqual(point(v6(1n)));
    expect(values('ip.src in {2001:db8::/32}', Dim.src)).toEqual(range(v6(0n), v6((1n << 96n) - 1n)));
    expect(values('ip.src in {2001:db8::100/120}', Dim.src)).toEqual(range(v6(0x100n), v6(0x1ffn)));
    expect(values('ip.src in {2001:db8::1/128}', Dim.src)).toEqual(point(v6(1n)));
    expect(values('ip.src > 2001:db8::1', Dim.src)).toEqual(range(v6(2n), V6_BASE + (1n << 128n) - 1n));
    expect(values('ip.src in {10.0.0.1..10.0.0.5}', Dim.src)).toEqual(range(0x0a000001n, 0x0a000005n));
  });

  it('names an unknown list and an empty one', () => {
    expect(meaningOf('ip.src in $nowhere').notes).toEqual(['list $nowhere does not exist']);
    const empty = meaningOf('ip.src in $empty', { empty: [] });
    expect(empty.notes).toEqual(['list $empty is empty: `in $empty` never matches']);
    expect(empty.must).toEqual([]);
    const few = meaningOf('ip.src in $few', { few: fromRanges([[5n, 9n]]) });
    expect(projection(few.must, Dim.src)).toEqual(range(5n, 9n));
    expect(few.notes).toEqual([]);
  });

  it('reads a list of both families onto the address axis', () => {
    const set = new IpSetBuilder().addRange4(0x0a000000, 0x0affffff).addRange6(Uint32Array.of(0x20010db8, 0, 0, 0), Uint32Array.of(0x20010db8, 0, 0, 0xff)).build();
    expect(ipSetRanges(set)).toEqual(fromRanges([[0x0a000000n, 0x0affffffn], [v6(0n), v6(0xffn)]]));
  });
});

describe('comparisonMeaning of what the model does not cover', () => {
  it('may match only the packets with the field, or every packet for !=', () => {
    const has = meaningOf('tcp contains "abc"');
    expect(has.must).toEqual([]);
    expect(projection(has.may, Dim.l4)).toEqual(point(L4.tcp));
    const ne = meaningOf('tcp != "abc"');
    expect(ne.must).toEqual([]);
    expect(ne.may).toEqual(ne.U);
    const asn = meaningOf('ip.src.asnum & 1');
    expect(asn.must).toEqual([]);
    expect(projection(asn.may, Dim.srcAsn)).toEqual(range(0n, ASN_MAX));
    const call = meaningOf('bit_slice(tcp, 104, 112) == 2');
    expect(call.must).toEqual([]);
    expect(call.may).toEqual(call.U);
    const text = meaningOf('cf.colo.name > "sfo06"');
    expect(text.must).toEqual([]);
    expect(projection(text.may, Dim.coloName)).toEqual(projection(meaningOf('cf.colo.name matches "s"').may, Dim.coloName));
    expect(projection(meaningOf('ip.src.country matches "^U"').may, Dim.srcCountry)).toEqual(point(0n)); // no country mentioned: 0 is "other", ABSENT left out
    expect(projection(meaningOf('ip.geoip.country matches "^U"').may, Dim.srcCountry)).toEqual(range(ABSENT, 0n));
  });
});

describe('comparisonMeaning notes', () => {
  it('names the transport a negated protocol field leaves out', () => {
    expect(meaningOf('tcp.dstport != 22').notes).toEqual(['`tcp.dstport != …` also matches every packet without a TCP header']);
    expect(meaningOf('udp.dstport != 53').notes).toEqual(['`udp.dstport != …` also matches every packet without a UDP header']);
    expect(meaningOf('ip.src != 10.0.0.1').notes).toEqual([]);
    expect(meaningOf('icmp.type != 8').notes).toEqual(['`icmp.type != …` also matches every packet without an ICMP header']);
  });

  it('names a data center or region no packet carries', () => {
    expect(meaningOf('cf.colo.name == "nowhere"').notes).toEqual(['cf.colo.name: no data center is named "nowhere"']);
    expect(meaningOf('cf.colo.region == "NOWHERE"').notes).toEqual(['cf.colo.region: no data-center region is named "NOWHERE"']);
  });
});
