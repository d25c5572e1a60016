// The Rules-language fields of the firewall phase, read from a PacketRecord. Compiled expressions
// read packets only through `recordBinding`, so this table is the one place that says which record
// property a field name means and when the packet has it (the Has.* bits the decoder sets).
// ip.geoip.country is not here: the language derives it from ip.src.country and ip.dst.country.
//
// `sip` is present on every IP packet (true when the TCP/UDP payload starts like a SIP message,
// false otherwise), so `not sip` holds for an ordinary packet. The raw-bytes fields are views into
// the record's buffer: `ip` is the IP packet as captured (header included), `tcp`/`udp`/`icmp` the
// transport header and payload as captured.
import type { Binding, BoolAccess, BytesAccess, IntAccess, IpAccess } from '../lang/binding.js';
import { protocolName } from '../capture/protocols.js';
import { Has, type PacketRecord, TcpFlag } from '../capture/record.js';

type R = PacketRecord;

function int(bit: number, get: (r: R) => number): IntAccess<R> {
  return { type: 'Int', has: (r) => (r.present & bit) !== 0, get };
}

function bool(bit: number, get: (r: R) => boolean): BoolAccess<R> {
  return { type: 'Bool', has: (r) => (r.present & bit) !== 0, get };
}

function tcpFlag(flag: number): BoolAccess<R> {
  return bool(Has.TCP, (r) => (r.tcpFlags & flag) !== 0);
}

/** A Bytes field whose value is a name (a protocol, a country, a data center), shown as text. */
export interface NameAccess extends BytesAccess<R> {
  readonly isName: true;
}

/** an interned string: the whole array */
function text(bit: number, bytes: (r: R) => Uint8Array): NameAccess {
  return { type: 'Bytes', isName: true, has: (r) => (r.present & bit) !== 0, bytes, start: () => 0, end: (r) => bytes(r).length };
}

/** a raw view into the packet's buffer */
function raw(bit: number, start: (r: R) => number, end: (r: R) => number): BytesAccess<R> {
  return { type: 'Bytes', has: (r) => (r.present & bit) !== 0, bytes: (r) => r.data, start, end };
}

function ip(v4: (r: R) => number, v6: (r: R) => Uint32Array): IpAccess<R> {
  return { type: 'Ip', has: (r) => (r.present & Has.IP) !== 0, family: (r) => r.ipVersion, v4, v6 };
}

/** Accessors of every firewall-phase field except ip.geoip.country, by Rules-language name. */
export const recordBinding: Binding<PacketRecord> = {
  'ip.src': ip((r) => r.src4, (r) => r.src6),
  'ip.dst': ip((r) => r.dst4, (r) => r.dst6),
  'ip.proto': text(Has.IP, (r) => protocolName(r.proto)),
  'ip.len': int(Has.IP, (r) => r.ipLen),
  'ip.ttl': int(Has.IP, (r) => r.ttl),
  'ip.hdr_len': int(Has.IP_HDR_LEN, (r) => r.hdrLen),
  'ip.opt.type': int(Has.IP_OPT, (r) => r.optType),
  'ip.src.country': text(Has.SRC_COUNTRY, (r) => r.srcCountry),
  'ip.dst.country': text(Has.DST_COUNTRY, (r) => r.dstCountry),
  'ip.src.asnum': int(Has.SRC_ASN, (r) => r.srcAsn),
  'ip.dst.asnum': int(Has.DST_ASN, (r) => r.dstAsn),
  'tcp.srcport': int(Has.TCP, (r) => r.srcPort),
  'tcp.dstport': int(Has.TCP, (r) => r.dstPort),
  'tcp.flags': int(Has.TCP, (r) => r.tcpFlags),
  'tcp.flags.ack': tcpFlag(TcpFlag.ACK),
  'tcp.flags.cwr': tcpFlag(TcpFlag.CWR),
  'tcp.flags.ecn': tcpFlag(TcpFlag.ECE),
  'tcp.flags.fin': tcpFlag(TcpFlag.FIN),
  'tcp.flags.push': tcpFlag(TcpFlag.PSH),
  'tcp.flags.reset': tcpFlag(TcpFlag.RST),
  'tcp.flags.syn': tcpFlag(TcpFlag.SYN),
  'tcp.flags.urg': tcpFlag(TcpFlag.URG),
  'udp.srcport': int(Has.UDP, (r) => r.srcPort),
  'udp.dstport': int(Has.UDP, (r) => r.dstPort),
  'icmp.type': int(Has.ICMP, (r) => r.icmpType),
  'icmp.code': int(Has.ICMP, (r) => r.icmpCode),
  'cf.colo.name': text(Has.COLO_NAME, (r) => r.coloName),
  'cf.colo.region': text(Has.COLO_REGION, (r) => r.coloRegion),
  ip: raw(Has.IP, (r) => r.l3Off, (r) => r.l3End),
  tcp: raw(Has.TCP, (r) => r.l4Off, (r) => r.l4End),
  udp: raw(Has.UDP, (r) => r.l4Off, (r) => r.l4End),
  icmp: raw(Has.ICMP, (r) => r.l4Off, (r) => r.l4End),
  sip: bool(Has.IP, (r) => r.sip),
};
