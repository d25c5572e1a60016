// Differential test against tshark on every corpus capture whose link types edgesim decodes (about
// 550 files, 9,000+ packets: Ethernet, VLAN/QinQ, Linux SLL, raw IP, IPv4/IPv6 link types,
// null/loopback; IPv4 options, fragments, IPv6 extension headers, ICMPv6, truncated and malformed
// packets). The files are concatenated with `mergecap -a` into one multi-interface pcapng so tshark
// runs once; edgesim reads both the single files and the merged one, which must agree too.
//
// For each packet the OUTERMOST IP layer's address, protocol (after IPv6 extension headers), TTL,
// length, header length, first option type, and the transport's ports, flags and ICMP type/code
// must equal tshark's values for that layer. Files where the two legitimately differ are listed in
// EXCLUDED with the reason, and the test checks that each of them still differs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportedLinkTypes } from '../../src/capture/decode/link.js';
import { Has, type PacketRecord } from '../../src/capture/record.js';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6 } from '../../src/net/ipv6.js';
import { corpusFiles, corpusPath, epochText, readAll } from './helpers/corpus.js';
import { tsharkFields, type TsharkRow } from '../helpers/tshark.js';

const PAYLOAD_LENGTH_ZERO = 'IPv6 payload length 0 (BIG TCP, or a jumbogram without its option): tshark hands the next header an empty buffer, edgesim decodes it from the captured bytes';
const ODD_OPTION = 'first IPv4 option unknown or malformed: tshark shows no ip.opt.type, edgesim gives the first option byte, as the field is defined';
const TRANSPORT_CUT = 'transport header cut short: tshark shows the ports that were captured, edgesim sets the transport fields only from a complete fixed header';
const MACSEC = 'MACsec (802.1AE) between Ethernet and IP: a link-layer encapsulation edgesim does not descend';

const EXCLUDED: Record<string, string> = {
  'arista_ether.pcap': 'Arista vendor EtherType and MPLS before IP: link-layer encapsulations edgesim does not descend',
  'nsh.pcap': 'Network Service Header (EtherType 0x894f) before IP: not descended',
  'tok2str-oobr-2.pcap': 'MPLS label stack before IP: not descended',
  'macsec-integonly.pcap': MACSEC,
  'macsec-short-longer.pcap': MACSEC,
  'macsec-short-shorter.pcap': MACSEC,
  'macsec-short-valid.pcap': MACSEC,
  'icmp-rfc8335-missing-bytes.pcap': MACSEC,
  'bigtcp-ipv6.pcap': PAYLOAD_LENGTH_ZERO,
  'bigtcp-ipv6-geneve-ipv4.pcap': PAYLOAD_LENGTH_ZERO,
  'bigtcp-ipv6-geneve-ipv6.pcap': PAYLOAD_LENGTH_ZERO,
  'bigtcp-ipv6-vxlan-ipv4.pcap': PAYLOAD_LENGTH_ZERO,
  'bigtcp-ipv6-vxlan-ipv6.pcap': PAYLOAD_LENGTH_ZERO,
  'icmpv6-length-zero.pcapng': PAYLOAD_LENGTH_ZERO,
  'ipv6_missing_jumbo_payload_option.pcap': PAYLOAD_LENGTH_ZERO,
  'ipv6_frag6_negative_len.pcap': PAYLOAD_LENGTH_ZERO,
  'extract_read2_asan.pcap': ODD_OPTION,
  'ip_printroute_asan.pcap': ODD_OPTION,
  'isakmpv1-attr-oobr.pcap': ODD_OPTION,
  'pb_nhrp_1.pcap': ODD_OPTION,
  'pgm_group_addr_asan.pcap': ODD_OPTION,
  'pgm_opts_asan.pcap': ODD_OPTION,
  'pgm_opts_asan_2.pcap': ODD_OPTION,
  'pgm_opts_asan_3.pcap': ODD_OPTION,
  'radius_attr_asan.pcap': ODD_OPTION,
  'tcp_header_heapoverflow.pcap': TRANSPORT_CUT,
  'udp-length-heapoverflow.pcap': TRANSPORT_CUT,
  'ip6_frag_asan.pcap': 'IPv6 fragment header cut short: tshark names the fragment header as the next header, edgesim the cut header\'s own next-header byte',
};

const TIME_ODD = 'microsecond/nanosecond fraction of a second or more: edgesim carries it into the seconds, tshark wraps it';
/** files whose timestamps legitimately differ */
const TIME_EXCLUDED: Record<string, string> = {
  'timestamp_invalid_micro.pcap': TIME_ODD,
  'timestamp_invalid_nano.pcap': TIME_ODD,
  'rx_serviceid_oobr.pcap': TIME_ODD,
};

/** ip.len of an IPv6 packet: the payload length plus the header; a jumbogram's from its Jumbo Payload option (RFC 2675). */
function ipv6Length(t: TsharkRow): number {
  const plen = +t['ipv6.plen']![0]!;
  const jumbo = t['ipv6.opt.jumbo']![0];
  return (plen === 0 && jumbo !== undefined ? +jumbo : plen) + 40;
}

