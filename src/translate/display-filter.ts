// Rules language -> Wireshark display filter (tshark -Y), exact for the fields whose meaning
// Wireshark's dissectors give, with IP reassembly off (tshark -o ip.defragment:FALSE -o
// ipv6.defragment:FALSE): edgesim reads each frame alone, and reassembly moves a fragmented
// packet's transport to its last fragment.
//
// edgesim reads the outermost IP header and, for IPv6, the extension headers after it (hop-by-hop,
// destination options, routing, fragment, AH), then the transport. Wireshark dissects more: the
// packets inside tunnels and quoted in ICMP errors, each a layer of its own. So each test is pinned
// to the layers edgesim reads, through `frame.protocols` (the frame's layers in order, e.g.
// "eth:ethertype:ipv6:ipv6.hopopts:tcp"): the first IP layer is IPv4 or IPv6 (FIRST_IPV4 /
// FIRST_IPV6), and a transport field is the transport's right after it and its extension headers
// (outerTransport); the field itself is then the first of its layer (`tcp.dstport#1`).
//
// ip.proto on IPv6 is the next header at the end of the extension headers: the fixed header's
// (ipv6.nxt#1) when there are none; else, on a frame with no other IP layer, the one extension
// header field that holds a number other than an extension header's; else (a tunnel, an ICMP error)
// the layer after the chain, by the name Wireshark gives that protocol (PROTOCOL_LAYERS; a protocol
// without a known name is refused). An extension header's own number is edgesim's ip.proto only
// where the chain is cut short (a truncated header, a fragment that is not the first), which a
// display filter does not tell apart: refused.
import { protocolNumber } from '../capture/protocols.js';
import type { ComparisonExpr } from '../lang/index.js';
import { intRanges, ipItems, network, protocolNames, type IntRange } from './values.js';
import { type Dialect, translate, Untranslatable } from './walk.js';

const FLAGS = new Set(['fin', 'syn', 'reset', 'push', 'ack', 'urg', 'ecn', 'cwr']);
const IPV6_NAMES: Record<string, string> = { src: 'ipv6.src', dst: 'ipv6.dst', ttl: 'ipv6.hlim' };

/** the layers before the first IP layer (link layers, VLAN tags, ...), as a regular expression over frame.protocols */
const LINK = '^(?:(?!ip:|ipv6:)[^:]+:)*';
/** the IPv6 extension headers edgesim walks, by Wireshark's layer names */
const CHAIN_LAYERS = '(?:ipv6\\.(?:hopopts|dstopts|routing|fraghdr)|ah)';
/** each header's next-header field, in Wireshark's names */
const CHAIN_FIELDS = ['ipv6.hopopts.nxt', 'ipv6.dstopts.nxt', 'ipv6.routing.nxt', 'ipv6.fraghdr.nxt', 'ah.next_header'];
/** next-header numbers of the extension headers edgesim walks (capture/decode/ip.ts EXTENSION) */
const EXTENSION_NUMBERS = new Set([0, 43, 44, 51, 60]);

/**
 * The layer Wireshark's dissector gives an IP protocol (`tshark -G protocols`), for the protocols a
 * filter names after IPv6 extension headers on a frame with more than one IP layer. 112 is VRRP or
 * CARP, as Wireshark tells them apart.
 */
const PROTOCOL_LAYERS: ReadonlyMap<number, string> = new Map([
  [1, 'icmp'], [2, 'igmp'], [4, 'ip'], [6, 'tcp'], [17, 'udp'], [33, 'dccp'], [41, 'ipv6'], [46, 'rsvp'],
  [47, 'gre'], [50, 'esp'], [58, 'icmpv6'], [88, 'eigrp'], [89, 'ospf'], [97, 'etherip'], [103, 'pim'],
  [108, 'ipcomp'], [112, '(?:vrrp|carp)'], [113, 'pgm'], [115, 'l2tp'], [132, 'sctp'], [135, 'mipv6'],
  [136, 'udplite'], [137, 'mpls'], [139, 'hip'], [140, 'shim6'],
]);

