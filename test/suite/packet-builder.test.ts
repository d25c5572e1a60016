// A suite's packet becomes real frame bytes that the capture decoder reads back: whatever fields a
// case gives, the decoded record has exactly those values, and the documented defaults elsewhere.
// Looked-up fields given by a case replace the lookups where the firewall reads them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PacketRecord } from '../../src/capture/record.js';
import { recordFields } from '../../src/fields/render.js';
import { loadSnapshotFile } from '../../src/config/load.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { tracePackets } from '../../src/suite/kinds/packet.js';
import { PacketBuilder } from '../../src/suite/packet-builder.js';
import { decodeInto } from '../../src/capture/decode/link-up.js';
import { Frame } from '../../src/capture/frame.js';
import { parsePacket, type PacketSpec } from '../../src/suite/packet-spec.js';
import { parseSuiteText } from '../../src/suite/source.js';
import { DEMO_CONFIG } from './helpers.js';

function spec(fields: Record<string, unknown>): PacketSpec {
  return parsePacket(parseSuiteText('packet.yaml', JSON.stringify(fields)));
}

function decoded(...packets: Array<Record<string, unknown>>): Array<Record<string, string | number | boolean>> {
  const builder = new PacketBuilder();
  const frame = new Frame();
  const rec = new PacketRecord();
  return packets.map((p) => {
    builder.build(spec(p), frame);
    decodeInto(rec, frame);
    expect(rec.note).toBe('');
    return { ...recordFields(rec), 'tcp.seq': rec.tcpSeq };
  });
}

