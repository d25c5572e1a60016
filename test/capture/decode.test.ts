// The decoder, frame by frame: each link type, VLAN depth, IPv4 options and fragments, IPv6
// extension headers, transports, SIP detection, and every truncation note. Then properties: a
// generated packet decodes to the values it was built from, whatever the link layer; no byte
// string makes the decoder throw or point outside the frame; and cutting a packet short never
// changes a field that is still decoded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Note } from '../../src/capture/notes.js';
import { decodeFrame, readCapture } from '../../src/capture/reader.js';
import { tsharkFields } from '../helpers/tshark.js';
import { corpusPath } from './helpers/corpus.js';
import { Has, PacketRecord } from '../../src/capture/record.js';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6, parseIPv6 } from '../../src/net/ipv6.js';
import {
  ascii, authHeader, bytes, ethernet, extension, fragmentHeader, icmp, ipv4, ipv6, nullFrame, sll2Frame, sllFrame, tcp, udp,
} from './helpers/build.js';

const SYN = 0x02;
const ACK = 0x10;

interface Summary {
  src?: string; dst?: string; proto?: number; len?: number; ttl?: number; hdrLen?: number; opt?: number;
  tcp?: [number, number, number]; udp?: [number, number]; icmp?: [number, number]; sip?: boolean; note: string;
}

function summary(r: PacketRecord): Summary {
  const s: Summary = { note: r.note };
  if (r.present & Has.IP) {
    s.src = r.ipVersion === 4 ? formatIPv4(r.src4) : formatIPv6(r.src6);
    s.dst = r.ipVersion === 4 ? formatIPv4(r.dst4) : formatIPv6(r.dst6);
    s.proto = r.proto;
    s.len = r.ipLen;
    s.ttl = r.ttl;
  }
  if (r.present & Has.IP_HDR_LEN) s.hdrLen = r.hdrLen;
  if (r.present & Has.IP_OPT) s.opt = r.optType;
  if (r.present & Has.TCP) s.tcp = [r.srcPort, r.dstPort, r.tcpFlags];
  if (r.present & Has.UDP) s.udp = [r.srcPort, r.dstPort];
  if (r.present & Has.ICMP) s.icmp = [r.icmpType, r.icmpCode];
  if (r.present & Has.SIP) s.sip = r.sip;
  return s;
}

function decode(linkType: number, frame: Uint8Array, rec = new PacketRecord()): PacketRecord {
  decodeFrame(rec, linkType, frame, frame.length);
  return rec;
}

const tcpSyn = ipv4({ proto: 6, ttl: 57 }, tcp(40000, 443, SYN));
const V4_SYN: Summary = { src: '192.0.2.1', dst: '198.51.100.2', proto: 6, len: 40, ttl: 57, hdrLen: 5, tcp: [40000, 443, SYN], note: '' };
const v6Udp = ipv6({ next: 17, hopLimit: 9 }, udp(5353, 53, bytes([1, 2, 3, 4])));
const V6_UDP: Summary = { src: '2001:db8::1', dst: '2001:db8::2', proto: 17, len: 52, ttl: 9, udp: [5353, 53], note: '' };

