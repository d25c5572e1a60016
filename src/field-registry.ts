// Every Rules-language field of the firewall phase, defined once. Each entry says what a stage needs
// to know of the field: the kind of value it holds (and so its type), its unit and meaning for
// users (`edgesim fields`, the README's table), the part of the packet it is read from (absent when
// the packet lacks that part; a transport, or a lookup rather than the capture), its largest value,
// its bit in tcp.flags, the fast path's local for its value (src/fastpath/headers.ts) and the
// analysis' dimension of the header space (src/analysis/space.ts Dim).
//
// The stages derive their tables from this list: the firewall and ATP filter schemes
// (lang/schemes.ts), the reference (fields/reference.ts), the lookups (fields/lookups.ts), the suites'
// packet builder, the translations' looked-up fields and flag bits, the fast path's conditions and
// the analysis' field models, spaces and edges (analysis/field-dimensions.ts). Where a stage needs
// code per field (the decoder and the record binding, the fast path's prologue, the analysis' name
// tables) it keeps that code, and test/field-registry.test.ts checks that it covers every field
// here, with this type, naming the field and the stage when one is missing.
// Imports nothing.

export type Transport = 'tcp' | 'udp' | 'icmp';
export type Lookup = 'country' | 'asn' | 'colo';
/** 'ipv4': the IPv4 header only; 'ipv4-options': its options */
export type FieldPart = 'ip' | 'ipv4' | 'ipv4-options' | Transport | Lookup;

interface Common {
  readonly name: string;
  /** what a value counts or names */
  readonly unit: string;
  readonly meaning: string;
  readonly part: FieldPart;
  /** ATP filter expressions may name it too */
  readonly inFilters?: true;
}

export type FieldEntry = Common &
  (
    | { readonly kind: 'address'; /** the fast path's local of the IPv4 value */ readonly local: 's4' | 'd4'; readonly dim: string }
    | { readonly kind: 'int'; readonly max: number; /** the fast path's local, absent for a looked-up field */ readonly local?: string; readonly dim: string }
    /** a bit of tcp.flags */
    | { readonly kind: 'flag'; readonly bit: number }
    | { readonly kind: 'bool'; readonly dim: string }
    /**
     * bytes that name something (a protocol, a country, a data center), shown as text; a field that
     * stands for any of several others (ip.geoip.country) has their dimensions
     */
    | { readonly kind: 'name'; readonly dim: string; readonly anyOf?: undefined }
    | { readonly kind: 'name'; readonly anyOf: readonly string[] }
    /** the packet's bytes from a layer on, as captured */
    | { readonly kind: 'raw' }
  );

export type FieldKind = FieldEntry['kind'];
export type FieldType = 'Bool' | 'Int' | 'Ip' | 'Bytes';

const TYPES: Readonly<Record<FieldKind, FieldType>> = { address: 'Ip', int: 'Int', flag: 'Bool', bool: 'Bool', name: 'Bytes', raw: 'Bytes' };

/** A field's Rules-language type. */
export function fieldType(field: FieldEntry): FieldType {
  return TYPES[field.kind];
}

const TRANSPORTS: readonly FieldPart[] = ['tcp', 'udp', 'icmp'];
const LOOKUPS: readonly FieldPart[] = ['country', 'asn', 'colo'];

/** The transport whose header a field is read from, if any (tcp.dstport: tcp). */
export function transportOf(field: FieldEntry): Transport | undefined {
  return TRANSPORTS.includes(field.part) ? (field.part as Transport) : undefined;
}

/** The lookup a field's value comes from, if it does not come from the capture. */
export function lookupOf(field: FieldEntry): Lookup | undefined {
  return LOOKUPS.includes(field.part) ? (field.part as Lookup) : undefined;
}

const PORT = 0xffff;
const BYTE = 0xff;
const ASN = 0xffffffff;