describe('packet builder', () => {
  it('builds the documented typical packet when nothing is given', () => {
    const [f] = decoded({});
    expect(f).toMatchObject({ 'ip.src': '198.51.100.20', 'ip.dst': '203.0.113.10', 'ip.proto': 'tcp', 'ip.ttl': 64, 'ip.len': 40, 'tcp.srcport': 49152, 'tcp.dstport': 80, 'tcp.flags': 2, 'tcp.flags.syn': true, sip: false });
  });

  it('infers ip.proto from the transport fields and picks the IPv6 defaults beside an IPv6 address', () => {
    expect(decoded({ 'udp.dstport': 123 })[0]).toMatchObject({ 'ip.proto': 'udp', 'udp.srcport': 49152, 'udp.dstport': 123 });
    expect(decoded({ 'icmp.type': 0 })[0]).toMatchObject({ 'ip.proto': 'icmp', 'icmp.type': 0, 'icmp.code': 0 });
    expect(decoded({ 'ip.dst': '2001:db8:ffff::1', 'icmp.code': 0 })[0]).toMatchObject({ 'ip.src': '2001:db8::20', 'ip.proto': 'ipv6-icmp', 'icmp.type': 128 });
  });

  it('pads to ip.len and marks SIP payloads', () => {
    expect(decoded({ 'ip.len': 1500, 'udp.dstport': 5060 })[0]).toMatchObject({ 'ip.len': 1500, sip: false });
    expect(decoded({ 'udp.dstport': 5060, sip: true })[0]).toMatchObject({ sip: true });
  });

  it('sets the transport payload from text or from bytes written as inspect writes them', () => {
    expect(decoded({ 'udp.dstport': 5060, payload: 'OPTIONS sip:a@b SIP/2.0\r\n\r\n' })[0]).toMatchObject({ sip: true, 'ip.len': 20 + 8 + 27 });
    expect(decoded({ 'udp.dstport': 9, payload: '01:02:ff' })[0]).toMatchObject({ udp: expect.stringMatching(/:01:02:ff$/) as unknown, 'ip.len': 31 });
  });

  it('builds IPv4 options from ip.hdr_len and ip.opt.type', () => {
    expect(decoded({ 'ip.hdr_len': 7, 'ip.opt.type': 7 })[0]).toMatchObject({ 'ip.hdr_len': 7, 'ip.opt.type': 7, 'ip.len': 28 + 20, ip: expect.stringMatching(/^47:00:00:30:(?:[0-9a-f]{2}:){16}07:08:00:00:00:00:00:00:/) as unknown });
    expect(decoded({ 'ip.opt.type': 148 })[0]).toMatchObject({ 'ip.hdr_len': 6, 'ip.opt.type': 148 });
  });

  it('refuses fields that disagree with the bytes given beside them, naming the field', () => {
    const line = decoded({ 'tcp.dstport': 22 })[0]!;
    expect(() => decoded({ ip: line.ip, 'tcp.dstport': 23 })).toThrow('packet.yaml:1: tcp.dstport: 23 disagrees with the packet\'s bytes, which say 22');
    expect(decoded({ ip: line.ip, 'tcp.dstport': 22 })[0]).toMatchObject({ 'tcp.dstport': 22 });
  });

  it('gives a connection the next sequence number in a sequence', () => {
    const [syn, ack, data] = decoded({ 'tcp.flags.syn': true }, { 'tcp.flags.ack': true }, { 'tcp.flags.ack': true, 'tcp.flags.push': true });
    expect([syn!['tcp.seq'], ack!['tcp.seq'], data!['tcp.seq']]).toEqual([1000, 1001, 1001]);
  });

  it('decodes every given field back to the value given (property)', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
    const port = fc.integer({ min: 0, max: 65535 });
    const transport = fc.oneof(
      fc.record({ 'tcp.srcport': port, 'tcp.dstport': port, 'tcp.flags': fc.integer({ min: 0, max: 255 }) }),
      fc.record({ 'udp.srcport': port, 'udp.dstport': port }),
      fc.record({ 'icmp.type': fc.integer({ min: 0, max: 255 }), 'icmp.code': fc.integer({ min: 0, max: 255 }) }),
    );
    fc.assert(
      fc.property(v4, v4, fc.integer({ min: 0, max: 255 }), transport, (src, dst, ttl, t) => {
        const given = { 'ip.src': src, 'ip.dst': dst, 'ip.ttl': ttl, ...t };
        const [f] = decoded(given);
        expect(f).toMatchObject(given);
      }),
      { numRuns: 300 },
    );
  });

  it('lets a case replace what the lookups say, where the firewall reads it', async () => {
    const paths = await SuitePaths.open(await loadSnapshotFile(DEMO_CONFIG), {});
    const trace = (p: Record<string, unknown>) => tracePackets([spec(p)], 0, paths);
    expect(trace({ 'ip.src': '198.51.100.7', 'tcp.dstport': 443 }).rule).toBe('allow-web');
    const kp = trace({ 'ip.src': '198.51.100.7', 'ip.src.country': 'KP', 'tcp.dstport': 443 });
    expect([kp.rule, kp.fields['ip.src.country']]).toEqual(['geo-block', 'KP']);
    // ip.geoip.country sets the source country when the source is not given
    expect(trace({ 'ip.geoip.country': 'IR', 'tcp.dstport': 443 }).rule).toBe('geo-block');
    const colo = trace({ 'cf.colo.name': 'fra01', 'ip.src.asnum': 64500 });
    expect(colo.fields).toMatchObject({ 'cf.colo.name': 'fra01', 'cf.colo.region': 'WEUR', 'ip.src.asnum': 64500 });
  });

  it('writes what the decoder reads: ICMP errors as short as ip.len 28 and 38, lengths past 65,535, IPv6 extension headers cut short', () => {
    // an error quoting as much of the invoking packet as ip.len leaves (real routers send 28 and 38)
    for (const type of [3, 5, 11]) {
      for (const len of [28, 38]) expect(decoded({ 'ip.proto': 'icmp', 'icmp.type': type, 'icmp.code': 1, 'ip.len': len })[0]).toMatchObject({ 'ip.len': len, 'icmp.type': type, 'icmp.code': 1 });
    }
    expect(decoded({ 'ip.src': '2001:db8::1', 'icmp.type': 1, 'ip.len': 48 })[0]).toMatchObject({ 'ip.proto': 'ipv6-icmp', 'ip.len': 48, 'icmp.type': 1 });
    // longer than an IP header can say: a capture taken before segmentation offload (length 0 in the header)
    expect(decoded({ 'tcp.dstport': 443, 'ip.len': 80102 })[0]).toMatchObject({ 'ip.len': 80102, 'tcp.dstport': 443 });
    expect(decoded({ 'ip.src': '2001:db8::1', 'udp.dstport': 53, 'ip.len': 70000 })[0]).toMatchObject({ 'ip.len': 70000, 'udp.dstport': 53 });
    // ICMP over IPv6 and ICMPv6 over IPv4: read as ICMP, as the decoder reads them
    expect(decoded({ 'ip.src': '2001:db8::1', 'ip.proto': 'icmp', 'icmp.type': 8 })[0]).toMatchObject({ 'ip.proto': 'icmp', 'icmp.type': 8 });
    expect(decoded({ 'ip.proto': 'ipv6-icmp', 'icmp.type': 128 })[0]).toMatchObject({ 'ip.proto': 'ipv6-icmp', 'icmp.type': 128 });
    // a packet too short for its transport's fields has none, and one whose decoding stopped early is cut before them
    const noted = (p: Record<string, unknown>): Record<string, unknown> => {
      const frame = new Frame();
      new PacketBuilder().build(spec(p), frame);
      const rec = new PacketRecord();
      decodeInto(rec, frame);
      return { ...recordFields(rec), note: rec.note };
    };
    expect(noted({ 'ip.proto': 'icmp', 'ip.len': 23 })).toMatchObject({ 'ip.len': 23, note: 'truncated ICMP header' });
    expect(noted({ 'ip.proto': 'icmp', 'ip.len': 23 })).not.toHaveProperty('icmp.type');
    expect(noted({ 'ip.proto': 'udp', 'ip.len': 32768, 'ip.hdr_len': 15, 'ip.opt.type': 131, note: 'truncated IPv4 header' })).toMatchObject({ 'ip.len': 32768, 'ip.hdr_len': 15, 'ip.opt.type': 131, note: 'truncated IPv4 header' });
    expect(noted({ 'ip.proto': 'udp', 'ip.len': 32768, 'ip.hdr_len': 15, 'ip.opt.type': 131, note: 'truncated IPv4 header' })).not.toHaveProperty('udp.dstport');
  });
});
