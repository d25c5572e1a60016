// boxSpace (src/analysis/space-spec.ts), a box of the header space written as a suite's `space:`:
// read back, the space holds the box's packets of the protocols it names and, of the box's
// transport, no others (for the boxes of random expressions' regions; `ip.proto: tcp` also names
// TCP packets without a TCP header, an ICMP box is written with its family's protocol, a box of no
// transport header with no protocol); and the boxes the text cannot say are refused (null).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expressionMeaning } from '../../src/analysis/expression.js';
import { modelFirewalls, parseAt, type HeaderSpace } from '../../src/analysis/model.js';
import { spaceExpression, type HeaderSpaceSpec } from '../../src/analysis/prove.js';
import { ABSENT, type Box, Dim, L4, type Region, V6_BASE, constrain, projection, regionCovers } from '../../src/analysis/space.js';
import { boxSpace, writablePart } from '../../src/analysis/space-spec.js';
import { point, union } from '../../src/analysis/intervals.js';
import { expression, snapshotOf } from './replay.js';

function spaceOf(texts: readonly string[]): HeaderSpace {
  return modelFirewalls([{ snapshot: snapshotOf(texts.map((expression) => ({ action: 'block', expression, enabled: true }))) }]).space;
}

function regionOf(text: string, hs: HeaderSpace): Region {
  return expressionMeaning(parseAt(text, 'rule', 'x').expr, { universe: hs.universe, names: hs.names, lists: () => undefined, notes: [] }).must;
}

/** the box of the universe's IPv4 (or IPv6) `l4` box with some dimensions set */
function boxIn(hs: HeaderSpace, l4: bigint, v6: boolean, set: Readonly<Record<number, readonly bigint[]>>): Box {
  const home = hs.universe.find((u) => u[Dim.l4]![0] === l4 && u[Dim.src]![0]! >= V6_BASE === v6)!;
  return home.map((s, d) => set[d] ?? s);
}

const readBack = (spec: HeaderSpaceSpec, hs: HeaderSpace): Region => regionOf(spaceExpression(spec), hs);

