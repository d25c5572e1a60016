// One flat, reusable record of a decoded packet. The reader/decoder fills the same instance for
// every packet (reset() then set what the packet has), so the hot path allocates nothing: numbers
// live in plain properties, IPv6 addresses in preallocated word arrays, strings such as countries
// and data-center names as interned byte arrays shared by every packet.
//
// `present` says which groups of fields the packet has; a field whose group bit is clear is
// *absent* in the Rules-language sense (every comparison false except `!=`).
//
// Addresses: IPv4 as an unsigned 32-bit number (a.b.c.d = a<<24|b<<16|c<<8|d, kept >>> 0);
// IPv6 as four unsigned 32-bit words, most significant first.

import type { Frame } from './frame.js';
import { parseIPv4 } from '../net/ipv4.js';
import { parseIPv6 } from '../net/ipv6.js';
import { layerValueFields, type Header } from '../layers/index.js';

/** Bits of PacketRecord.present: which groups of fields the packet has. */
export const Has = {
  /** ip.src, ip.dst, ip.proto, ip.len, ip.ttl and the raw `ip` bytes */
  IP: 1 << 0,
  /** ip.hdr_len (IPv4 only: the IHL, in 32-bit words) */
  IP_HDR_LEN: 1 << 1,
  /** ip.opt.type (IPv4 with options) */
  IP_OPT: 1 << 2,
  /** tcp.srcport, tcp.dstport, tcp.flags and its flag booleans, tcpSeq/tcpAck/tcpWindow, raw `tcp` */
  TCP: 1 << 3,
  /** udp.srcport, udp.dstport, raw `udp` */
  UDP: 1 << 4,
  /** icmp.type, icmp.code, raw `icmp` (ICMP and ICMPv6) */
  ICMP: 1 << 5,
  SRC_COUNTRY: 1 << 6,
  DST_COUNTRY: 1 << 7,
  SRC_ASN: 1 << 8,
  DST_ASN: 1 << 9,
  COLO_NAME: 1 << 10,
  COLO_REGION: 1 << 11,
  /** sip: the UDP/TCP payload parses as a SIP request or response line */
  SIP: 1 << 12,
} as const;

/** The presence bit of each header a layer places fields in (src/layers/): the field is there when its header is. */
export const HEADER_PRESENCE: Readonly<Record<Header, number>> = { ip: Has.IP, ipv4: Has.IP_HDR_LEN, 'ipv4-options': Has.IP_OPT, tcp: Has.TCP, udp: Has.UDP, icmp: Has.ICMP };

/** TCP flag bits as in the TCP header's flags byte (tcp.flags). */
export const TcpFlag = {
  FIN: 0x01,
  SYN: 0x02,
  RST: 0x04,
  PSH: 0x08,
  ACK: 0x10,
  URG: 0x20,
  ECE: 0x40,
  CWR: 0x80,
} as const;

const EMPTY = new Uint8Array(0);

/**
 * What a field holding any unsigned 32-bit number (an address, a sequence number, an AS number)
 * starts as, before the constructor's reset() makes it 0: a number V8 does not keep as a small
 * integer, so the field is laid out for every such number from the start. A field laid out for small
 * integers changed the record's hidden class when the first number above 2^31 came, mid-read (often
 * at the first dropped packet, whose addresses the fast path reads), and threw away every function
 * optimized for the record (test/capture/record-shape.test.ts).
 */
const UINT32_LAYOUT = -0;

export class PacketRecord {
  /** 1-based frame number, as Wireshark numbers frames (in its own file, when several captures are merged) */
  frame = 0;
  /** which of several merged captures the frame came from, by its place in the list (0 for a single capture) */
  file = 0;
  /** capture timestamp: whole seconds since the epoch, and nanoseconds within the second */
  tsSec = 0;
  tsNsec = 0;
  /** link type of the interface the packet came from (pcap LINKTYPE_* number) */
  linkType = 0;
  /**
   * The buffer holding the frame: the frame's captured bytes are data[dataOff, dataOff + capLen).
   * The reader points `data` at its whole read buffer rather than slicing out each frame (a slice
   * allocates), so `data` is valid only until the next packet is read, and every offset below
   * (l3Off, l4Off, ...) is absolute into `data`, not relative to the frame.
   */
  data: Uint8Array = EMPTY;
  /** where the frame starts in `data` */
  dataOff = 0;
  /** captured length of the frame */
  capLen = 0;
  origLen = 0;

  /** Has.* bits */
  present = 0;

