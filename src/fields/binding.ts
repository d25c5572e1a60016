// The Rules-language fields of the firewall phase, read from a PacketRecord. Compiled expressions
// read packets only through `recordBinding`, so this table is the one place that says which record
// property a field name means and when the packet has it (the Has.* bits the decoder sets). A field
// its layer places in a header (src/layers/: ip.ttl, the ports, tcp.flags and its bits, …) is bound
// from the layer: present when its header is, its value the record property the layer names (or its
// place in the record's layerValues); the others are bound by code of their own below.
// ip.geoip.country is not here: the language derives it from ip.src.country and ip.dst.country.
//
// `sip` is present on every IP packet (true when the TCP/UDP payload starts like a SIP message,
// false otherwise), so `not sip` holds for an ordinary packet. The raw-bytes fields are views into
// the record's buffer: `ip` is the IP packet as captured (header included), `tcp`/`udp`/`icmp` the
// transport header and payload as captured.
import type { Binding, BoolAccess, BytesAccess, FieldAccess, IntAccess, IpAccess } from '../lang/binding.js';
import { protocolName } from '../capture/protocols.js';
import { HEADER_PRESENCE, Has, type PacketRecord } from '../capture/record.js';
import { FIELD_REGISTRY } from '../field-registry.js';
import { headerOf, layerValueIndex, placedFields, type LayerField } from '../layers/index.js';

type R = PacketRecord;

function int(bit: number, get: (r: R) => number): IntAccess<R> {
  return { type: 'Int', has: (r) => (r.present & bit) !== 0, get };
}

function bool(bit: number, get: (r: R) => boolean): BoolAccess<R> {
  return { type: 'Bool', has: (r) => (r.present & bit) !== 0, get };
}

/** where the decoder keeps a placed field's value: its record property (read by name, as hand-written code reads it), or its place in layerValues */
function placedValue(f: LayerField): (r: R) => number {
  if (f.record !== undefined) return new Function('r', `return r.${f.record};`) as (r: R) => number;
  const i = layerValueIndex(f);
  return (r) => r.layerValues[i]!;
}

const PLACED = placedFields();

/** A field its layer places in a header (src/layers/); a flag is a bit of the field its name extends (tcp.flags.syn of tcp.flags). */
function placed(name: string): FieldAccess<R> | undefined {
  const f = PLACED.get(name);
  if (f !== undefined) return int(HEADER_PRESENCE[headerOf(f)!], placedValue(f));
  const entry = FIELD_REGISTRY.find((e) => e.name === name);
  const whole = PLACED.get(name.slice(0, name.lastIndexOf('.')));
  if (entry?.kind !== 'flag' || whole === undefined) return undefined;
  const value = placedValue(whole);
  const bit = entry.bit;
  return bool(HEADER_PRESENCE[headerOf(whole)!], (r) => (value(r) & bit) !== 0);
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

/** The fields read by code of their own: the addresses, ip.proto, ip.len, the looked-up fields, the raw bytes and sip. */
const OWN: Binding<PacketRecord> = {
  'ip.src': ip((r) => r.src4, (r) => r.src6),
  'ip.dst': ip((r) => r.dst4, (r) => r.dst6),
  'ip.proto': text(Has.IP, (r) => protocolName(r.proto)),
  'ip.len': int(Has.IP, (r) => r.ipLen),
  'ip.src.country': text(Has.SRC_COUNTRY, (r) => r.srcCountry),
  'ip.dst.country': text(Has.DST_COUNTRY, (r) => r.dstCountry),
  'ip.src.asnum': int(Has.SRC_ASN, (r) => r.srcAsn),
  'ip.dst.asnum': int(Has.DST_ASN, (r) => r.dstAsn),
  'cf.colo.name': text(Has.COLO_NAME, (r) => r.coloName),
  'cf.colo.region': text(Has.COLO_REGION, (r) => r.coloRegion),
  ip: raw(Has.IP, (r) => r.l3Off, (r) => r.l3End),
  tcp: raw(Has.TCP, (r) => r.l4Off, (r) => r.l4End),
  udp: raw(Has.UDP, (r) => r.l4Off, (r) => r.l4End),
  icmp: raw(Has.ICMP, (r) => r.l4Off, (r) => r.l4End),
  sip: bool(Has.IP, (r) => r.sip),
};

/** Accessors of every firewall-phase field except ip.geoip.country, by Rules-language name, in the registry's order. */
export const recordBinding: Binding<PacketRecord> = Object.fromEntries(
  FIELD_REGISTRY.flatMap((f) => {
    const access = Object.hasOwn(OWN, f.name) ? OWN[f.name] : placed(f.name);
    return access === undefined ? [] : [[f.name, access]];
  }),
);
