// Frames at the edges of what the fast path reads itself, each against the reference path with rules
// reading every field: lengths taken from the frame (IPv4 total length 0, IPv6 payload length 0, a
// jumbogram), frames cut inside each header, VLAN tags (802.1Q, QinQ), IPv6 extension headers of each
// kind (a non-first fragment among them), a TCP header length below 20, IPv4 options and a non-first
// fragment, raw-IP and Linux cooked link types, and non-IP frames.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ascii, authHeader, bytes, ethernet, extension, fragmentHeader, icmp, ipv4, ipv6, pcapFile, sll2Frame, sllFrame, tcp, udp } from '../capture/helpers/build.js';
import { FIELDS, lists, run } from './helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-fast-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sip = ascii('INVITE sip:bob@example.com SIP/2.0\r\nVia: x\r\n');
const v4tcp = ipv4({ src: '10.1.2.3', dst: '192.168.1.1', proto: 6, ttl: 5 }, tcp(40000, 80, 0x02, ascii('GET / HTTP/1.1\r\n')));
const v6udp = ipv6({ src: '2001:db8::1', dst: 'fe80::1', next: 17 }, udp(5060, 5060, sip));

const FRAMES: Record<string, { linkType?: number; data: Uint8Array; origLen?: number }> = {
  'IPv4 TCP': { data: ethernet(0x0800, v4tcp) },
  'IPv6 UDP SIP': { data: ethernet(0x86dd, v6udp) },
  'IPv4 total length 0': { data: ethernet(0x0800, ipv4({ proto: 17, totalLength: 0 }, udp(1, 53, ascii('x'.repeat(80))))), origLen: 200 },
  'IPv6 payload length 0': { data: ethernet(0x86dd, ipv6({ next: 6, payloadLength: 0 }, tcp(1, 2, 0x12, ascii('hello hello hello hello')))) },
  'IPv6 payload length 0, frame longer on the wire': { data: ethernet(0x86dd, ipv6({ next: 6, payloadLength: 0 }, tcp(1, 2, 0x12))), origLen: 1500 },
  'IPv4 options': { data: ethernet(0x0800, ipv4({ proto: 1, options: [148, 4, 0, 0] }, icmp(8, 0))) },
  'IPv4 non-first fragment': { data: ethernet(0x0800, ipv4({ proto: 6, fragOffset: 1480 }, ascii('middle of something'))) },
  'ICMPv6': { data: ethernet(0x86dd, ipv6({ next: 58 }, icmp(128, 0))) },
  'ICMP in IPv6 (proto 1)': { data: ethernet(0x86dd, ipv6({ next: 1 }, icmp(8, 0))) },
  'VLAN': { data: ethernet(0x0800, v4tcp, [[0x8100, 7]]) },
  'QinQ': { data: ethernet(0x86dd, v6udp, [[0x88a8, 100], [0x8100, 7]]) },
  'VLAN holding ARP': { data: ethernet(0x0806, new Uint8Array(28), [[0x8100, 7]]) },
  'Linux cooked v1, VLAN': { linkType: 113, data: sllFrame(0x8100, bytes([0, 7, 0x08, 0x00], v4tcp)) },
  'IPv6 hop-by-hop': { data: ethernet(0x86dd, ipv6({ next: 0 }, bytes(extension(17), udp(1, 53)))) },
  'IPv6 routing, destination options': { data: ethernet(0x86dd, ipv6({ next: 43 }, bytes(extension(60, 2), extension(6), tcp(1, 22, 0x02, ascii('SSH-2.0'))))) },
  'IPv6 first fragment': { data: ethernet(0x86dd, ipv6({ next: 44 }, bytes(fragmentHeader(17, 0, true), udp(5060, 5060, sip)))) },
  'IPv6 non-first fragment': { data: ethernet(0x86dd, ipv6({ next: 44 }, bytes(fragmentHeader(6, 1448, false), tcp(1, 23, 2)))) },
  'IPv6 AH': { data: ethernet(0x86dd, ipv6({ next: 51 }, bytes(authHeader(58), icmp(128, 0)))) },
  'IPv6 ESP': { data: ethernet(0x86dd, ipv6({ next: 50 }, ascii('encrypted payload'))) },
  'IPv6 jumbogram': { data: ethernet(0x86dd, ipv6({ next: 0, payloadLength: 0 }, bytes([17, 0, 0xc2, 4, 0, 1, 0, 0], udp(1, 53, ascii('big'))))), origLen: 70_000 },
  'IPv6 hop-by-hop, length 0, no jumbo option': { data: ethernet(0x86dd, ipv6({ next: 0, payloadLength: 0 }, bytes(extension(6), tcp(1, 80, 0x02)))), origLen: 1500 },
  'VLAN, IPv6 hop-by-hop': { data: ethernet(0x86dd, ipv6({ next: 0 }, bytes(extension(6), tcp(5060, 80, 0x18, sip))), [[0x8100, 7]]) },
  'TCP header length 12': { data: ethernet(0x0800, ipv4({ proto: 6 }, tcp(1, 23, 2, new Uint8Array(0), 3))) },
  'TCP header length 24 with payload': { data: ethernet(0x0800, ipv4({ proto: 6 }, tcp(1, 5060, 0x18, sip, 6))) },
  'raw IP (101)': { linkType: 101, data: v4tcp },
  'raw IPv6 (229)': { linkType: 229, data: v6udp },
  'Linux cooked v1': { linkType: 113, data: sllFrame(0x0800, v4tcp) },
  'Linux cooked v2': { linkType: 276, data: sll2Frame(0x86dd, v6udp) },
  'ARP': { data: ethernet(0x0806, new Uint8Array(28)) },
  'EtherType 0x0800 holding IPv6': { data: ethernet(0x0800, v6udp) },
  'IPv4 header length 4': { data: ethernet(0x0800, ipv4({ proto: 6, ihl: 4 }, tcp(1, 2, 2))) },
  'IPv4 total length below the header': { data: ethernet(0x0800, ipv4({ proto: 6, totalLength: 16 }, tcp(1, 2, 2))) },
};
// every frame also cut at each length up to 80 bytes, keeping its length on the wire
for (const [name, f] of Object.entries({ ...FRAMES })) {
  for (let cut = 0; cut < Math.min(80, f.data.length); cut += 3) FRAMES[`${name} cut at ${cut}`] = { ...f, data: f.data.subarray(0, cut), origLen: f.origLen ?? f.data.length };
}

