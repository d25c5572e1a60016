// The IP layer: the outermost IPv4 or IPv6 header (capture/decode/ip.ts decodes it). ip.ttl and the
// IPv4 header's own fields sit at fixed offsets; the addresses, ip.proto (after IPv6's extension
// headers) and ip.len (a zero length, a jumbogram) take the decoder's and the prologue's own code.
import { BYTE, field, fieldList, layer } from './define.js';

export const IP_FIELDS = fieldList(
  field({ name: 'ip.src', kind: 'address', local: 's4', dim: 'src', part: 'ip', inFilters: true, unit: 'address', meaning: 'Source address of the outermost IP header, IPv4 or IPv6 (a tunnelled packet is described by its outer header).' }),
  field({ name: 'ip.dst', kind: 'address', local: 'd4', dim: 'dst', part: 'ip', inFilters: true, unit: 'address', meaning: 'Destination address of the outermost IP header, IPv4 or IPv6.' }),
  field({
    name: 'ip.proto',
    kind: 'name',
    dim: 'proto',
    part: 'ip',
    unit: 'protocol keyword',
    meaning: 'The transport protocol as its lowercase IANA keyword ("tcp", "udp", "icmp", "ipv6-icmp", "gre"); for IPv6, the protocol after the extension headers. A number without a keyword is written in decimal ("253").',
  }),
  field({
    name: 'ip.len',
    kind: 'int',
    // a zero length in the header is the frame's (IPv4; IPv6 without a Jumbo Payload option), and a
    // jumbogram's is 32 bits: the length on the wire, or the Jumbo Payload length plus the fixed header
    max: 0xffffffff + 40,
    local: 'ipLen',
    dim: 'len',
    part: 'ip',
    unit: 'bytes',
    meaning: 'Length of the whole IP packet, header included: the IPv4 total length; for IPv6 the payload length plus the 40-byte fixed header (a jumbogram: its Jumbo Payload length plus 40). A length of 0 in the header (a capture taken before segmentation offload) is replaced by the frame\'s length.',
  }),
  field(
    { name: 'ip.ttl', kind: 'int', max: BYTE, local: 'ttl', dim: 'ttl', part: 'ip', unit: 'hops', meaning: 'IPv4 time to live, or IPv6 hop limit.' },
    { at: { v4: { offset: 8, bytes: 1 }, v6: { offset: 7, bytes: 1 } }, record: 'ttl', default: 64, usual: [64] },
  ),
  field(
    { name: 'ip.hdr_len', kind: 'int', max: 15, local: 'hdrLen', dim: 'hdrLen', part: 'ipv4', unit: '32-bit words', meaning: 'IPv4 header length (the IHL field): 5 for a header without options (20 bytes), at most 15. Absent for IPv6.' },
    { at: { v4: { offset: 0, bytes: 1, mask: 0x0f } }, record: 'hdrLen', default: 5 },
  ),
  field(
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
    { at: { v4: { offset: 20, bytes: 1 } }, record: 'optType' },
  ),
);

export const IP_BYTES = field({ name: 'ip', kind: 'raw', part: 'ip', unit: 'bytes', meaning: 'The IP packet from its first header byte, as captured, for bit_slice, contains and matches. Not a condition.' });

export const SIP = field({
  name: 'sip',
  kind: 'bool',
  dim: 'sip',
  part: 'ip',
  unit: 'flag',
  meaning: 'True when the TCP or UDP payload starts like a SIP message (a request line ending in SIP/2.0, or a SIP/2.0 status line); false for every other IP packet.',
});

export const IP_LAYER = layer({ name: 'ip', fields: IP_FIELDS, bytes: IP_BYTES, payload: [SIP] });
