// The conformance table's rows over the firewall scheme: (expression, field values, expected). The
// compiled predicate and the interpreter run them (conformance.test.ts) and so does the fast path,
// the language's third back end, on packets built with those values (test/fastpath/conformance.test.ts).
// `$bad` is CONFORMANCE_LISTS' list.
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';

export type Row = [expr: string, values: Record<string, unknown>, expected: boolean];

const bad = new IpSetBuilder().addPrefix4(parseIPv4('198.51.100.0'), 24).addPrefix6(parseIPv6('2001:db8::')!, 32).build();
/** `$bad`: 198.51.100.0/24 and 2001:db8::/32 */
export const CONFORMANCE_LISTS = new Map([['blocked', new IpSetBuilder().build()], ['bad', bad]]);

/** a TCP header: ports 443 -> 50000, seq 1, data offset 5, SYN+ACK, window 65535 */
export const rawTcp = new Uint8Array([0x01, 0xbb, 0xc3, 0x50, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x12, 0xff, 0xff]);

/** rawTcp whole: checksum and urgent pointer 0 (a frame with it is not cut short, so the fast path reads it) */
const fullTcp = new Uint8Array([...rawTcp, 0, 0, 0, 0]);

export const FIREWALL_ROWS: Row[] = [
  ['ip.geoip.country == "BR"', { 'ip.src.country': 'US', 'ip.dst.country': 'BR' }, true],
  ['ip.geoip.country == "BR"', { 'ip.src.country': 'BR' }, true],
  ['ip.geoip.country == "BR"', { 'ip.src.country': 'US', 'ip.dst.country': 'DE' }, false],
  ['ip.geoip.country != "BR"', { 'ip.src.country': 'US', 'ip.dst.country': 'BR' }, false],
  ['ip.geoip.country != "BR"', { 'ip.src.country': 'US', 'ip.dst.country': 'DE' }, true],
  ['ip.geoip.country != "BR"', {}, true],
  ['ip.geoip.country in {"BR" "AR"}', { 'ip.dst.country': 'AR' }, true],
  ['not ip.geoip.country == "BR"', { 'ip.dst.country': 'BR' }, false],
  ['bit_slice(tcp, 0, 16) == 443', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 16, 32) == 50000', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 106, 112) == 0x12', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 100, 106) == 0', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 96, 100) == 5', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 112, 128) == 65535', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 112, 129) == 0', { tcp: rawTcp }, false],
  ['bit_slice(tcp, 112, 129) != 0', { tcp: rawTcp }, true],
  ['bit_slice(tcp, 0, 32) == 0x01bbc350', { tcp: rawTcp }, true],
  ['bit_slice(udp, 0, 8) == 1', { tcp: rawTcp }, false],
  ['tcp contains 50:12', { tcp: rawTcp }, true],
  ['ip.src in $bad', { 'ip.src': '198.51.100.7' }, true],
  ['ip.src in $bad', { 'ip.src': '2001:db8:1::1' }, true],
  ['ip.src in $bad', { 'ip.src': '198.51.101.7' }, false],
  ['not ip.src in $bad', {}, true],
  ['ip.dst == 2001:db8::1', { 'ip.dst': '2001:db8::1' }, true],
  ['ip.dst > 2001:db8::1', { 'ip.dst': '2001:db8::1:0' }, true],
  ['ip.dst >= 10.0.0.0 and ip.dst < 10.0.1.0', { 'ip.dst': '10.0.0.200' }, true],
  ['ip.dst in {10.0.0.0/8 2001:db8::/32}', { 'ip.dst': '2001:db8:ffff::' }, true],
  ['tcp.flags & 0x12 and not tcp.flags.ack', { 'tcp.flags': 0x02, 'tcp.flags.ack': false }, true],
  ['ip.src.asnum & 0x100000000', { 'ip.src.asnum': 2 ** 32 + 5 }, true],
  ['ip.src.asnum & 0x100000000', { 'ip.src.asnum': 2 ** 32 - 1 }, false],
  ['ip.src.asnum & -1', { 'ip.src.asnum': 2 ** 40 }, true],
  ['cf.colo.region wildcard "w*m"', { 'cf.colo.region': 'WNAM' }, true],
  ['cf.colo.name matches "^[a-z]{3}\\d+$"', { 'cf.colo.name': 'sfo06' }, true],
  ['cf.colo.name matches "^[a-z]{3}\\\\d+$"', { 'cf.colo.name': 'sfo06' }, false],
  ['cf.colo.name matches r"^[a-z]{3}\\\\d+$"', { 'cf.colo.name': 'sfo\\dd' }, true],
  ['cf.colo.name ~ "."', { 'cf.colo.name': '\n' }, false],
  ['ip.proto in {"tcp" "udp"} and sip', { 'ip.proto': 'udp', sip: true }, true],
  ['ip.proto == "tcp" xor ip.proto == "udp" xor sip', { 'ip.proto': 'tcp', sip: true }, false],
  ['icmp.type in {0 3 8 11}', { 'icmp.type': 8 }, true],
  ['bit_slice(tcp, 0, 16) == 443', { tcp: fullTcp }, true],
  ['bit_slice(tcp, 96, 100) == 5', { tcp: fullTcp }, true],
  ['bit_slice(tcp, 106, 112) == 0x12', { tcp: fullTcp }, true],
  ['bit_slice(tcp, 144, 160) == 0', { tcp: fullTcp }, true],
  ['bit_slice(tcp, 144, 160) != 0', { tcp: fullTcp }, false],
  ['tcp contains c3:50', { tcp: fullTcp }, true],
  ['tcp contains 12:50', { tcp: fullTcp }, false],
  ['ip.ttl > 64', { 'ip.ttl': 65 }, true],
  ['ip.ttl > 64', { 'ip.ttl': 64 }, false],
  ['udp.dstport in {53 5353}', { 'udp.dstport': 5353 }, true],
  ['udp.dstport in {53 5353}', { 'udp.dstport': 5354 }, false],
  ['ip.len >= 1000', { 'ip.len': 1000 }, true],
];