const FIELDS = ['frame.protocols', 'frame.time_epoch', 'ip.src', 'ip.dst', 'ip.proto', 'ip.ttl', 'ip.len', 'ip.hdr_len', 'ip.opt.type',
  'ipv6.src', 'ipv6.dst', 'ipv6.nxt', 'ipv6.hlim', 'ipv6.plen', 'ipv6.opt.jumbo', 'ipv6.hopopts.nxt', 'ipv6.routing.nxt', 'ipv6.fraghdr.nxt',
  'ipv6.dstopts.nxt', 'ah.next_header', 'tcp.srcport', 'tcp.dstport', 'tcp.flags', 'udp.srcport', 'udp.dstport',
  'icmp.type', 'icmp.code', 'icmpv6.type', 'icmpv6.code'];

/** IPv6 extension header -> the tshark field holding its next-header value */
const EXTENSION_NEXT: Record<string, string> = { 0: 'ipv6.hopopts.nxt', 43: 'ipv6.routing.nxt', 44: 'ipv6.fraghdr.nxt', 60: 'ipv6.dstopts.nxt', 51: 'ah.next_header' };
const EXTENSION_LAYERS = new Set(['ipv6.hopopts', 'ipv6.routing', 'ipv6.fraghdr', 'ipv6.dstopts', 'ah']);
const TRANSPORT_FIELDS: Record<string, (t: TsharkRow) => number[] | undefined> = {
  tcp: (t) => t['tcp.srcport']!.length ? [+t['tcp.srcport']![0]!, +t['tcp.dstport']![0]!, Number(t['tcp.flags']![0]) & 0xff] : undefined,
  udp: (t) => t['udp.srcport']!.length ? [+t['udp.srcport']![0]!, +t['udp.dstport']![0]!] : undefined,
  icmp: (t) => t['icmp.type']!.length ? [+t['icmp.type']![0]!, +t['icmp.code']![0]!] : undefined,
  icmpv6: (t) => t['icmpv6.type']!.length ? [+t['icmpv6.type']![0]!, +t['icmpv6.code']![0]!] : undefined,
};
const TRANSPORT_KEY: Record<string, string> = { tcp: 'tcp', udp: 'udp', icmp: 'icmp', icmpv6: 'icmp' };

type Fields = Record<string, unknown>;

/** tshark's values for the outermost IP layer and the transport right after it */
function tsharkOuter(t: TsharkRow): Fields {
  const out: Fields = {};
  const layers = t['frame.protocols']![0]?.split(':') ?? [];
  const at = layers.findIndex((l) => l === 'ip' || l === 'ipv6');
  if (at < 0) return out;
  let next = at + 1;
  if (layers[at] === 'ip') {
    if (t['ip.src']!.length === 0 || t['ip.dst']!.length === 0) return out;
    Object.assign(out, { src: t['ip.src']![0], dst: t['ip.dst']![0], proto: +t['ip.proto']![0]!, ttl: +t['ip.ttl']![0]!, len: +t['ip.len']![0]!, hdrBytes: +t['ip.hdr_len']![0]! });
    if (t['ip.opt.type']!.length > 0) out.opt = +t['ip.opt.type']![0]!;
    while (layers[next] === 'ah') next++;
  } else {
    if (t['ipv6.src']!.length === 0 || t['ipv6.dst']!.length === 0) return out;
    let nxt = t['ipv6.nxt']![0]!;
    const used: Record<string, number> = {};
    for (let guard = 0; guard < 16; guard++) {
      const field = EXTENSION_NEXT[nxt];
      const n = used[nxt] ?? 0;
      if (field === undefined || t[field]!.length <= n) break;
      used[nxt] = n + 1;
      nxt = t[field]![n]!;
    }
    Object.assign(out, { src: t['ipv6.src']![0], dst: t['ipv6.dst']![0], proto: +nxt, ttl: +t['ipv6.hlim']![0]!, len: ipv6Length(t) });
    while (EXTENSION_LAYERS.has(layers[next]!)) next++;
  }
  const transport = layers[next]!;
  const values = TRANSPORT_FIELDS[transport]?.(t);
  if (values !== undefined) out[TRANSPORT_KEY[transport]!] = values;
  return out;
}

function ours(r: PacketRecord): Fields {
  const out: Fields = {};
  if (r.present & Has.IP) {
    Object.assign(out, {
      src: r.ipVersion === 4 ? formatIPv4(r.src4) : formatIPv6(r.src6),
      dst: r.ipVersion === 4 ? formatIPv4(r.dst4) : formatIPv6(r.dst6),
      proto: r.proto, ttl: r.ttl, len: r.ipLen,
    });
    if (r.present & Has.IP_HDR_LEN) out.hdrBytes = r.hdrLen * 4;
    if (r.present & Has.IP_OPT) out.opt = r.optType;
  }
  if (r.present & Has.TCP) out.tcp = [r.srcPort, r.dstPort, r.tcpFlags];
  if (r.present & Has.UDP) out.udp = [r.srcPort, r.dstPort];
  if (r.present & Has.ICMP) out.icmp = [r.icmpType, r.icmpCode];
  return out;
}

