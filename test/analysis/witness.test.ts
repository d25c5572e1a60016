// Witness packets (src/analysis/witness.ts): a packet of a box, with ordinary-looking values where
// the box allows them (documentation addresses, TTL 64, a SYN to 443, DNS over UDP, an echo
// request), else the smallest value of each set; and the decoded packet a witness describes.
import { describe, expect, it } from 'vitest';
import { Has } from '../../src/capture/record.js';
import { witnessRecord } from '../../src/analysis/index.js';
import { type Intervals, point, range } from '../../src/analysis/intervals.js';
import { NameTables } from '../../src/analysis/names.js';
import { ABSENT, type Box, Dim, V6_BASE, universe } from '../../src/analysis/space.js';
import { type Witness, witnessOf } from '../../src/analysis/witness.js';
import { COLO_NAMES, REGIONS, findColo } from '../../src/data/colos.js';
import { FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { formatIPv6 } from '../../src/net/ipv6.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';

const names = new NameTables([parse('ip.src.country == "US"', FIREWALL_SCHEME).expr]);
// the eight boxes: IPv4 then IPv6, each TCP, UDP, ICMP, no transport header
const boxes = universe(names.domains);
const [v4tcp, v4udp, v4icmp, v4none, v6tcp, v6udp, v6icmp] = boxes;

const v4 = (text: string): bigint => BigInt(parseIPv4(text) >>> 0);
const v6 = (text: string): bigint => V6_BASE + parseIPv6(text)!.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n);
const set = (box: Box, d: number, s: Intervals): Box => box.map((x, i) => (i === d ? s : x));
const withSets = (box: Box, sets: Array<[number, Intervals]>): Box => sets.reduce((b, [d, s]) => set(b, d, s), box);