describe('link layers', () => {
  const cases: Array<[string, number, Uint8Array, Summary]> = [
    ['Ethernet', 1, ethernet(0x0800, tcpSyn), V4_SYN],
    ['802.1Q', 1, ethernet(0x0800, tcpSyn, [[0x8100, 10]]), V4_SYN],
    ['802.1ad QinQ', 1, ethernet(0x86dd, v6Udp, [[0x88a8, 100], [0x8100, 10]]), V6_UDP],
    ['three tags deep', 1, ethernet(0x0800, tcpSyn, [[0x9100, 1], [0x88a8, 2], [0x8100, 3]]), V4_SYN],
    ['Linux SLL', 113, sllFrame(0x0800, tcpSyn), V4_SYN],
    ['Linux SLL with a VLAN tag', 113, sllFrame(0x8100, bytes([0, 5, 0x86, 0xdd], v6Udp)), V6_UDP],
    ['Linux SLL2', 276, sll2Frame(0x86dd, v6Udp), V6_UDP],
    ['raw IP (101), IPv4', 101, tcpSyn, V4_SYN],
    ['raw IP (101), IPv6', 101, v6Udp, V6_UDP],
    ['raw IP as 12', 12, tcpSyn, V4_SYN],
    ['raw IP as 14', 14, v6Udp, V6_UDP],
    ['IPv4 link type', 228, tcpSyn, V4_SYN],
    ['IPv6 link type', 229, v6Udp, V6_UDP],
    ['null, little-endian AF_INET', 0, nullFrame(2, true, tcpSyn), V4_SYN],
    ['null, big-endian AF_INET', 0, nullFrame(2, false, tcpSyn), V4_SYN],
    ['null, AF_INET6 (BSD 24)', 0, nullFrame(24, true, v6Udp), V6_UDP],
    ['null, AF_INET6 (FreeBSD 28, big-endian)', 0, nullFrame(28, false, v6Udp), V6_UDP],
    ['null, AF_INET6 (Darwin 30)', 0, nullFrame(30, true, v6Udp), V6_UDP],
    ['OpenBSD loop, network order', 108, nullFrame(2, false, tcpSyn), V4_SYN],
    ['OpenBSD loop, host order', 108, nullFrame(24, true, v6Udp), V6_UDP],
  ];
  it.each(cases)('%s', (_name, linkType, frame, want) => {
    expect(summary(decode(linkType, frame))).toEqual(want);
  });

  it('leaves frames that are not IP without fields and without a note', () => {
    expect(summary(decode(1, ethernet(0x0806, new Uint8Array(28))))).toEqual({ note: '' });
    expect(summary(decode(0, nullFrame(7, true, new Uint8Array(20))))).toEqual({ note: '' });
    expect(summary(decode(113, sllFrame(0x0004, new Uint8Array(20))))).toEqual({ note: '' });
  });

  it('names a link type it does not decode', () => {
    expect(decode(105, new Uint8Array(40)).note).toBe('unsupported link type 105');
    expect(decode(70000, new Uint8Array(40)).note).toBe('unsupported link type 70000');
    expect(decode(105, new Uint8Array(1)).note).toBe(decode(105, new Uint8Array(2)).note);
  });

  it('rejects an IP version that does not match the link type', () => {
    expect(summary(decode(228, v6Udp))).toEqual({ note: Note.BAD_IP_VERSION });
    expect(summary(decode(229, tcpSyn))).toEqual({ note: Note.BAD_IP_VERSION });
    expect(summary(decode(101, bytes([0x50], new Uint8Array(30))))).toEqual({ note: Note.BAD_IP_VERSION });
    expect(summary(decode(1, ethernet(0x0800, v6Udp)))).toEqual({ note: Note.BAD_IP_VERSION });
  });
});