  /** 4 or 6 when Has.IP; 0 otherwise */
  ipVersion = 0;
  src4 = UINT32_LAYOUT;
  dst4 = UINT32_LAYOUT;
  readonly src6 = new Uint32Array(4);
  readonly dst6 = new Uint32Array(4);
  /** IANA protocol number of the transport (after IPv6 extension headers); ip.proto is its keyword */
  proto = 0;
  /** ip.len: total length from the IP header (IPv6: payload length + 40) */
  ipLen = 0;
  /** ip.ttl (IPv6: hop limit) */
  ttl = 0;
  /** ip.hdr_len: IPv4 IHL in 32-bit words */
  hdrLen = 0;
  /** ip.opt.type: first byte of the IPv4 options */
  optType = 0;
  /** fragment offset in bytes (0 for the first or an unfragmented packet) and the MF flag */
  fragOffset = 0;
  moreFragments = false;
  /** absolute byte offsets in `data`: the IP header start, end of the IP packet as captured, transport start and end */
  l3Off = 0;
  l3End = 0;
  l4Off = 0;
  l4End = 0;

  /** transport ports: tcp.* when Has.TCP, udp.* when Has.UDP */
  srcPort = 0;
  dstPort = 0;
  /** tcp.flags: the flags byte (FIN..CWR); the NS bit is not part of it */
  tcpFlags = 0;
  tcpSeq = UINT32_LAYOUT;
  tcpAck = UINT32_LAYOUT;
  tcpWindow = 0;
  /**
   * the values of the header fields without a property of their own (a field a test adds to a
   * layer), by their place in layerValueFields(); set by the decoder when the field's header is there
   */
  readonly layerValues = new Float64Array(layerValueFields().length);
  /** transport payload length in bytes (from the headers, not the captured length) */
  payloadLen = 0;

  icmpType = 0;
  icmpCode = 0;

  /** interned two-letter country codes (uppercase ASCII) */
  srcCountry: Uint8Array = EMPTY;
  dstCountry: Uint8Array = EMPTY;
  srcAsn = UINT32_LAYOUT;
  dstAsn = UINT32_LAYOUT;
  /** interned data-center name (e.g. "sfo06") and region (e.g. "WNAM") */
  coloName: Uint8Array = EMPTY;
  coloRegion: Uint8Array = EMPTY;
  sip = false;

  /**
   * Why decoding stopped early, or '' if the packet decoded fully. Always one of the constant
   * strings in capture/notes.ts (so setting it allocates nothing); fields decoded before the
   * problem stay set.
   */
  note = '';

  constructor() {
    this.reset();
  }

  /** Clears everything a packet sets, keeping the preallocated buffers. */
  reset(): void {
    this.present = 0;
    this.ipVersion = 0;
    this.src4 = 0;
    this.dst4 = 0;
    const s = this.src6;
    const d = this.dst6;
    s[0] = s[1] = s[2] = s[3] = 0;
    d[0] = d[1] = d[2] = d[3] = 0;
    this.proto = 0;
    this.ipLen = 0;
    this.ttl = 0;
    this.hdrLen = 0;
    this.optType = 0;
    this.fragOffset = 0;
    this.moreFragments = false;
    this.l3Off = 0;
    this.l3End = 0;
    this.l4Off = 0;
    this.l4End = 0;
    this.srcPort = 0;
    this.dstPort = 0;
    this.tcpFlags = 0;
    this.tcpSeq = 0;
    this.tcpAck = 0;
    this.tcpWindow = 0;
    this.payloadLen = 0;
    this.icmpType = 0;
    this.icmpCode = 0;
    this.srcCountry = EMPTY;
    this.dstCountry = EMPTY;
    this.srcAsn = 0;
    this.dstAsn = 0;
    this.coloName = EMPTY;
    this.coloRegion = EMPTY;
    this.sip = false;
    this.note = '';
  }

  /**
   * Points the record at a frame that was not decoded (the compiled lane read what it needed from
   * the bytes itself): its number, time and bytes; no field is present, there is no note, ipVersion
   * says whether the frame is IP (4, 6) or not (0).
   */
  setUndecoded(frame: Frame, ipVersion: number): void {
    this.frame = frame.number;
    this.file = frame.file;
    this.tsSec = frame.tsSec;
    this.tsNsec = frame.tsNsec;
    this.linkType = frame.linkType;
    this.data = frame.data;
    this.dataOff = frame.off;
    this.capLen = frame.capLen;
    this.origLen = frame.origLen;
    this.present = 0;
    this.ipVersion = ipVersion;
    this.note = '';
  }

  /** Sets ip.src, ip.dst and the IP version from address text, v4 or v6 (for tests, suites and witnesses, not the hot path). */
  setAddresses(src: string, dst: string): void {
    if (src.includes(':')) {
      this.ipVersion = 6;
      parseIPv6(src, this.src6);
      parseIPv6(dst, this.dst6);
    } else {
      this.ipVersion = 4;
      this.src4 = parseIPv4(src);
      this.dst4 = parseIPv4(dst);
    }
  }

  /** The capture timestamp as JSON-number text with all nine nanosecond digits (no float rounding). */
  timeText(): string {
    return `${this.tsSec}.${String(this.tsNsec).padStart(9, '0')}`;
  }
}