// The helpers keep each field's name and kind as literal types, so the typed list below (ENTRIES) knows them.
const port = <P extends Transport, S extends 'src' | 'dst'>(proto: P, side: S) => ({
  name: `${proto}.${side}port` as `${P}.${S}port`,
  kind: 'int' as const,
  max: PORT,
  local: `${side[0]}port`,
  dim: `${side[0]}port`,
  part: proto,
  unit: 'port number',
  meaning: `${side === 'src' ? 'Source' : 'Destination'} port of the ${proto.toUpperCase()} header (0-65535). Absent when the packet is not ${proto.toUpperCase()} or is a non-first fragment.`,
  ...(proto === 'tcp' ? { inFilters: true as const } : {}),
}) satisfies FieldEntry;

const flag = <N extends string>(name: N, bit: number, what: string) => ({
  name: `tcp.flags.${name}` as `tcp.flags.${N}`,
  kind: 'flag' as const,
  bit,
  part: 'tcp' as const,
  unit: 'flag',
  meaning: `The ${what} bit (0x${bit.toString(16).padStart(2, '0')}) of the TCP flags. Absent when the packet is not TCP.`,
}) satisfies FieldEntry;

const raw = <T extends Transport>(name: T, what: string, select = `ip.proto == "${name}"`) => ({
  name,
  kind: 'raw' as const,
  part: name,
  unit: 'bytes',
  meaning: `${what} as captured, for bit_slice, contains and matches. Not a condition: to select ${name.toUpperCase()} packets write ${select}.`,
}) satisfies FieldEntry;