describe('network layer', () => {
  it('reads IPv4 options: header length in words and the first option byte', () => {
    const pkt = ipv4({ proto: 17, options: [0x94, 4, 0, 0] }, udp(1, 2));
    expect(summary(decode(101, pkt))).toMatchObject({ hdrLen: 6, opt: 0x94, udp: [1, 2], len: 32 });
  });

  it('gives a non-first IPv4 fragment no transport fields, the first one all', () => {
    const first = decode(101, ipv4({ proto: 6, moreFragments: true }, tcp(1, 2, ACK)));
    expect(summary(first).tcp).toEqual([1, 2, ACK]);
    expect(first.moreFragments).toBe(true);
    const later = decode(101, ipv4({ proto: 6, fragOffset: 1480 }, tcp(1, 2, ACK)));
    expect(summary(later)).toEqual({ src: '192.0.2.1', dst: '198.51.100.2', proto: 6, len: 40, ttl: 64, hdrLen: 5, note: '' });
    expect(later.fragOffset).toBe(1480);
  });

  it('walks IPv6 extension headers to the transport', () => {
    // hop-by-hop -> routing -> destination options (16 bytes) -> TCP
    const r = decode(101, ipv6({ next: 0 }, bytes(extension(43), extension(60), extension(6, 2), tcp(80, 1234, SYN | ACK))));
    expect(summary(r)).toMatchObject({ proto: 6, tcp: [80, 1234, SYN | ACK], note: '' });
    expect(r.l4Off).toBe(40 + 8 + 8 + 16);
  });

  it('walks AH in IPv6 by its 4-octet length', () => {
    const r = decode(101, ipv6({ next: 51 }, bytes(authHeader(17, 6), udp(500, 4500))));
    expect(summary(r)).toMatchObject({ proto: 17, udp: [500, 4500] });
  });

  it('stops at ESP: the protocol is ESP and there is no transport', () => {
    const r = decode(101, ipv6({ next: 60 }, bytes(extension(50), new Uint8Array(40))));
    expect(summary(r)).toMatchObject({ proto: 50, note: '' });
    expect(r.present & (Has.TCP | Has.UDP | Has.ICMP)).toBe(0);
  });

  it('decodes the transport of a first IPv6 fragment and not of a later one', () => {
    const first = decode(101, ipv6({ next: 44 }, bytes(fragmentHeader(17, 0, true), udp(7, 9))));
    expect(summary(first)).toMatchObject({ proto: 17, udp: [7, 9] });
    const later = decode(101, ipv6({ next: 44 }, bytes(fragmentHeader(17, 1232, false), udp(7, 9))));
    expect(summary(later)).toEqual({ src: '2001:db8::1', dst: '2001:db8::2', proto: 17, len: 56, ttl: 64, note: '' });
    expect(later.fragOffset).toBe(1232);
  });

  it('does not walk AH in IPv4 (outermost protocol only)', () => {
    expect(summary(decode(101, ipv4({ proto: 51 }, bytes(authHeader(6), tcp(1, 2, SYN))))).proto).toBe(51);
  });

  it('takes the IP packet\'s end from its length, not from Ethernet padding', () => {
    const r = decode(1, bytes(ethernet(0x0800, ipv4({ proto: 17 }, udp(1, 2))), new Uint8Array(18)));
    expect(r.l3End - r.l3Off).toBe(28);
    expect(r.l4End - r.l4Off).toBe(8);
  });

  it('takes a zero IPv4 total length (segmentation offload) from the frame', () => {
    const r = decode(101, ipv4({ proto: 6, totalLength: 0 }, tcp(1, 2, ACK, ascii('hello'))));
    expect(summary(r)).toMatchObject({ len: 45, tcp: [1, 2, ACK], note: '' });
    expect(r.payloadLen).toBe(5);
  });

  it('gives the payload length from the headers, also when the capture cut the payload', () => {
    const full = ipv4({ proto: 6 }, tcp(1, 2, ACK, new Uint8Array(100)));
    const r = new PacketRecord();
    decodeFrame(r, 101, full, 60);
    expect(r.payloadLen).toBe(100);
    expect(r.note).toBe('');
  });
});

describe('transports', () => {
  it('reads ICMP and ICMPv6 type and code', () => {
    expect(summary(decode(101, ipv4({ proto: 1 }, icmp(8, 0)))).icmp).toEqual([8, 0]);
    expect(summary(decode(101, ipv6({ next: 58 }, icmp(135, 0))))).toMatchObject({ proto: 58, icmp: [135, 0] });
  });

  it('reads every TCP flag bit, ECE and CWR included', () => {
    expect(summary(decode(101, ipv4({ proto: 6 }, tcp(1, 2, 0xff)))).tcp).toEqual([1, 2, 0xff]);
  });

  it('points the raw views at the IP packet and the transport', () => {
    const pkt = ipv4({ proto: 17 }, udp(1, 2, ascii('abc')));
    const r = decode(1, ethernet(0x0800, pkt));
    expect([...r.data.subarray(r.l3Off, r.l3End)]).toEqual([...pkt]);
    expect([...r.data.subarray(r.l4Off, r.l4End)]).toEqual([...udp(1, 2, ascii('abc'))]);
  });

  it('clears the previous packet\'s fields when the record is reused', () => {
    const r = decode(1, ethernet(0x0800, tcpSyn));
    decode(1, ethernet(0x86dd, v6Udp), r);
    expect(summary(r)).toEqual(V6_UDP);
    decode(1, ethernet(0x0806, new Uint8Array(28)), r);
    expect(summary(r)).toEqual({ note: '' });
  });
});

