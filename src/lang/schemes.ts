// The two schemes edgesim checks expressions against.
// - FIREWALL_SCHEME: the network-firewall phase fields (reference/cloudflare.md §2.3) and
//   bit_slice; lists (`$name`) for Ip only. Every field is optional: absent ⇒ every comparison
//   false except `!=`.
// - FILTER_SCHEME: Advanced TCP Protection filters: only ip.src, ip.dst, tcp.srcport,
//   tcp.dstport, no functions, no lists (so `ip.src in $x` is "cannot perform this operation on
//   type Ip", the engine's answer when no list definition exists).
// ip.geoip.country (deprecated, still accepted) stands for the source or the destination
// country: `==`, `in`, `contains`… match when either matches; decision: `!=` is true when neither
// equals the value (an absent country counts as not equal).
import { bitSlice } from './functions/bit-slice.js';
import { Scheme } from './scheme.js';
import type { Primitive } from './types.js';

const FIREWALL_FIELDS: Record<string, Primitive> = {
  'ip.src': 'Ip', 'ip.dst': 'Ip', 'ip.proto': 'Bytes',
  'ip.len': 'Int', 'ip.ttl': 'Int', 'ip.hdr_len': 'Int', 'ip.opt.type': 'Int',
  'ip.src.country': 'Bytes', 'ip.dst.country': 'Bytes',
  'ip.src.asnum': 'Int', 'ip.dst.asnum': 'Int',
  'tcp.srcport': 'Int', 'tcp.dstport': 'Int', 'tcp.flags': 'Int',
  'tcp.flags.ack': 'Bool', 'tcp.flags.cwr': 'Bool', 'tcp.flags.ecn': 'Bool', 'tcp.flags.fin': 'Bool',
  'tcp.flags.push': 'Bool', 'tcp.flags.reset': 'Bool', 'tcp.flags.syn': 'Bool', 'tcp.flags.urg': 'Bool',
  'udp.srcport': 'Int', 'udp.dstport': 'Int', 'icmp.type': 'Int', 'icmp.code': 'Int',
  'cf.colo.name': 'Bytes', 'cf.colo.region': 'Bytes',
  ip: 'Bytes', tcp: 'Bytes', udp: 'Bytes', icmp: 'Bytes',
  sip: 'Bool',
};

/** The network-firewall phase (edge_transit / magic_transit). */
export const FIREWALL_SCHEME = new Scheme({
  fields: {
    ...FIREWALL_FIELDS,
    'ip.geoip.country': { type: 'Bytes', anyOf: ['ip.src.country', 'ip.dst.country'] },
  },
  functions: [bitSlice],
  lists: ['Ip'],
});

/** Advanced TCP Protection filter expressions. */
export const FILTER_SCHEME = new Scheme({
  fields: { 'ip.src': 'Ip', 'ip.dst': 'Ip', 'tcp.srcport': 'Int', 'tcp.dstport': 'Int' },
});
