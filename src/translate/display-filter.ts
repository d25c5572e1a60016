// Rules language -> Wireshark display filter (tshark -Y), for the fields whose meaning Wireshark's
// dissectors give exactly. Address, protocol and TTL tests name the first IP layer (`ip.src#1`), as
// edgesim reads the outermost IP header; Wireshark also dissects the IP and transport headers quoted
// inside ICMP errors, which edgesim does not, so transport tests say `!icmp && !icmpv6`. ip.proto
// on IPv6 is ipv6.nxt of the fixed header: edgesim's is the protocol after extension headers, so on
// IPv6 packets with extension headers the two can differ (said in `explain`).
import { protocolNumber } from '../capture/protocols.js';
import type { ComparisonExpr } from '../lang/index.js';
import { intRanges, ipItems, network, protocolNames, type IntRange } from './values.js';
import { type Dialect, translate, Untranslatable } from './walk.js';

const NO_ICMP = '!icmp && !icmpv6';
const FLAGS = new Set(['fin', 'syn', 'reset', 'push', 'ack', 'urg', 'ecn', 'cwr']);
const IPV6_NAMES: Record<string, string> = { src: 'ipv6.src', dst: 'ipv6.dst', ttl: 'ipv6.hlim' };

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
        if (v4.length > 0) parts.push(`${field}#1 in {${v4.join(', ')}}`);
        if (v6.length > 0) parts.push(`${IPV6_NAMES[name!]}#1 in {${v6.join(', ')}}`);
        return parts.join(' || ');
      }
      case 'ip.proto': {
        const names = protocolNames(c);
        if (names === null) throw new Untranslatable('this operator on ip.proto is not translated to a display filter');
        const nums = names.map((n) => {
          const num = protocolNumber(n);
          if (num === undefined) throw new Untranslatable(`protocol "${n}" has no number`);
          return num;
        });
        return `ip.proto#1 in {${nums.join(', ')}} || (!ip && ipv6.nxt#1 in {${nums.join(', ')}})`;
      }
      case 'ip.ttl': {
        const s = set(ints(c, field), 255);
        return `ip.ttl#1 in ${s} || (!ip && ipv6.hlim#1 in ${s})`;
      }
      case 'ip.len': {
        // IPv6: edgesim's ip.len is the payload length + 40
        const r = ints(c, field);
        return `${inSet('ip.len#1', r, 65535)} || (!ip && ${inSet('ipv6.plen#1', r.map(([lo, hi]) => [lo - 40, hi - 40] as IntRange), 65535)})`;
      }
      case 'tcp.srcport':
      case 'tcp.dstport':
      case 'udp.srcport':
      case 'udp.dstport':
        return `${inSet(field, ints(c, field), 65535)} && ${NO_ICMP}`;
      case 'icmp.type':
      case 'icmp.code':
        return `${inSet(`icmp.${name}`, ints(c, field), 255)} || ${inSet(`icmpv6.${name}`, ints(c, field), 255)}`;
    }
    if (layer === 'tcp' && name === 'flags' && c.op.kind === 'isTrue' && FLAGS.has(field.split('.')[2]!)) {
      return `${field} == 1 && ${NO_ICMP}`;
    }
    if (field === 'tcp.flags') throw new Untranslatable("tcp.flags is not translated to a display filter (Wireshark's field holds 12 bits with NS and the reserved bits, edgesim's the flags byte)");
    throw new Untranslatable(`${field} is not translated to a display filter`);
  },
};

/** The display filter selecting exactly the packets `expression` matches; throws Untranslatable or FilterError. */
export function toDisplayFilter(expression: string): string {
  return translate(expression, DISPLAY_FILTER);
}