/** A test of frame.protocols against a regular expression (written as the display filter's string literal). */
function layers(regex: string): string {
  return `frame.protocols matches "${regex.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const FIRST_IPV4 = layers(`${LINK}ip(?::|$)`);
const FIRST_IPV6 = layers(`${LINK}ipv6(?::|$)`);

/** The transport layer right after the outermost IP header (and, for IPv6, its extension headers) is one of `names`. */
function outerTransport(names: string): string {
  return layers(`${LINK}(?:ip|ipv6(?::${CHAIN_LAYERS})*):(?:${names})(?::|$)`);
}

function set(ranges: readonly IntRange[], max: number): string {
  const items: string[] = [];
  for (const [l, h] of ranges) {
    const lo = Math.max(0, l);
    const hi = Math.min(max, h);
    if (lo <= hi) items.push(lo === hi ? `${lo}` : `${lo}..${hi}`);
  }
  return `{${items.join(', ')}}`;
}

function ints(c: ComparisonExpr, field: string): IntRange[] {
  const r = intRanges(c);
  if (r === null) throw new Untranslatable(`this operator on ${field} is not translated to a display filter`);
  return r;
}

function inSet(field: string, ranges: readonly IntRange[], max: number): string {
  const s = set(ranges, max);
  return s === '{}' ? `${field} && !${field}` : `${field} in ${s}`;
}

/** ip.proto in `nums` on IPv6: the next header after the extension headers (see the top of this file). */
function ipv6Protocol(nums: readonly number[]): string {
  const s = `{${nums.join(', ')}}`;
  const fields = CHAIN_FIELDS.map((f) => `${f} in ${s}`).join(' || ');
  const names = nums.map((n) => {
    const name = PROTOCOL_LAYERS.get(n);
    if (name === undefined) throw new Untranslatable(`ip.proto ${n} is not translated to a display filter: on IPv6 it is the protocol after the extension headers, which a filter names, in a tunnelled or quoted packet, by the layer Wireshark gives it, and edgesim does not know that layer's name`);
    return name;
  });
  const afterChain = layers(`${LINK}ipv6(?::${CHAIN_LAYERS})+:(?:${names.join('|')})(?::|$)`);
  // no header edgesim walks after one it does not (a mobility header, shim6, HIP): edgesim stops at the first of those
  const walkedFirst = layers(`${LINK}ipv6(?::${CHAIN_LAYERS})*(?::(?!${CHAIN_LAYERS}(?::|$))[^:]+)*$`);
  return `${FIRST_IPV6} && (ipv6.nxt#1 in ${s} || (count(ipv6) == 1 && !ip && ${walkedFirst} && (${fields})) || ((count(ipv6) > 1 || ip) && ${afterChain}))`;
}

export const DISPLAY_FILTER: Dialect = {
  name: 'display-filter',
  and: '&&',
  or: '||',
  not: '!',
  comparison(c, field) {
    const [layer, name] = field.split('.') as [string, string | undefined];
    switch (field) {
      case 'ip.src':
      case 'ip.dst': {
        const items = ipItems(c);
        if (items === null) throw new Untranslatable(`this operator on ${field} is not translated to a display filter`);
        const nets = items.map((i) => network(i, 'address ranges (a..b) are not translated to a display filter'));
        const v4 = nets.filter((n) => n.family === 4).map((n) => n.text);
        const v6 = nets.filter((n) => n.family === 6).map((n) => n.text);
        const parts: string[] = [];
        if (v4.length > 0) parts.push(`(${FIRST_IPV4} && ${field}#1 in {${v4.join(', ')}})`);
        if (v6.length > 0) parts.push(`(${FIRST_IPV6} && ${IPV6_NAMES[name!]}#1 in {${v6.join(', ')}})`);
        return parts.join(' || ');
      }
      case 'ip.proto': {
        const names = protocolNames(c);
        if (names === null) throw new Untranslatable('this operator on ip.proto is not translated to a display filter');
        const nums = names.map((n) => {
          const num = protocolNumber(n);
          if (num === undefined) throw new Untranslatable(`protocol "${n}" has no number`);
          if (EXTENSION_NUMBERS.has(num)) {
            throw new Untranslatable(`ip.proto "${n}" is not translated to a display filter: on IPv6 edgesim's protocol is an extension header's only where the header chain is cut short (a truncated header, a fragment that is not the first), which a display filter does not tell apart`);
          }
          return num;
        });
        return `(${FIRST_IPV4} && ip.proto#1 in {${nums.join(', ')}}) || (${ipv6Protocol(nums)})`;
      }
      case 'ip.ttl': {
        const s = set(ints(c, field), 255);
        return `(${FIRST_IPV4} && ip.ttl#1 in ${s}) || (${FIRST_IPV6} && ipv6.hlim#1 in ${s})`;
      }
      case 'ip.len':
        throw new Untranslatable("ip.len is not translated to a display filter: where a packet's length field is 0 (a capture taken before segmentation offload, an IPv6 jumbogram) edgesim takes the length from the frame or the Jumbo Payload option, which a filter does not read");
      case 'tcp.srcport':
      case 'tcp.dstport':
      case 'udp.srcport':
      case 'udp.dstport':
        return `${inSet(`${field}#1`, ints(c, field), 65535)} && ${outerTransport(layer)}`;
      case 'icmp.type':
      case 'icmp.code': {
        const r = ints(c, field);
        return `(${inSet(`icmp.${name}#1`, r, 255)} && ${outerTransport('icmp')}) || (${inSet(`icmpv6.${name}#1`, r, 255)} && ${outerTransport('icmpv6')})`;
      }
    }
    if (layer === 'tcp' && name === 'flags' && c.op.kind === 'isTrue' && FLAGS.has(field.split('.')[2]!)) {
      return `${field}#1 == 1 && ${outerTransport('tcp')}`;
    }
    if (field === 'tcp.flags') throw new Untranslatable("tcp.flags is not translated to a display filter (Wireshark's field holds 12 bits with NS and the reserved bits, edgesim's the flags byte)");
    throw new Untranslatable(`${field} is not translated to a display filter`);
  },
};

/** The display filter selecting exactly the packets `expression` matches; throws Untranslatable or FilterError. */
export function toDisplayFilter(expression: string): string {
  return translate(expression, DISPLAY_FILTER);
}

/** tshark's options for the display filters: IP reassembly off, so each frame is dissected alone, as edgesim reads it. */
export const TSHARK_FRAME_BY_FRAME: readonly string[] = ['-o', 'ip.defragment:FALSE', '-o', 'ipv6.defragment:FALSE'];
