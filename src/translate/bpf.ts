// Rules language -> BPF (tcpdump / libpcap filter syntax), for the fields whose meaning libpcap can
// test exactly. edgesim reads the outermost IP header and the transport after it (after IPv6
// extension headers); libpcap's port and tcp[] tests read the transport only when it follows the
// IPv6 fixed header directly, so on IPv6 packets with extension headers the two can differ: the
// translation says so in `explain` and is otherwise exact. Host and network tests are written with
// `ip` / `ip6` in front (`src net` alone also matches ARP packets, which have no IP in edgesim).
import { protocolNumber } from '../capture/protocols.js';
import { fieldsOfKind } from '../field-registry.js';
import type { ComparisonExpr } from '../lang/index.js';
import { intRanges, ipItems, network, protocolNames, type IntRange } from './values.js';
import { type Dialect, translate, Untranslatable } from './walk.js';

const TCP_FLAG_BITS: ReadonlyMap<string, number> = new Map(fieldsOfKind('flag').map((f) => [f.name, f.bit]));

const ORDER: Record<string, string> = { eq: '=', lt: '<', le: '<=', gt: '>', ge: '>=' };

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

function ports(proto: 'tcp' | 'udp', dir: 'src' | 'dst', ranges: readonly IntRange[]): string {
  const parts: string[] = [];
  for (const [l, h] of ranges) {
    const lo = Math.max(0, l);
    const hi = Math.min(65535, h);
    if (lo > hi) continue;
    parts.push(lo === hi ? `${proto} ${dir} port ${lo}` : `${proto} ${dir} portrange ${lo}-${hi}`);
  }
  // no port at all: a test no packet passes, kept to the protocol so it stays readable
  return parts.length === 0 ? `${proto} and ${proto}[0] < 0` : any(parts);
}

/** the same byte test on IPv4 (proto[offset]) and IPv6 (fixed header + offset) */
function transportByte(proto: number, name: string, offset: number, test: (v: string) => string): string {
  return `(${name} and ${test(`${name}[${offset}]`)}) or (ip6 and ip6[6] = ${proto} and ${test(`ip6[${40 + offset}]`)})`;
}

export const BPF: Dialect = {
  name: 'BPF',
  and: 'and',
  or: 'or',
  not: 'not',
  comparison(c, field) {
    const [layer, dir] = field.split('.') as [string, string | undefined];
    switch (field) {
      case 'ip.src':
      case 'ip.dst': {
        const items = ipItems(c);
        if (items === null) throw new Untranslatable(`${describeOp(c)} on ${field} is not translated to BPF`);
        return any(items.map((i) => network(i, 'address ranges (a..b) have no BPF equivalent')).map((n) => `${n.family === 4 ? 'ip' : 'ip6'} ${field.slice(3)} ${n.text.includes('/') ? 'net' : 'host'} ${n.text}`));
      }
      case 'ip.proto': {
        const names = protocolNames(c);
        if (names === null) throw new Untranslatable(`${describeOp(c)} on ip.proto is not translated to BPF`);
        return any(names.map((n) => {
          const num = protocolNumber(n);
          if (num === undefined) throw new Untranslatable(`protocol "${n}" has no number`);
          return `ip proto ${num} or ip6 protochain ${num}`;
        }));
      }
      case 'ip.ttl': {
        const r = ints(c, field);
        return `(ip and ${inRanges('ip[8]', r, 255)}) or (ip6 and ${inRanges('ip6[7]', r, 255)})`;
      }
      case 'ip.len': {
        const r = ints(c, field);
        return `(ip and ${inRanges('ip[2:2]', r, 65535)}) or (ip6 and ${inRanges('ip6[4:2] + 40', r, 65575)})`;
      }
      case 'tcp.srcport':
      case 'tcp.dstport':
      case 'udp.srcport':
      case 'udp.dstport':
        return ports(layer as 'tcp' | 'udp', dir === 'srcport' ? 'src' : 'dst', ints(c, field));
      case 'tcp.flags': {
        if (c.op.kind === 'bitwiseAnd') {
          const mask = Number(c.op.rhs) & 0xff;
          return transportByte(6, 'tcp', 13, (v) => `${v} & ${mask} != 0`);
        }
        const r = ints(c, field);
        return transportByte(6, 'tcp', 13, (v) => inRanges(v, r, 255));
      }
      case 'icmp.type':
      case 'icmp.code': {
        const r = ints(c, field);
        const offset = dir === 'type' ? 0 : 1;
        return `(icmp and ${inRanges(`icmp[${offset}]`, r, 255)}) or (icmp6 and ${inRanges(`icmp6[${offset}]`, r, 255)})`;
      }
    }
    const bit = TCP_FLAG_BITS.get(field);
    if (bit !== undefined && c.op.kind === 'isTrue') {
      return transportByte(6, 'tcp', 13, (v) => `${v} & ${bit} != 0`);
    }
    throw new Untranslatable(`${field} is not translated to BPF`);
  },
};

/** The BPF filter selecting exactly the packets `expression` matches; throws Untranslatable or FilterError. */
export function toBpf(expression: string): string {
  return translate(expression, BPF);
}