/** The fields with their names and kinds as literal types, for the types derived from them (RegisteredField). */
const ENTRIES = [
  { name: 'ip.src', kind: 'address', local: 's4', dim: 'src', part: 'ip', inFilters: true, unit: 'address', meaning: 'Source address of the outermost IP header, IPv4 or IPv6 (a tunnelled packet is described by its outer header).' },
  { name: 'ip.dst', kind: 'address', local: 'd4', dim: 'dst', part: 'ip', inFilters: true, unit: 'address', meaning: 'Destination address of the outermost IP header, IPv4 or IPv6.' },
  {
    name: 'ip.proto',
    kind: 'name',
    dim: 'proto',
    part: 'ip',
    unit: 'protocol keyword',
    meaning: 'The transport protocol as its lowercase IANA keyword ("tcp", "udp", "icmp", "ipv6-icmp", "gre"); for IPv6, the protocol after the extension headers. A number without a keyword is written in decimal ("253").',
  },
  {
    name: 'ip.len',
    kind: 'int',
    // IPv6: the payload length plus the fixed header
    max: 0xffff + 40,
    local: 'ipLen',
    dim: 'len',
    part: 'ip',
    unit: 'bytes',
    meaning: 'Length of the whole IP packet, header included: the IPv4 total length; for IPv6 the payload length plus the 40-byte fixed header (a jumbogram: its Jumbo Payload length plus 40). A length of 0 in the header (a capture taken before segmentation offload) is replaced by the frame\'s length.',
  },
  { name: 'ip.ttl', kind: 'int', max: BYTE, local: 'ttl', dim: 'ttl', part: 'ip', unit: 'hops', meaning: 'IPv4 time to live, or IPv6 hop limit.' },
  { name: 'ip.hdr_len', kind: 'int', max: 15, local: 'hdrLen', dim: 'hdrLen', part: 'ipv4', unit: '32-bit words', meaning: 'IPv4 header length (the IHL field): 5 for a header without options (20 bytes), at most 15. Absent for IPv6.' },
  {
    name: 'ip.opt.type',
    kind: 'int',
    max: BYTE,
    local: 'optType',
    dim: 'optType',
    part: 'ipv4-options',
    unit: 'option type byte',
    meaning: 'The type byte of the first IPv4 option, copy flag and class included (7 record route, 68 timestamp, 148 router alert). Absent without options, and for IPv6.',
  },
  {
    name: 'ip.src.country',
    kind: 'name',
    dim: 'srcCountry',
    part: 'country',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Country of the source address, uppercase ("US"), from the bundled GeoIP database or --geoip FILE. Absent when the database does not know the address.',
  },
  { name: 'ip.dst.country', kind: 'name', dim: 'dstCountry', part: 'country', unit: 'ISO 3166-1 alpha-2 code', meaning: 'Country of the destination address, as ip.src.country.' },
  {
    name: 'ip.geoip.country',
    kind: 'name',
    anyOf: ['ip.src.country', 'ip.dst.country'],
    part: 'country',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Deprecated, still accepted: a comparison holds when it holds for the source or the destination country; != holds when neither equals the value.',
  },
  { name: 'ip.src.asnum', kind: 'int', max: ASN, dim: 'srcAsn', part: 'asn', unit: 'AS number', meaning: 'Autonomous system of the source address, from the ASN database given with --asn FILE. Absent without one.' },
  { name: 'ip.dst.asnum', kind: 'int', max: ASN, dim: 'dstAsn', part: 'asn', unit: 'AS number', meaning: 'Autonomous system of the destination address, as ip.src.asnum.' },
  port('tcp', 'src'),
  port('tcp', 'dst'),
  {
    name: 'tcp.flags',
    kind: 'int',
    max: BYTE,
    local: 'flags',
    dim: 'flags',
    part: 'tcp',
    unit: 'bit field',
    meaning: 'The TCP flags byte (header byte 13): FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20, ECE 0x40, CWR 0x80; the AE (NS) bit is not included. Absent when the packet is not TCP.',
  },
  flag('ack', 0x10, 'ACK'),
  flag('cwr', 0x80, 'CWR'),
  flag('ecn', 0x40, 'ECE (ECN-Echo)'),
  flag('fin', 0x01, 'FIN'),
  flag('push', 0x08, 'PSH'),
  flag('reset', 0x04, 'RST'),
  flag('syn', 0x02, 'SYN'),
  flag('urg', 0x20, 'URG'),
  port('udp', 'src'),
  port('udp', 'dst'),
  { name: 'icmp.type', kind: 'int', max: BYTE, local: 'itype', dim: 'icmpType', part: 'icmp', unit: 'ICMP type', meaning: 'Type of an ICMP or ICMPv6 message (8 echo request IPv4, 128 echo request IPv6). Absent for other packets.' },
  { name: 'icmp.code', kind: 'int', max: BYTE, local: 'icode', dim: 'icmpCode', part: 'icmp', unit: 'ICMP code', meaning: 'Code of an ICMP or ICMPv6 message. Absent for other packets.' },
  {
    name: 'cf.colo.name',
    kind: 'name',
    dim: 'coloName',
    part: 'colo',
    unit: 'data center code',
    meaning: 'The data center where the packet enters the network ("sfo06"): chosen from the source country, or forced with --colo / --region.',
  },
  { name: 'cf.colo.region', kind: 'name', dim: 'coloRegion', part: 'colo', unit: 'region code', meaning: 'Region of that data center: WNAM, ENAM, NSAM, SSAM, WEUR, EEUR, ME, AFR, APAC or OC.' },
  { name: 'ip', kind: 'raw', part: 'ip', unit: 'bytes', meaning: 'The IP packet from its first header byte, as captured, for bit_slice, contains and matches. Not a condition.' },
  raw('tcp', 'The TCP header and payload'),
  raw('udp', 'The UDP header and payload'),
  raw('icmp', 'The ICMP or ICMPv6 header and payload', 'ip.proto in {"icmp" "ipv6-icmp"}'),
  {
    name: 'sip',
    kind: 'bool',
    dim: 'sip',
    part: 'ip',
    unit: 'flag',
    meaning: 'True when the TCP or UDP payload starts like a SIP message (a request line ending in SIP/2.0, or a SIP/2.0 status line); false for every other IP packet.',
  },
] as const satisfies readonly FieldEntry[];

/** The fields, in the order `edgesim fields` and the README list them. */
export const FIELD_REGISTRY: readonly FieldEntry[] = ENTRIES;

/**
 * One field of the registry as the type checker knows it: its name and kind as literal types. The
 * library's `Packet` type (a field name to a value of its kind) is derived from these, so it cannot
 * differ from the list.
 */
export type RegisteredField = (typeof ENTRIES)[number];

/** The fields of a kind, narrowed to it. */
export function fieldsOfKind<K extends FieldKind>(kind: K): Array<Extract<FieldEntry, { kind: K }>> {
  return FIELD_REGISTRY.filter((f): f is Extract<FieldEntry, { kind: K }> => f.kind === kind);
}
