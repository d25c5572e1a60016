// What each firewall-phase field means, for users: its type, its unit and what edgesim's decoder
// puts in it (src/capture/decode/, bound in binding.ts), including when the field is absent.
// `edgesim fields` prints it and the README carries the same table; a test checks that it names
// exactly the fields of the firewall scheme, with the scheme's types.

export interface FieldReference {
  readonly name: string;
  readonly type: 'Bool' | 'Int' | 'Ip' | 'Bytes';
  /** what a value counts or names */
  readonly unit: string;
  readonly meaning: string;
}

const port = (proto: string, side: string): FieldReference => ({
  name: `${proto.toLowerCase()}.${side}port`,
  type: 'Int',
  unit: 'port number',
  meaning: `${side === 'src' ? 'Source' : 'Destination'} port of the ${proto} header (0-65535). Absent when the packet is not ${proto} or is a non-first fragment.`,
});

const flag = (name: string, bit: string, hex: string): FieldReference => ({
  name: `tcp.flags.${name}`,
  type: 'Bool',
  unit: 'flag',
  meaning: `The ${bit} bit (${hex}) of the TCP flags. Absent when the packet is not TCP.`,
});

const raw = (name: string, what: string, select = `ip.proto == "${name}"`): FieldReference => ({
  name,
  type: 'Bytes',
  unit: 'bytes',
  meaning: `${what} as captured, for bit_slice, contains and matches. Not a condition: to select ${name.toUpperCase()} packets write ${select}.`,
});

export const FIELD_REFERENCE: readonly FieldReference[] = [
  { name: 'ip.src', type: 'Ip', unit: 'address', meaning: 'Source address of the outermost IP header, IPv4 or IPv6 (a tunnelled packet is described by its outer header).' },
  { name: 'ip.dst', type: 'Ip', unit: 'address', meaning: 'Destination address of the outermost IP header, IPv4 or IPv6.' },
  {
    name: 'ip.proto',
    type: 'Bytes',
    unit: 'protocol keyword',
    meaning: 'The transport protocol as its lowercase IANA keyword ("tcp", "udp", "icmp", "ipv6-icmp", "gre"); for IPv6, the protocol after the extension headers. A number without a keyword is written in decimal ("253").',
  },
  {
    name: 'ip.len',
    type: 'Int',
    unit: 'bytes',
    meaning: 'Length of the whole IP packet, header included: the IPv4 total length; for IPv6 the payload length plus the 40-byte fixed header (a jumbogram: its Jumbo Payload length plus 40). A length of 0 in the header (a capture taken before segmentation offload) is replaced by the frame\'s length.',
  },
  { name: 'ip.ttl', type: 'Int', unit: 'hops', meaning: 'IPv4 time to live, or IPv6 hop limit.' },
  { name: 'ip.hdr_len', type: 'Int', unit: '32-bit words', meaning: 'IPv4 header length (the IHL field): 5 for a header without options (20 bytes), at most 15. Absent for IPv6.' },
  {
    name: 'ip.opt.type',
    type: 'Int',
    unit: 'option type byte',
    meaning: 'The type byte of the first IPv4 option, copy flag and class included (7 record route, 68 timestamp, 148 router alert). Absent without options, and for IPv6.',
  },
  {
    name: 'ip.src.country',
    type: 'Bytes',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Country of the source address, uppercase ("US"), from the bundled GeoIP database or --geoip FILE. Absent when the database does not know the address.',
  },
  { name: 'ip.dst.country', type: 'Bytes', unit: 'ISO 3166-1 alpha-2 code', meaning: 'Country of the destination address, as ip.src.country.' },
  {
    name: 'ip.geoip.country',
    type: 'Bytes',
    unit: 'ISO 3166-1 alpha-2 code',
    meaning: 'Deprecated, still accepted: a comparison holds when it holds for the source or the destination country; != holds when neither equals the value.',
  },
  { name: 'ip.src.asnum', type: 'Int', unit: 'AS number', meaning: 'Autonomous system of the source address, from the ASN database given with --asn FILE. Absent without one.' },
  { name: 'ip.dst.asnum', type: 'Int', unit: 'AS number', meaning: 'Autonomous system of the destination address, as ip.src.asnum.' },
  port('TCP', 'src'),
  port('TCP', 'dst'),
  {
    name: 'tcp.flags',
    type: 'Int',
    unit: 'bit field',
    meaning: 'The TCP flags byte (header byte 13): FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20, ECE 0x40, CWR 0x80; the AE (NS) bit is not included. Absent when the packet is not TCP.',
  },
  flag('ack', 'ACK', '0x10'),
  flag('cwr', 'CWR', '0x80'),
  flag('ecn', 'ECE (ECN-Echo)', '0x40'),
  flag('fin', 'FIN', '0x01'),
  flag('push', 'PSH', '0x08'),
  flag('reset', 'RST', '0x04'),
  flag('syn', 'SYN', '0x02'),
  flag('urg', 'URG', '0x20'),
  port('UDP', 'src'),
  port('UDP', 'dst'),
  { name: 'icmp.type', type: 'Int', unit: 'ICMP type', meaning: 'Type of an ICMP or ICMPv6 message (8 echo request IPv4, 128 echo request IPv6). Absent for other packets.' },
  { name: 'icmp.code', type: 'Int', unit: 'ICMP code', meaning: 'Code of an ICMP or ICMPv6 message. Absent for other packets.' },
  {
    name: 'cf.colo.name',
    type: 'Bytes',
    unit: 'data center code',
    meaning: 'The data center where the packet enters the network ("sfo06"): chosen from the source country, or forced with --colo / --region.',
  },
  { name: 'cf.colo.region', type: 'Bytes', unit: 'region code', meaning: 'Region of that data center: WNAM, ENAM, NSAM, SSAM, WEUR, EEUR, ME, AFR, APAC or OC.' },
  { name: 'ip', type: 'Bytes', unit: 'bytes', meaning: 'The IP packet from its first header byte, as captured, for bit_slice, contains and matches. Not a condition.' },
  raw('tcp', 'The TCP header and payload'),
  raw('udp', 'The UDP header and payload'),
  raw('icmp', 'The ICMP or ICMPv6 header and payload', 'ip.proto in {"icmp" "ipv6-icmp"}'),
  {
    name: 'sip',
    type: 'Bool',
    unit: 'flag',
    meaning: 'True when the TCP or UDP payload starts like a SIP message (a request line ending in SIP/2.0, or a SIP/2.0 status line); false for every other IP packet.',
  },
];
