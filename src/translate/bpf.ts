// Rules language -> BPF (tcpdump / libpcap filter syntax), for the fields whose meaning libpcap can
// test exactly: addresses (`ip` / `ip6` in front: `src net` alone also matches ARP packets, which
// have no IP in edgesim) and the TTL or hop limit, read at the IP header's fixed place.
//
// Refused, with the reason: what edgesim reads after IPv6 extension headers. edgesim's ip.proto on
// IPv6 is the next header after the hop-by-hop, destination options, routing, fragment and AH
// headers, and its ports, TCP flags and ICMP type and code are the transport's there. libpcap's port
// and tcp[]/icmp6[] tests read the transport only right after the fixed IPv6 header; `ip6
// protochain` follows the chain for the protocol alone, and walks it otherwise than edgesim after an
// AH header followed by another extension header (libpcap 1.10's AH step drops the offset) and in a
// fragment that is not the first (it reads on into the payload); a filter expression cannot follow
// a chain of any length. The differential tests (test/translate/) show each with tcpdump.
// ip.len is refused too: a length field of 0 (a capture before segmentation offload, an IPv6
// jumbogram) is the frame's length or the Jumbo Payload option's in edgesim.
import { fieldsOfKind } from '../field-registry.js';
import type { ComparisonExpr } from '../lang/index.js';
import { intRanges, ipItems, network, type IntRange } from './values.js';
import { type Dialect, translate, Untranslatable } from './walk.js';

const TCP_FLAGS: ReadonlySet<string> = new Set(fieldsOfKind('flag').map((f) => f.name));

function any(parts: string[]): string {
  return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' or ');
}

/** `value` (a BPF arithmetic expression) within the ranges, clipped to [0, max] */
function inRanges(value: string, ranges: readonly IntRange[], max: number): string {
  const parts: string[] = [];
  for (const [l, h] of ranges) {
    const lo = Math.max(0, l);
    const hi = Math.min(max, h);
    if (lo > hi) continue;
    if (lo === hi) parts.push(`${value} = ${lo}`);
    else if (lo === 0 && hi === max) parts.push(`${value} >= 0`);
    else if (lo === 0) parts.push(`${value} <= ${hi}`);
    else if (hi === max) parts.push(`${value} >= ${lo}`);
    else parts.push(`${value} >= ${lo} and ${value} <= ${hi}`);
  }
  return parts.length === 0 ? `${value} < 0` : any(parts);
}

function ints(c: ComparisonExpr, field: string): IntRange[] {
  const r = intRanges(c);
  if (r === null) throw new Untranslatable(`${describeOp(c)} on ${field} is not translated to BPF`);
  return r;
}

function describeOp(c: ComparisonExpr): string {
  return c.op.kind === 'ordering' ? `the operator ${c.op.op}` : c.op.kind === 'bitwiseAnd' ? '&' : c.op.kind === 'isTrue' ? 'a bare truth test' : c.op.kind;
}

/** Why a test of a field edgesim reads after IPv6 extension headers has no exact BPF. */
function afterExtensionHeaders(field: string): Untranslatable {
  return new Untranslatable(
    `${field} is not translated to BPF: on IPv6 edgesim reads it after the extension headers (hop-by-hop, destination options, routing, fragment, AH), and libpcap reads ${field === 'ip.proto' ? "the protocol after them with ip6 protochain, which walks the chain otherwise after an AH header or in a fragment that is not the first" : 'a transport header only right after the fixed IPv6 header'}; the display filter (--display-filter) follows them`,
  );
}

export const BPF: Dialect = {
  name: 'BPF',
  and: 'and',
  or: 'or',
  not: 'not',
  comparison(c, field) {
    switch (field) {
      case 'ip.src':
      case 'ip.dst': {
        const items = ipItems(c);
        if (items === null) throw new Untranslatable(`${describeOp(c)} on ${field} is not translated to BPF`);
        return any(items.map((i) => network(i, 'address ranges (a..b) have no BPF equivalent')).map((n) => `${n.family === 4 ? 'ip' : 'ip6'} ${field.slice(3)} ${n.text.includes('/') ? 'net' : 'host'} ${n.text}`));
      }
      case 'ip.ttl': {
        const r = ints(c, field);
        return `(ip and ${inRanges('ip[8]', r, 255)}) or (ip6 and ${inRanges('ip6[7]', r, 255)})`;
      }
      case 'ip.len':
        throw new Untranslatable("ip.len is not translated to BPF: where a packet's length field is 0 (a capture taken before segmentation offload, an IPv6 jumbogram) edgesim takes the length from the frame or the Jumbo Payload option, which a filter does not read");
      case 'ip.proto':
      case 'tcp.srcport':
      case 'tcp.dstport':
      case 'udp.srcport':
      case 'udp.dstport':
      case 'tcp.flags':
      case 'icmp.type':
      case 'icmp.code':
        throw afterExtensionHeaders(field);
    }
    if (TCP_FLAGS.has(field)) throw afterExtensionHeaders(field);
    throw new Untranslatable(`${field} is not translated to BPF`);
  },
};

/** The BPF filter selecting exactly the packets `expression` matches; throws Untranslatable or FilterError. */
export function toBpf(expression: string): string {
  return translate(expression, BPF);
}