/** which decoding paths a packet exercised, to show the comparison is broad */
function features(r: PacketRecord): string[] {
  const f = [`link ${r.linkType}`];
  const d = r.data;
  const o = r.dataOff;
  if (r.linkType === 1 && r.capLen >= 14 && [0x8100, 0x88a8].includes((d[o + 12]! << 8) | d[o + 13]!)) f.push('vlan');
  if (r.fragOffset > 0) f.push('non-first fragment');
  if (r.moreFragments && r.fragOffset === 0) f.push('first fragment');
  if (r.ipVersion === 6 && d[r.l3Off + 6] !== r.proto) f.push('ipv6 extension headers');
  if (r.ipVersion === 6 && r.present & Has.ICMP) f.push('icmpv6');
  if (r.present & Has.IP_OPT) f.push('ipv4 options');
  if (r.note !== '') f.push('note');
  return f;
}

interface Packet { file: string; fields: Fields; time: string; features: string[] }

const tmp = mkdtempSync(path.join(os.tmpdir(), 'edgesim-tshark-'));
const merged = path.join(tmp, 'merged.pcapng');
let packets: Packet[] = [];
let mergedRead: Array<{ fields: Fields; time: string }> = [];
let tshark: TsharkRow[] = [];

beforeAll(async () => {
  const supported = new Set(supportedLinkTypes);
  const files: string[] = [];
  for (const file of corpusFiles()) {
    const { info, packets: read } = await readAll(corpusPath(file), (r) => ({ file, fields: ours(r), time: epochText(r), features: features(r) }));
    if (read.length === 0 || !info.linkTypes.every((l) => supported.has(l))) continue;
    files.push(file);
    packets.push(...read);
  }
  const r = spawnSync('mergecap', ['-a', '-F', 'pcapng', '-w', merged, ...files.map(corpusPath)], { encoding: 'utf8', cwd: tmp });
  if (r.status !== 0) throw new Error(`mergecap failed: ${r.stderr}`);
  mergedRead = (await readAll(merged, (rec) => ({ fields: ours(rec), time: epochText(rec) }))).packets;
  tshark = tsharkFields(merged, FIELDS);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('decoding agrees with tshark on the corpus', () => {
  it('covers every decoded link type in the corpus and the tricky paths', () => {
    const seen = new Set(packets.flatMap((p) => p.features));
    for (const f of ['link 0', 'link 1', 'link 101', 'link 113', 'link 228', 'link 229', 'vlan', 'non-first fragment',
      'first fragment', 'ipv6 extension headers', 'icmpv6', 'ipv4 options', 'note']) expect(seen, f).toContain(f);
    expect(packets.length).toBeGreaterThan(9000);
  });

  it('reads the merged multi-interface pcapng exactly as the single files', () => {
    expect(mergedRead.length).toBe(packets.length);
    // mergecap converts the odd timestamps of TIME_EXCLUDED files the way tshark reads them
    const differ = mergedRead.filter((m, i) => {
      const p = packets[i]!;
      return JSON.stringify(m.fields) !== JSON.stringify(p.fields) || (m.time !== p.time && !(p.file in TIME_EXCLUDED));
    });
    expect(differ).toEqual([]);
  });

  it('sees the same frames with the same timestamps', () => {
    expect(tshark.length).toBe(packets.length);
    const differ = new Set<string>();
    const unexpected = packets.flatMap((p, i) => {
      if (p.time === tshark[i]!['frame.time_epoch']![0]) return [];
      differ.add(p.file);
      return p.file in TIME_EXCLUDED ? [] : [`${p.file} #${i + 1}: ${p.time} vs ${tshark[i]!['frame.time_epoch']![0]}`];
    });
    expect(unexpected).toEqual([]);
    expect([...differ].sort()).toEqual(Object.keys(TIME_EXCLUDED).sort());
  });

  it('decodes the outermost IP and transport fields as tshark does (except the listed files)', () => {
    const differ: string[] = [];
    packets.forEach((p, i) => {
      if (p.file in EXCLUDED) return;
      const want = JSON.stringify(tsharkOuter(tshark[i]!));
      const got = JSON.stringify(p.fields);
      if (want !== got) differ.push(`${p.file} (merged frame ${i + 1}): edgesim ${got} tshark ${want}`);
    });
    expect(differ).toEqual([]);
  });

  it('still differs on every excluded file (no stale exclusions)', () => {
    const stillDiffer = new Set<string>();
    packets.forEach((p, i) => {
      if (p.file in EXCLUDED && JSON.stringify(tsharkOuter(tshark[i]!)) !== JSON.stringify(p.fields)) stillDiffer.add(p.file);
    });
    expect([...stillDiffer].sort()).toEqual(Object.keys(EXCLUDED).sort());
  });
});
