// Wireshark as the judge of the frames a suite's packets become: with checksum validation on, tshark
// reads back the addresses, TTL / hop limit, lengths, IPv4 header length and first option type,
// ports and ICMP type and code each packet was given, calls every checksum good (an ICMP error's
// covers the packet it carries) and no IP or transport header malformed.
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PcapWriter } from '../../src/capture/pcap-writer.js';
import { Frame } from '../../src/capture/frame.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { parsePacket } from '../../src/suite/packet-spec.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { tsharkColumns } from '../helpers/tshark.js';
import { tempDir } from './helpers.js';

const v4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((b) => b.join('.'));
const v6 = fc.array(fc.integer({ min: 1, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((w) => w.map((x) => x.toString(16)).join(':'));
const port = fc.integer({ min: 1, max: 65535 });
// echo request and reply, and errors (destination unreachable, time exceeded; ICMPv6 also packet
// too big), which carry the packet that caused them
const transport = (six: boolean) =>
  fc.oneof(
    fc.record({ 'tcp.srcport': port, 'tcp.dstport': port, 'tcp.flags': fc.constantFrom(2, 16, 18, 24, 17, 4) }),
    fc.record({ 'udp.srcport': port, 'udp.dstport': port }),
    fc.record({ 'icmp.type': six ? fc.constantFrom(128, 129, 1, 2, 3) : fc.constantFrom(0, 8, 3, 11), 'icmp.code': fc.integer({ min: 0, max: 3 }) }),
  );
// IPv4 options: a header of 6 to 15 words whose first option is a no-operation, or a record route
// or timestamp (types 7, 68) taking the whole options area
const options = fc.option(fc.record({ 'ip.hdr_len': fc.integer({ min: 6, max: 15 }), 'ip.opt.type': fc.constantFrom(1, 7, 68) }));
const packet = fc
  .boolean()
  .chain((six) => fc.tuple(fc.constant(six), six ? v6 : v4, six ? v6 : v4, fc.integer({ min: 1, max: 255 }), transport(six), fc.option(fc.integer({ min: 140, max: 1400 })), options))
  .map(([six, src, dst, ttl, t, len, opt]) => ({ 'ip.src': src, 'ip.dst': dst, 'ip.ttl': ttl, ...t, ...(len === null ? {} : { 'ip.len': len }), ...(opt === null || six ? {} : opt) }));

describe('packets built for suites, read by tshark', () => {
  it('carry the given fields and good checksums', async () => {
    const packets = fc.sample(packet, { numRuns: 200, seed: 7 });
    const file = path.join(tempDir(), 'built.pcap');
    const writer = PcapWriter.open(file);
    const builder = new PacketBuilder();
    const frame = new Frame();
    for (const p of packets) {
      builder.build(parsePacket(parseSuiteText('p.yaml', JSON.stringify(p))), frame);
      writer.write(frame.data.subarray(frame.off, frame.off + frame.capLen), frame.tsSec, frame.tsNsec, frame.capLen);
    }
    await writer.close();
    const fields = ['ip.src', 'ipv6.src', 'ip.dst', 'ipv6.dst', 'ip.ttl', 'ipv6.hlim', 'ip.len', 'ipv6.plen', 'tcp.dstport', 'tcp.flags', 'udp.dstport', 'icmp.type', 'icmp.code', 'icmpv6.type', 'icmpv6.code', 'ip.hdr_len', 'ip.opt.type', '_ws.malformed', 'ip.checksum.status', 'tcp.checksum.status', 'udp.checksum.status', 'icmp.checksum.status', 'icmpv6.checksum.status'];
    const { rows, stderr } = tsharkColumns(file, fields, { checksums: true });
    expect(stderr).toBe('');
    expect(rows).toHaveLength(packets.length);
    rows.forEach((r, i) => {
      const p = packets[i] as Record<string, string | number>;
      const col = Object.fromEntries(fields.map((f, k) => [f, r[k]!]));
      const six = String(p['ip.src']).includes(':');
      const norm = (a: string): string => (six ? a.split(':').map((x) => x.replace(/^0+(?=.)/, '')).join(':') : a);
      expect(norm(six ? col['ipv6.src']! : col['ip.src']!)).toBe(p['ip.src']);
      expect(norm(six ? col['ipv6.dst']! : col['ip.dst']!)).toBe(p['ip.dst']);
      expect(Number(six ? col['ipv6.hlim'] : col['ip.ttl'])).toBe(p['ip.ttl']);
      if (p['ip.len'] !== undefined) expect(six ? Number(col['ipv6.plen']) + 40 : Number(col['ip.len'])).toBe(p['ip.len']);
      if (p['tcp.dstport'] !== undefined) expect([Number(col['tcp.dstport']), Number(col['tcp.flags'])]).toEqual([p['tcp.dstport'], p['tcp.flags']]);
      if (p['udp.dstport'] !== undefined) expect(Number(col['udp.dstport'])).toBe(p['udp.dstport']);
      if (p['icmp.type'] !== undefined) expect(Number(six ? col['icmpv6.code'] : col['icmp.code'])).toBe(p['icmp.code']);
      if (p['icmp.type'] !== undefined && !six) expect(Number(col['icmp.type'])).toBe(p['icmp.type']);
      if (p['icmp.type'] !== undefined && six) expect(Number(col['icmpv6.type'])).toBe(p['icmp.type']);
      if (p['ip.hdr_len'] !== undefined) expect([Number(col['ip.hdr_len']), Number(col['ip.opt.type']!.split(',')[0])]).toEqual([Number(p['ip.hdr_len']) * 4, p['ip.opt.type']]);
      // the payload is zeros: a dissector chosen by a random port may call its own protocol malformed,
      // never IP or the transport
      expect(col['_ws.malformed']).not.toMatch(/Malformed Packet: (IPv4|IPv6|TCP|UDP|ICMP|ICMPv6)\]/);
      const checks = fields.slice(-5).map((f) => col[f]).filter((c) => c !== '');
      expect(checks.every((c) => c === '1'), JSON.stringify({ p, checks: fields.slice(-5).map((f) => [f, col[f]]) })).toBe(true);
    });
  });
});