describe('sip', () => {
  const sipCases: Array<[string, string, boolean]> = [
    ['an INVITE request', 'INVITE sip:bob@example.com SIP/2.0\r\nVia: x\r\n\r\n', true],
    ['a REGISTER request with LF only', 'REGISTER sip:example.com SIP/2.0\nTo: x\n', true],
    ['a status line', 'SIP/2.0 200 OK\r\n', true],
    ['a SUBSCRIBE (starts like the status line)', 'SUBSCRIBE sip:x SIP/2.0\r\n', true],
    ['HTTP', 'GET / HTTP/1.1\r\nHost: x\r\n', false],
    ['HTTP OPTIONS', 'OPTIONS * HTTP/1.1\r\n', false],
    ['a method without the version', 'INVITE sip:bob@example.com\r\n', false],
    ['a status line without a code', 'SIP/2.0 OK\r\n', false],
    ['a method glued to the URI', 'INVITEsip:x SIP/2.0\r\n', false],
    ['a first line never ended', 'INVITE sip:x SIP/2.0', false],
    ['empty', '', false],
  ];
  it.each(sipCases)('over UDP: %s', (_name, payload, want) => {
    const r = decode(101, ipv4({ proto: 17 }, udp(5060, 5060, ascii(payload))));
    expect(r.sip).toBe(want);
    expect((r.present & Has.SIP) !== 0).toBe(want);
  });

  it('over TCP, after the options', () => {
    expect(decode(101, ipv4({ proto: 6 }, tcp(5060, 5060, ACK, ascii('BYE sip:a SIP/2.0\r\n'), 8))).sip).toBe(true);
  });
});

describe('truncated and malformed packets', () => {
  const eth = (payload: Uint8Array): Uint8Array => ethernet(0x0800, payload);
  const cases: Array<[string, number, Uint8Array, Summary]> = [
    ['Ethernet header cut', 1, new Uint8Array(10), { note: Note.TRUNCATED_LINK }],
    ['SLL header cut', 113, new Uint8Array(15), { note: Note.TRUNCATED_LINK }],
    ['SLL2 header cut', 276, new Uint8Array(19), { note: Note.TRUNCATED_LINK }],
    ['null header cut', 0, new Uint8Array(3), { note: Note.TRUNCATED_LINK }],
    ['VLAN tag cut', 1, ethernet(0x8100, new Uint8Array(2)), { note: Note.TRUNCATED_VLAN }],
    ['empty raw frame', 101, new Uint8Array(0), { note: Note.TRUNCATED_IP }],
    ['IPv4 header cut', 1, eth(tcpSyn.subarray(0, 19)), { note: Note.TRUNCATED_IPV4 }],
    ['IPv4 header length 4', 101, ipv4({ proto: 6, ihl: 4 }, tcp(1, 2, SYN)), { note: Note.BAD_IPV4_HEADER_LENGTH }],
    ['IPv4 total length below the header', 101, ipv4({ proto: 6, totalLength: 12 }, tcp(1, 2, SYN)), { note: Note.BAD_IPV4_TOTAL_LENGTH }],
    ['IPv4 options cut', 101, ipv4({ proto: 6, options: [0x83, 7, 4, 0, 0, 0, 0, 0] }, new Uint8Array(0)).subarray(0, 24),
      { src: '192.0.2.1', dst: '198.51.100.2', proto: 6, len: 28, ttl: 64, hdrLen: 7, opt: 0x83, note: Note.TRUNCATED_IPV4 }],
    ['IPv6 header cut', 101, v6Udp.subarray(0, 39), { note: Note.TRUNCATED_IPV6 }],
    ['IPv6 extension header cut', 101, ipv6({ next: 0 }, bytes(extension(6, 2))).subarray(0, 50),
      { src: '2001:db8::1', dst: '2001:db8::2', proto: 6, len: 56, ttl: 64, note: Note.TRUNCATED_IPV6_EXTENSION }],
    ['TCP header cut', 101, ipv4({ proto: 6 }, tcp(1, 2, SYN)).subarray(0, 30),
      { src: '192.0.2.1', dst: '198.51.100.2', proto: 6, len: 40, ttl: 64, hdrLen: 5, note: Note.TRUNCATED_TCP }],
    ['TCP data offset 3', 101, ipv4({ proto: 6 }, tcp(1, 2, SYN, new Uint8Array(0), 3)),
      { src: '192.0.2.1', dst: '198.51.100.2', proto: 6, len: 40, ttl: 64, hdrLen: 5, tcp: [1, 2, SYN], note: Note.BAD_TCP_HEADER_LENGTH }],
    ['UDP header cut', 101, ipv4({ proto: 17 }, udp(1, 2)).subarray(0, 25),
      { src: '192.0.2.1', dst: '198.51.100.2', proto: 17, len: 28, ttl: 64, hdrLen: 5, note: Note.TRUNCATED_UDP }],
    ['ICMP header cut', 101, ipv4({ proto: 1 }, icmp(3, 1)).subarray(0, 23),
      { src: '192.0.2.1', dst: '198.51.100.2', proto: 1, len: 28, ttl: 64, hdrLen: 5, note: Note.TRUNCATED_ICMP }],
  ];
  it.each(cases)('%s', (_name, linkType, frame, want) => {
    expect(summary(decode(linkType, frame))).toEqual(want);
  });

  it('keeps the note strings constant (one per link type, shared)', () => {
    expect(decode(50, new Uint8Array(4)).note).toBe(decode(50, new Uint8Array(9)).note);
  });
});