describe('fast path at the edges of what it reads', () => {
  it.each(Object.entries(FRAMES))('%s: decides as the decoder + evaluator', async (name, f) => {
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}.pcap`);
    writeFileSync(file, pcapFile({ linkType: f.linkType ?? 1 }, [{ sec: 1, frac: 0, data: f.data, origLen: f.origLen }]));
    const reference = await run(file, FIELDS, { lists, mode: 'reference' });
    const fast = await run(file, FIELDS, { lists, mode: 'none' });
    expect(fast.ndjson).toBe(reference.ndjson);
    expect(fast.hits).toEqual(reference.hits);
  });

  it('reads the simple frames itself rather than handing them back', async () => {
    const decided: string[] = [];
    const names = ['IPv4 TCP', 'IPv6 UDP SIP', 'IPv4 total length 0', 'IPv6 payload length 0', 'IPv4 options', 'raw IP (101)', 'Linux cooked v2', 'ARP', 'VLAN', 'QinQ',
      'Linux cooked v1, VLAN', 'IPv6 hop-by-hop', 'IPv6 routing, destination options', 'IPv6 first fragment', 'IPv6 non-first fragment', 'IPv6 AH', 'IPv6 jumbogram', 'VLAN, IPv6 hop-by-hop'];
    for (const name of names) {
      const f = FRAMES[name];
      const file = path.join(dir, 'one.pcap');
      writeFileSync(file, pcapFile({ linkType: f.linkType ?? 1 }, [{ sec: 1, frac: 0, data: f.data, origLen: f.origLen }]));
      if ((await run(file, FIELDS, { lists, mode: 'none' })).fast === 1) decided.push(name);
    }
    expect(decided).toEqual(names);
  });

  it('says why it hands a frame back: a frame the decoder notes (in a VLAN tag or an IPv6 extension header too), a link type it does not read', async () => {
    const why: Record<string, string[]> = {};
    const cases: Array<[string, { linkType?: number; data: Uint8Array; origLen?: number }]> = [
      ['VLAN cut at 15', FRAMES['VLAN cut at 15']!],
      ['IPv6 routing, destination options cut at 69', FRAMES['IPv6 routing, destination options cut at 69']!],
      ['TCP header length 12', FRAMES['TCP header length 12']!],
      ['IPv4 TCP cut at 30', FRAMES['IPv4 TCP cut at 30']!],
      ['802.11', { linkType: 105, data: v4tcp }],
    ];
    for (const [name, f] of cases) {
      const file = path.join(dir, 'one.pcap');
      writeFileSync(file, pcapFile({ linkType: f.linkType ?? 1 }, [{ sec: 1, frac: 0, data: f.data, origLen: f.origLen }]));
      why[name] = (await run(file, FIELDS, { lists, mode: 'none' })).fallbackReasons;
    }
    expect(why).toEqual({
      'VLAN cut at 15': ['decode note'],
      'IPv6 routing, destination options cut at 69': ['decode note'],
      'TCP header length 12': ['decode note'],
      'IPv4 TCP cut at 30': ['decode note'],
      '802.11': ['link type'],
    });
  });
});