describe('witnessOf', () => {
  it('chooses ordinary-looking traffic when the box allows it', () => {
    const ordinary = { 'ip.ttl': 64, 'ip.len': 60, sip: false };
    expect(witnessOf(v4tcp!, names)).toEqual({
      ...ordinary, 'ip.src': '192.0.2.1', 'ip.dst': '198.51.100.1', 'ip.proto': 'tcp', 'ip.hdr_len': 5,
      'tcp.srcport': 40000, 'tcp.dstport': 443, 'tcp.flags': 2,
    });
    expect(witnessOf(v4udp!, names)).toEqual({
      ...ordinary, 'ip.src': '192.0.2.1', 'ip.dst': '198.51.100.1', 'ip.proto': 'udp', 'ip.hdr_len': 5, 'udp.srcport': 40000, 'udp.dstport': 53,
    });
    expect(witnessOf(v4icmp!, names)).toEqual({
      ...ordinary, 'ip.src': '192.0.2.1', 'ip.dst': '198.51.100.1', 'ip.proto': 'icmp', 'ip.hdr_len': 5, 'icmp.type': 8, 'icmp.code': 0,
    });
    expect(witnessOf(v6tcp!, names)).toEqual({
      ...ordinary, 'ip.src': '2001:db8::1', 'ip.dst': '2001:db8::2', 'ip.proto': 'tcp', 'tcp.srcport': 40000, 'tcp.dstport': 443, 'tcp.flags': 2,
    });
    expect(witnessOf(v6udp!, names)).toEqual({
      ...ordinary, 'ip.src': '2001:db8::1', 'ip.dst': '2001:db8::2', 'ip.proto': 'udp', 'udp.srcport': 40000, 'udp.dstport': 53,
    });
  });

  it('takes the next ordinary value, then the smallest value of each set the box allows', () => {
    const tcp = withSets(v4tcp!, [
      [Dim.dport, range(80n, 90n)],
      [Dim.flags, range(0x10n, 0x12n)],
    ]);
    expect(witnessOf(tcp, names)).toMatchObject({ 'tcp.dstport': 80, 'tcp.flags': 0x10 });
    const box = withSets(v4tcp!, [
      [Dim.src, range(v4('10.0.0.0'), v4('10.255.255.255'))],
      [Dim.dst, point(v4('203.0.113.7'))],
      [Dim.ttl, range(100n, 200n)],
      [Dim.len, range(1000n, 1500n)],
      [Dim.hdrLen, range(6n, 15n)],
      [Dim.optType, point(7n)],
      [Dim.srcCountry, point(0n)],
      [Dim.dstCountry, point(1n)],
      [Dim.srcAsn, point(13335n)],
      [Dim.dstAsn, range(64512n, 65534n)],
      [Dim.coloName, point(1n)],
      [Dim.coloRegion, point(2n)],
      [Dim.sport, point(1n)],
      [Dim.dport, range(8080n, 8081n)],
      [Dim.flags, point(0x12n)],
      [Dim.sip, point(1n)],
    ]);
    expect(witnessOf(box, names)).toEqual({
      'ip.src': '10.0.0.0', 'ip.dst': '203.0.113.7', 'ip.proto': 'tcp', 'ip.ttl': 100, 'ip.len': 1500, 'ip.hdr_len': 6, 'ip.opt.type': 7,
      // country 1 is "any other": the first code no expression mentions
      'ip.src.country': 'US', 'ip.dst.country': 'AA', 'ip.src.asnum': 13335, 'ip.dst.asnum': 64512,
      'cf.colo.name': COLO_NAMES[1], 'cf.colo.region': REGIONS[2],
      'tcp.srcport': 1, 'tcp.dstport': 8080, 'tcp.flags': 0x12, sip: true,
    });
    const udp = withSets(v6udp!, [[Dim.sport, range(50000n, 60000n)], [Dim.dport, range(5353n, 5353n)]]);
    expect(witnessOf(udp, names)).toMatchObject({ 'udp.srcport': 50000, 'udp.dstport': 5353 });
    const icmp = withSets(v6icmp!, [[Dim.icmpType, range(0n, 3n)], [Dim.icmpCode, range(1n, 4n)], [Dim.proto, point(58n)]]);
    expect(witnessOf(icmp, names)).toMatchObject({ 'ip.proto': 'ipv6-icmp', 'icmp.type': 0, 'icmp.code': 1 });
    // no transport header: an ordinary protocol without one (GRE), and no port, flag or ICMP field
    const gre = witnessOf(set(v4none!, Dim.proto, range(40n, 50n)), names);
    expect(gre).toEqual({ 'ip.src': '192.0.2.1', 'ip.dst': '198.51.100.1', 'ip.proto': 'gre', 'ip.ttl': 64, 'ip.len': 60, 'ip.hdr_len': 5, sip: false });
  });

  it('writes addresses as text, IPv4 below the IPv6 base and each IPv6 word in its place', () => {
    const addresses = (src: bigint, dst: bigint) => {
      const w = witnessOf(withSets(v6tcp!, [[Dim.src, point(src)], [Dim.dst, point(dst)]]), names);
      return [w['ip.src'], w['ip.dst']];
    };
    expect(addresses(V6_BASE - 1n, 0n)).toEqual(['255.255.255.255', '0.0.0.0']);
    expect(addresses(V6_BASE, V6_BASE + (1n << 128n) - 1n)).toEqual(['::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']);
    expect(addresses(v6('2001:db8:1:2:3:4:5:6'), v6('fe80::1:0:0:9'))).toEqual(['2001:db8:1:2:3:4:5:6', formatIPv6(parseIPv6('fe80::1:0:0:9')!)]);
  });

  it('gives ip.len an ordinary size that holds the headers and payload, else the least size that does', () => {
    const len = (box: Box, sets: Array<[number, Intervals]>): unknown => witnessOf(withSets(box, sets), names)['ip.len'];
    const longHeader: Array<[number, Intervals]> = [[Dim.hdrLen, point(15n)], [Dim.optType, point(7n)]];
    // a 60-byte IPv4 header: with TCP's 20 bytes, 60 is too short; with UDP's 8 too
    expect(len(v4tcp!, longHeader)).toBe(128);
    expect(len(v4udp!, longHeader)).toBe(128);
    // an ICMP error carries the invoking packet's header and 8 bytes: 20 + 8 + 28 fits 60, IPv6's 40 + 8 + 48 does not
    expect(len(v4icmp!, [[Dim.icmpType, point(3n)]])).toBe(60);
    expect(len(v6icmp!, [[Dim.icmpType, point(1n)], [Dim.proto, point(58n)]])).toBe(128);
    // a SIP request's first line: 64 bytes more
    expect(len(v4udp!, [[Dim.sip, point(1n)]])).toBe(128);
    expect(len(v4icmp!, [[Dim.icmpType, point(3n)], [Dim.sip, point(1n)]])).toBe(128);
    // no ordinary size allowed: the least that holds the packet (IPv4 20 + 20, 60 + 20, 20 + 4 with
    // GRE's header), else the smallest size allowed (IPv6 40 + 20 is above 10-59; 40 is below 129-575)
    expect(len(v4tcp!, [[Dim.len, range(0n, 59n)]])).toBe(40);
    expect(len(v4tcp!, [...longHeader, [Dim.len, range(61n, 127n)]])).toBe(80);
    expect(len(v6tcp!, [[Dim.len, range(10n, 59n)]])).toBe(10);
    expect(len(v4none!, [[Dim.proto, point(47n)], [Dim.len, range(0n, 59n)]])).toBe(24);
    expect(len(v4tcp!, [[Dim.len, range(129n, 575n)]])).toBe(129);
    // :: is the first IPv6 address: a 40-byte header
    expect(len(v6tcp!, [[Dim.src, point(V6_BASE)], [Dim.len, range(10n, 59n)]])).toBe(10);
  });

  it("gives an ICMP packet its family's protocol, as a suite builds it: ICMPv6 over IPv6 (from ::, the first IPv6 address), ICMP over IPv4", () => {
    // the ICMP boxes allow both protocol numbers (1 and 58) over either family
    const proto = (box: Box, sets: Array<[number, Intervals]> = []): unknown => witnessOf(withSets(box, sets), names)['ip.proto'];
    expect(proto(v6icmp!)).toBe('ipv6-icmp');
    expect(proto(v6icmp!, [[Dim.src, point(V6_BASE)]])).toBe('ipv6-icmp');
    expect(proto(v6icmp!, [[Dim.src, point(V6_BASE)], [Dim.proto, point(1n)]])).toBe('icmp');
    expect(proto(v4icmp!)).toBe('icmp');
    expect(proto(v4icmp!, [[Dim.src, point(V6_BASE - 1n)]])).toBe('icmp');
  });

  it('gives a packet with IP options a header longer than five words', () => {
    expect(witnessOf(set(v4tcp!, Dim.optType, point(7n)), names)).toMatchObject({ 'ip.hdr_len': 6, 'ip.opt.type': 7 });
  });

  it('gives a packet that arrived at a data center a region and a data center in it, when the box allows one', () => {
    const arrived = (sets: Array<[number, Intervals]>) => witnessOf(withSets(v4tcp!, sets), names, undefined, true);
    const regionOf = (w: Witness): string | undefined => findColo(String(w['cf.colo.name']))?.region;
    for (const [i, region] of REGIONS.entries()) {
      const w = arrived([[Dim.coloRegion, point(BigInt(i))]]);
      expect([w['cf.colo.region'], regionOf(w)]).toEqual([region, region]);
    }
    const first = arrived([]);
    expect([first['cf.colo.region'], regionOf(first)]).toEqual([REGIONS[0], REGIONS[0]]);
    // a box whose data centers are all of another region: its first data center, the pair cannot agree
    const elsewhere = COLO_NAMES.findIndex((n) => findColo(n)?.region !== REGIONS[0]);
    expect(arrived([[Dim.coloName, point(BigInt(elsewhere))], [Dim.coloRegion, point(0n)]])).toMatchObject({ 'cf.colo.name': COLO_NAMES[elsewhere], 'cf.colo.region': REGIONS[0] });
    // a box without a region (the field absent): neither field, as for a packet that did not arrive
    const none = arrived([[Dim.coloRegion, point(ABSENT)]]);
    expect(Object.keys(none).filter((k) => k.startsWith('cf.'))).toEqual([]);
    // a packet that did not arrive has no data center when the box allows it, whatever its region
    const notArrived = witnessOf(set(v4tcp!, Dim.coloRegion, point(2n)), names);
    expect([notArrived['cf.colo.name'], notArrived['cf.colo.region']]).toEqual([undefined, REGIONS[2]]);
  });

  it('lets the caller choose every value, offered the ordinary ones of the set', () => {
    const largest = (s: Intervals): bigint => s[s.length - 1]!;
    const w = witnessOf(v4tcp!, names, largest);
    expect(w).toMatchObject({ 'ip.src': '255.255.255.255', 'ip.ttl': 255, 'ip.len': 65535, 'tcp.dstport': 65535, sip: true });
  });
});