// ---- properties ----

const ipv4Text = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((t) => t.join('.'));
const ipv6Text = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((g) => g.map((x) => x.toString(16)).join(':'));
const port = fc.nat(65535);

const transportArb = fc.oneof(
  fc.record({ kind: fc.constant('tcp' as const), sport: port, dport: port, flags: fc.nat(255) }),
  fc.record({ kind: fc.constant('udp' as const), sport: port, dport: port }),
  fc.record({ kind: fc.constant('icmp' as const), type: fc.nat(255), code: fc.nat(255) }),
);
const packetArb = fc.record({
  v6: fc.boolean(),
  src4: ipv4Text, dst4: ipv4Text, src6: ipv6Text, dst6: ipv6Text,
  ttl: fc.nat(255),
  transport: transportArb,
  extensions: fc.array(fc.constantFrom(0, 43, 60, 51), { maxLength: 3 }),
  link: fc.constantFrom('ethernet', 'vlan', 'sll', 'sll2', 'raw', 'null'),
  vlanDepth: fc.integer({ min: 1, max: 4 }),
  payload: fc.uint8Array({ maxLength: 40 }),
});
type PacketSpec = typeof packetArb extends fc.Arbitrary<infer T> ? T : never;

function build(p: PacketSpec): { linkType: number; frame: Uint8Array } {
  const t = p.transport;
  const l4 = t.kind === 'tcp' ? tcp(t.sport, t.dport, t.flags, p.payload) : t.kind === 'udp' ? udp(t.sport, t.dport, p.payload) : bytes(icmp(t.type, t.code), p.payload);
  const proto = t.kind === 'tcp' ? 6 : t.kind === 'udp' ? 17 : p.v6 ? 58 : 1;
  let ip: Uint8Array;
  if (p.v6) {
    let inner = l4;
    let next = proto;
    for (const ext of [...p.extensions].reverse()) {
      inner = bytes(ext === 51 ? authHeader(next) : extension(next, 1), inner);
      next = ext;
    }
    ip = ipv6({ src: p.src6, dst: p.dst6, next, hopLimit: p.ttl }, inner);
  } else {
    ip = ipv4({ src: p.src4, dst: p.dst4, proto, ttl: p.ttl }, l4);
  }
  const etherType = p.v6 ? 0x86dd : 0x0800;
  switch (p.link) {
    case 'ethernet': return { linkType: 1, frame: ethernet(etherType, ip) };
    case 'vlan': return { linkType: 1, frame: ethernet(etherType, ip, Array.from({ length: p.vlanDepth }, (_, i) => [i === 0 ? 0x88a8 : 0x8100, i] as [number, number])) };
    case 'sll': return { linkType: 113, frame: sllFrame(etherType, ip) };
    case 'sll2': return { linkType: 276, frame: sll2Frame(etherType, ip) };
    case 'raw': return { linkType: 101, frame: ip };
    case 'null': return { linkType: 0, frame: nullFrame(p.v6 ? 30 : 2, true, ip) };
  }
}