describe('boxSpace', () => {
  it("a space written for a box holds the box's packets of the protocols it names, and of the box's transport only the box's", () => {
    let written = 0;
    fc.assert(
      fc.property(expression, (text) => {
        const hs = spaceOf([text]);
        for (const box of regionOf(text, hs)) {
          const spec = boxSpace(box, hs.universe, hs.names);
          if (spec === null) continue;
          written++;
          const back = readBack(spec, hs);
          expect(regionCovers(back, constrain([box], new Map([[Dim.proto, projection(back, Dim.proto)]]))), JSON.stringify(spec)).toBe(true);
          expect(regionCovers([box], constrain(back, new Map([[Dim.l4, box[Dim.l4]!]]))), JSON.stringify(spec)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    expect(written).toBeGreaterThan(100);
  });

  it("says the box's family and transport when no field of theirs is constrained", () => {
    const hs = spaceOf([]);
    expect(boxSpace(boxIn(hs, L4.tcp, false, {}), hs.universe, hs.names)).toEqual({ 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
    expect(boxSpace(boxIn(hs, L4.udp, true, {}), hs.universe, hs.names)).toEqual({ 'ip.src': ['::/0'], 'ip.proto': 'udp' });
    expect(boxSpace(boxIn(hs, L4.icmp, false, { [Dim.proto]: [1n, 1n] }), hs.universe, hs.names)).toEqual({ 'ip.proto': ['icmp'], 'ip.src': ['0.0.0.0/0'] });
    expect(boxSpace(boxIn(hs, L4.icmp, true, {}), hs.universe, hs.names)).toEqual({ 'ip.src': ['::/0'], 'ip.proto': 'ipv6-icmp' });
    // an ICMP box of both protocol numbers: the family's
    expect(boxSpace(boxIn(hs, L4.icmp, false, {}), hs.universe, hs.names)).toEqual({ 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'icmp' });
    expect(boxSpace(boxIn(hs, L4.tcp, true, { [Dim.dst]: [V6_BASE + 1n, V6_BASE + 1n] }), hs.universe, hs.names)).toEqual({ 'ip.dst': ['::1/128'], 'ip.proto': 'tcp' });
  });

  it('writes addresses as CIDR blocks, numbers as values and ranges, names by their text, a Bool as true or false', () => {
    const hs = spaceOf(['ip.src.country == "US"', 'cf.colo.name == "sfo06"']);
    const us = hs.names.country('US')!;
    const box = boxIn(hs, L4.tcp, false, {
      [Dim.src]: [0x0a000000n, 0x0a0000ffn, 0x0a000101n, 0x0a000102n],
      [Dim.dport]: [22n, 22n, 8000n, 8080n],
      [Dim.srcCountry]: [BigInt(us), BigInt(us)],
      [Dim.coloName]: [BigInt(hs.names.coloName('sfo06')!), BigInt(hs.names.coloName('sfo06')!)],
      [Dim.sip]: [1n, 1n],
    });
    expect(boxSpace(box, hs.universe, hs.names)).toEqual({
      'ip.src': ['10.0.0.0/24', '10.0.1.1/32', '10.0.1.2/32'],
      'tcp.dstport': [22, '8000-8080'],
      'ip.src.country': ['US'],
      'cf.colo.name': ['sfo06'],
      sip: true,
      'ip.proto': 'tcp',
    });
    expect(boxSpace(boxIn(hs, L4.udp, false, { [Dim.sip]: [0n, 0n] }), hs.universe, hs.names)).toEqual({ sip: false, 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' });
    // a block is as large as its alignment allows; IPv6 from :: on
    expect(boxSpace(boxIn(hs, L4.udp, false, { [Dim.dst]: [2n, 3n] }), hs.universe, hs.names)).toEqual({ 'ip.dst': ['0.0.0.2/31'], 'ip.proto': 'udp' });
    expect(boxSpace(boxIn(hs, L4.udp, true, { [Dim.dst]: [V6_BASE, V6_BASE + 1n] }), hs.universe, hs.names)).toEqual({ 'ip.dst': ['::/127'], 'ip.proto': 'udp' });
    const weur = BigInt(hs.names.coloRegion('WEUR')!);
    expect(boxSpace(boxIn(hs, L4.udp, false, { [Dim.coloRegion]: [weur, weur] }), hs.universe, hs.names)).toEqual({ 'cf.colo.region': ['WEUR'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' });
    // no transport header: no protocol said (not even an empty one)
    expect(boxSpace(boxIn(hs, L4.none, false, { [Dim.ttl]: [0n, 9n] }), hs.universe, hs.names)).toStrictEqual({ 'ip.ttl': ['0-9'], 'ip.src': ['0.0.0.0/0'] });
  });

  it('writes the rest of a field\'s values as {not: […]} where that is shorter, or where "absent" is among the box\'s values; never "absent" otherwise', () => {
    const hs = spaceOf(['ip.src.country == "US"']);
    const us = BigInt(hs.names.country('US')!);
    const other = BigInt(hs.names.domains.countries);
    const said = (l4: bigint, set: Readonly<Record<number, readonly bigint[]>>, v6 = false): HeaderSpaceSpec | null => boxSpace(boxIn(hs, l4, v6, set), hs.universe, hs.names);
    // absent and any country but US: every value but US (`not` takes packets without a country in)
    expect(said(L4.tcp, { [Dim.srcCountry]: [ABSENT, ABSENT, other, other] })).toEqual({ 'ip.src.country': { not: ['US'] }, 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
    // every port but 22: the shorter way
    expect(said(L4.tcp, { [Dim.dport]: [0n, 21n, 23n, 65535n] })).toEqual({ 'tcp.dstport': { not: [22] }, 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
    expect(said(L4.tcp, { [Dim.dport]: [0n, 21n] })).toEqual({ 'tcp.dstport': ['0-21'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
    // every IPv4 address but 10.0.0.0/8 names the other family too, so the space keeps to the box's
    expect(said(L4.udp, { [Dim.src]: [0n, 0x09ffffffn, 0x0b000000n, V6_BASE - 1n] })).toEqual({ 'ip.src': { not: ['10.0.0.0/8', '::/0'] }, 'ip.proto': 'udp' });
    // absent and AS 13335: every AS number but the others
    expect(said(L4.tcp, { [Dim.srcAsn]: [ABSENT, ABSENT, 13335n, 13335n] })).toEqual({ 'ip.src.asnum': { not: ['0-13334', '13336-4294967295'] }, 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
  });

  it('refuses a box the text cannot say: "absent" beside values the rest of the field cannot say, over 16 values or blocks either way, a country no expression names, more than one transport', () => {
    const hs = spaceOf(['ip.src.country == "US"']);
    const us = BigInt(hs.names.country('US')!);
    const other = BigInt(hs.names.domains.countries);
    const refused = (l4: bigint, set: Readonly<Record<number, readonly bigint[]>>): HeaderSpaceSpec | null => boxSpace(boxIn(hs, l4, false, set), hs.universe, hs.names);
    // absent and US: the rest is "any other country", which has no code
    expect(refused(L4.tcp, { [Dim.srcCountry]: [ABSENT, us] })).toBeNull();
    expect(refused(L4.tcp, { [Dim.srcCountry]: [other, other] })).toBeNull();
    const ports = (n: number): bigint[] => Array.from({ length: n }, (_, i) => [BigInt(2 * i), BigInt(2 * i)]).flat();
    expect(refused(L4.tcp, { [Dim.dport]: ports(16) })).toEqual({ 'tcp.dstport': Array.from({ length: 16 }, (_, i) => 2 * i), 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' });
    expect(refused(L4.tcp, { [Dim.dport]: ports(17) })).toBeNull();
    // 16 addresses apart, and 17; a range of 5 blocks, and one of 17 (whose rest takes 16 blocks and the other family)
    expect(refused(L4.tcp, { [Dim.src]: ports(16) })).not.toBeNull();
    expect(refused(L4.tcp, { [Dim.src]: ports(17) })).toBeNull();
    expect(refused(L4.tcp, { [Dim.src]: [1n, 17n] })).not.toBeNull();
    expect(refused(L4.tcp, { [Dim.src]: [1n, 0x1fffen] })).toBeNull();
    // 16 protocols by name, and 17
    const protocols = (n: number): bigint[] => Array.from({ length: n }, (_, i) => [BigInt(100 + 2 * i), BigInt(100 + 2 * i)]).flat();
    expect(refused(L4.none, { [Dim.proto]: protocols(16) })).not.toBeNull();
    expect(refused(L4.none, { [Dim.proto]: [100n, 115n] })).not.toBeNull();
    expect(refused(L4.none, { [Dim.proto]: [100n, 116n] })).toBeNull();
    expect(refused(L4.none, { [Dim.proto]: protocols(17) })).toBeNull();
    expect(boxSpace(boxIn(hs, L4.tcp, false, { [Dim.l4]: [L4.tcp, L4.udp] }), hs.universe, hs.names)).toBeNull();
  });
});

describe('writablePart', () => {
  it('keeps a field neither way can say to its largest ranges, without absent and unnamed countries; the rest of the box as it is', () => {
    const hs = spaceOf(['ip.src.country == "US"']);
    const other = BigInt(hs.names.domains.countries);
    const us = BigInt(hs.names.country('US')!);
    const ports = Array.from({ length: 40 }, (_, i) => [BigInt(1000 * i), BigInt(1000 * i + i)]).flat();
    const box = boxIn(hs, L4.tcp, false, { [Dim.dport]: ports, [Dim.ttl]: [0n, 9n] });
    const part = writablePart(box, hs.universe, hs.names)!;
    expect(part.whole).toBe(false);
    // the 16 widest ranges, in order
    expect(part.box[Dim.dport]).toEqual(Array.from({ length: 16 }, (_, k) => [BigInt(1000 * (24 + k)), BigInt(1000 * (24 + k) + 24 + k)]).flat());
    expect(part.box[Dim.ttl]).toEqual([0n, 9n]);
    expect(regionCovers([box], [part.box])).toBe(true);
    expect(boxSpace(part.box, hs.universe, hs.names)).not.toBeNull();
    // a box a space can say is its own part
    const said = boxIn(hs, L4.tcp, false, { [Dim.dport]: [22n, 22n] });
    expect(writablePart(said, hs.universe, hs.names)).toEqual({ box: said, whole: true });
    // absent and US: US alone; absent and "any other": nothing can be said
    expect(writablePart(boxIn(hs, L4.tcp, false, { [Dim.srcCountry]: [ABSENT, us] }), hs.universe, hs.names)!.box[Dim.srcCountry]).toEqual([us, us]);
    expect(writablePart(boxIn(hs, L4.tcp, false, { [Dim.srcCountry]: [other, other] }), hs.universe, hs.names)).toBeNull();
  });
  it('keeps the 16 widest ranges of a number field neither way can say, of equal widths the lowest, each as it is and in order (the same part on every run)', () => {
    const hs = spaceOf([]);
    const asPairs = (set: readonly bigint[]): Array<[bigint, bigint]> => Array.from({ length: set.length / 2 }, (_, i) => [set[2 * i]!, set[2 * i + 1]!]);
    const width = ([lo, hi]: [bigint, bigint]): bigint => hi - lo;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 })), { minLength: 18, maxLength: 40 }), (start, steps) => {
        // 18 to 40 port ranges apart: more than 16 values, and more than 16 in the rest
        const ranges: Array<[bigint, bigint]> = [];
        let lo = start;
        for (const [gap, size] of steps) {
          ranges.push([BigInt(lo), BigInt(lo + size - 1)]);
          lo += size + gap;
        }
        const part = writablePart(boxIn(hs, L4.tcp, false, { [Dim.dport]: ranges.flat() }), hs.universe, hs.names)!;
        expect(part.whole).toBe(false);
        const kept = asPairs(part.box[Dim.dport]!);
        expect(kept.map(([a]) => a)).toEqual(kept.map(([a]) => a).sort((a, b) => (a < b ? -1 : 1)));
        const dropped = ranges.filter(([a, b]) => !kept.some(([x, y]) => x === a && y === b));
        expect(kept).toHaveLength(16);
        expect(dropped).toHaveLength(ranges.length - 16);
        for (const k of kept) for (const r of dropped) expect(width(k) > width(r) || (width(k) === width(r) && k[0] < r[0]), `${k} kept, ${r} left out`).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('counts a range by what writing it takes: an address range by its CIDR blocks in its own family (IPv6 from ::), a name range by its names', () => {
    const hs = spaceOf([]);
    // 17 ranges of two IPv4 addresses, each two /32 blocks: the first 8 (16 blocks)
    const twos = Array.from({ length: 17 }, (_, k) => [BigInt(4 * k + 1), BigInt(4 * k + 2)]).flat();
    const v4 = writablePart(boxIn(hs, L4.tcp, false, { [Dim.src]: twos }), hs.universe, hs.names);
    expect(v4?.box[Dim.src]).toEqual(twos.slice(0, 16));
    expect(boxSpace(v4!.box, hs.universe, hs.names)?.['ip.src']).toHaveLength(16);
    // ::/64 is one block: written beside the first 15 of 20 single addresses
    const slash64 = [V6_BASE, V6_BASE + (1n << 64n) - 1n];
    const points = Array.from({ length: 20 }, (_, k) => [V6_BASE + (1n << 100n) + BigInt(2 * k), V6_BASE + (1n << 100n) + BigInt(2 * k)]).flat();
    const v6 = writablePart(boxIn(hs, L4.udp, true, { [Dim.dst]: [...slash64, ...points] }), hs.universe, hs.names);
    expect(v6?.box[Dim.dst]).toEqual([...slash64, ...points.slice(0, 30)]);
    expect((boxSpace(v6!.box, hs.universe, hs.names)?.['ip.dst'] as string[])[0]).toBe('::/64');
    // 17 ranges of two protocols: the first 8 (16 names)
    const protocols = Array.from({ length: 17 }, (_, k) => [BigInt(100 + 3 * k), BigInt(101 + 3 * k)]).flat();
    const named = writablePart(boxIn(hs, L4.none, false, { [Dim.proto]: protocols }), hs.universe, hs.names);
    expect(named?.box[Dim.proto]).toEqual(protocols.slice(0, 16));
    expect(boxSpace(named!.box, hs.universe, hs.names)?.['ip.proto']).toHaveLength(16);
  });

  it("leaves out only the country no expression names, of the source's country and the destination's alike; a number field keeps every value of its ranges", () => {
    const hs = spaceOf(['ip.src.country == "US"']);
    const us = BigInt(hs.names.country('US')!);
    const other = BigInt(hs.names.domains.countries);
    for (const d of [Dim.srcCountry, Dim.dstCountry]) {
      expect(writablePart(boxIn(hs, L4.tcp, false, { [d]: union(point(us), point(other)) }), hs.universe, hs.names)).toEqual({ box: boxIn(hs, L4.tcp, false, { [d]: point(us) }), whole: false });
    }
    // ports 0-100 (the widest; the value that is the unnamed country's index in the other fields among them) and the first 15 of 17 single ports
    const ports = Array.from({ length: 17 }, (_, k) => [BigInt(1000 + 2 * k), BigInt(1000 + 2 * k)]).flat();
    expect(writablePart(boxIn(hs, L4.tcp, false, { [Dim.dport]: [0n, 100n, ...ports] }), hs.universe, hs.names)?.box[Dim.dport]).toEqual([0n, 100n, ...ports.slice(0, 30)]);
  });
});