describe('witnessRecord', () => {
  it('decodes every field a witness has, and marks only those present', () => {
    const rec = witnessRecord({
      'ip.src': '10.0.0.1', 'ip.dst': '203.0.113.7', 'ip.proto': 'tcp', 'ip.ttl': 100, 'ip.len': 1000, 'ip.hdr_len': 6, 'ip.opt.type': 7,
      'ip.src.country': 'US', 'ip.dst.country': 'AA', 'ip.src.asnum': 13335, 'ip.dst.asnum': 64512,
      'cf.colo.name': 'sfo06', 'cf.colo.region': 'WNAM', 'tcp.srcport': 1, 'tcp.dstport': 8080, 'tcp.flags': 0x12, sip: true,
    });
    const text = (b: Uint8Array): string => new TextDecoder().decode(b);
    expect(rec.present).toBe(
      Has.IP | Has.IP_HDR_LEN | Has.IP_OPT | Has.SRC_COUNTRY | Has.DST_COUNTRY | Has.SRC_ASN | Has.DST_ASN | Has.COLO_NAME | Has.COLO_REGION | Has.TCP,
    );
    expect([rec.ipVersion, rec.src4 >>> 0, rec.dst4 >>> 0, rec.proto, rec.ttl, rec.ipLen, rec.hdrLen, rec.optType]).toEqual([
      4, parseIPv4('10.0.0.1') >>> 0, parseIPv4('203.0.113.7') >>> 0, 6, 100, 1000, 6, 7,
    ]);
    expect([text(rec.srcCountry), text(rec.dstCountry), rec.srcAsn, rec.dstAsn, text(rec.coloName), text(rec.coloRegion)]).toEqual(['US', 'AA', 13335, 64512, 'sfo06', 'WNAM']);
    expect([rec.srcPort, rec.dstPort, rec.tcpFlags, rec.sip]).toEqual([1, 8080, 0x12, true]);
  });

  it('reuses a record without keeping the previous packet, and reads UDP, ICMP and no transport', () => {
    const rec = witnessRecord({ 'ip.src': '10.0.0.1', 'ip.dst': '10.0.0.2', 'ip.proto': 'tcp', 'ip.ttl': 1, 'ip.len': 40, 'ip.hdr_len': 5, 'ip.src.country': 'US', 'tcp.srcport': 1, 'tcp.dstport': 2, 'tcp.flags': 2, sip: true });
    const udp = witnessRecord({ 'ip.src': '2001:db8::1', 'ip.dst': '2001:db8::2', 'ip.proto': 'udp', 'ip.ttl': 64, 'ip.len': 60, 'udp.srcport': 40000, 'udp.dstport': 53, sip: false }, rec);
    expect(udp).toBe(rec);
    expect([udp.present, udp.ipVersion, udp.proto, udp.srcPort, udp.dstPort, udp.sip]).toEqual([Has.IP | Has.UDP, 6, 17, 40000, 53, false]);
    expect(formatIPv6(udp.src6)).toBe('2001:db8::1');
    const icmp = witnessRecord({ 'ip.src': '10.0.0.1', 'ip.dst': '10.0.0.2', 'ip.proto': 'icmp', 'ip.ttl': 64, 'ip.len': 60, 'icmp.type': 8, 'icmp.code': 3, sip: false }, rec);
    expect([icmp.present, icmp.proto, icmp.icmpType, icmp.icmpCode]).toEqual([Has.IP | Has.ICMP, 1, 8, 3]);
    // a witness without a protocol is TCP's number; without a transport header, none is present
    const bare = witnessRecord({ 'ip.src': '10.0.0.1', 'ip.dst': '10.0.0.2', 'ip.ttl': 64, 'ip.len': 20, sip: false }, rec);
    expect([bare.present, bare.proto]).toEqual([Has.IP, 6]);
  });
});