function expected(p: PacketSpec): Partial<Summary> {
  const t = p.transport;
  const want: Partial<Summary> = p.v6
    ? { src: formatIPv6(parseIPv6(p.src6)!), dst: formatIPv6(parseIPv6(p.dst6)!), ttl: p.ttl }
    : { src: p.src4, dst: p.dst4, ttl: p.ttl };
  if (t.kind === 'tcp') want.tcp = [t.sport, t.dport, t.flags];
  if (t.kind === 'udp') want.udp = [t.sport, t.dport];
  if (t.kind === 'icmp') want.icmp = [t.type, t.code];
  want.note = '';
  return want;
}

describe('properties', () => {
  it('a generated packet decodes to the values it was built from, over every link layer', () => {
    fc.assert(fc.property(packetArb, (p) => {
      const { linkType, frame } = build(p);
      expect(summary(decode(linkType, frame))).toMatchObject(expected(p));
    }), { numRuns: 500 });
  });

  it('no byte string throws or yields views outside the frame', () => {
    const linkTypes = fc.constantFrom(0, 1, 12, 14, 101, 108, 113, 228, 229, 276, 105);
    fc.assert(fc.property(linkTypes, fc.uint8Array({ maxLength: 120 }), fc.nat(8), (linkType, body, version) => {
      // bias the first bytes towards IP so the deep paths run, not only the first checks
      const frame = linkType === 101 || linkType === 228 || linkType === 229 ? bytes([(version === 6 ? 0x60 : 0x40) | (body[0] ?? 0) & 0x0f], body) : body;
      const r = decode(linkType, frame);
      const end = r.dataOff + r.capLen;
      if (r.present & Has.IP) expect(r.l3Off <= r.l3End && r.l3End <= end).toBe(true);
      if (r.present & (Has.TCP | Has.UDP | Has.ICMP)) expect(r.l3Off <= r.l4Off && r.l4Off <= r.l4End && r.l4End <= r.l3End).toBe(true);
    }), { numRuns: 3000 });
  });

  it('cutting a packet short never changes a field that is still decoded', () => {
    fc.assert(fc.property(packetArb, fc.nat(200), (p, cut) => {
      const { linkType, frame } = build(p);
      const full = summary(decode(linkType, frame));
      const r = new PacketRecord();
      decodeFrame(r, linkType, frame, Math.min(cut, frame.length));
      const part = summary(r);
      for (const key of ['src', 'dst', 'len', 'ttl', 'hdrLen', 'opt', 'tcp', 'udp', 'icmp'] as const) {
        if (part[key] !== undefined) expect(part[key]).toEqual(full[key]);
      }
      if (part.proto !== undefined && part.note !== Note.TRUNCATED_IPV6_EXTENSION) expect(part.proto).toBe(full.proto);
    }), { numRuns: 500 });
  });
});

describe('IPv6 packets longer than 64 KiB', () => {
  it('take ip.len from the Jumbo Payload option, or else from the frame (BIG TCP), as IPv4 with total length 0 does', async () => {
    for (const file of ['ipv6_jumbogram_1.pcap', 'bigtcp-ipv6-hbh.pcap', 'bigtcp-ipv6.pcap', 'bigtcp-ipv4.pcap']) {
      const path = corpusPath(file);
      const tshark = tsharkFields(path, ['frame.len', 'eth.type', 'ipv6.opt.jumbo', 'ip.len']);
      const ours: number[] = [];
      await readCapture(path, (rec) => ours.push(rec.ipLen));
      const expected = tshark.map((t) => (t['ip.len']![0] !== undefined ? +t['ip.len']![0]! : t['ipv6.opt.jumbo']![0] !== undefined ? +t['ipv6.opt.jumbo']![0]! + 40 : +t['frame.len']![0]! - 14));
      expect({ file, ours }).toEqual({ file, ours: expected });
      expect(Math.min(...ours)).toBeGreaterThan(65535);
    }
  });
});
