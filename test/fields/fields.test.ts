// The record-to-field binding: one accessor for every firewall-phase field of the Rules-language
// scheme (ip.geoip.country is derived by the language), each reading the right record property and
// absent exactly when the packet lacks it; expressions compiled over it evaluate decoded packets
// as documented; recordFields renders the same values for people.
import { describe, expect, it } from 'vitest';
import { recordBinding } from '../../src/fields/binding.js';
import { recordFields } from '../../src/fields/render.js';
import { decodeFrame } from '../../src/capture/reader.js';
import { Has, PacketRecord } from '../../src/capture/record.js';
import { compile, FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { ascii, ethernet, icmp, ipv4, ipv6, tcp, udp } from '../capture/helpers/build.js';

function decoded(linkType: number, frame: Uint8Array): PacketRecord {
  const rec = new PacketRecord();
  decodeFrame(rec, linkType, frame, frame.length);
  return rec;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const synEce = decoded(1, ethernet(0x0800, ipv4({ src: '10.1.2.3', dst: '192.0.2.80', proto: 6, ttl: 61, options: [0x94, 4, 0, 0] }, tcp(40000, 443, 0x42))));
const sipUdp6 = decoded(1, ethernet(0x86dd, ipv6({ src: '2001:db8::5', dst: '2001:db8::6', next: 17, hopLimit: 3 }, udp(5060, 5060, ascii('OPTIONS sip:x SIP/2.0\r\n')))));
const ping = decoded(101, ipv4({ proto: 1 }, icmp(8, 0)));
const arp = decoded(1, ethernet(0x0806, new Uint8Array(28)));

describe('recordBinding', () => {
  it('binds every firewall-phase field of the scheme, with the scheme\'s type, except the derived ip.geoip.country', () => {
    const scheme = FIREWALL_SCHEME.fieldNames().filter((n) => n !== 'ip.geoip.country');
    expect(Object.keys(recordBinding).sort()).toEqual(scheme.sort());
    for (const name of scheme) expect(recordBinding[name]!.type, name).toBe(FIREWALL_SCHEME.field(name)!.type);
  });

  it('has a field exactly when the packet has its group', () => {
    const has = (rec: PacketRecord): string[] => Object.entries(recordBinding).filter(([, f]) => f.has(rec)).map(([n]) => n).sort();
    expect(has(arp)).toEqual([]);
    expect(has(ping)).toEqual(['icmp', 'icmp.code', 'icmp.type', 'ip', 'ip.dst', 'ip.hdr_len', 'ip.len', 'ip.proto', 'ip.src', 'ip.ttl', 'sip']);
    expect(has(sipUdp6)).toEqual(['ip', 'ip.dst', 'ip.len', 'ip.proto', 'ip.src', 'ip.ttl', 'sip', 'udp', 'udp.dstport', 'udp.srcport']);
    expect(has(synEce)).toContain('ip.opt.type');
    expect(has(synEce)).not.toContain('udp.srcport');
  });
});

describe('expressions compiled over the binding', () => {
  const cases: Array<[string, PacketRecord, boolean]> = [
    ['ip.src == 10.1.2.3 and ip.dst in {192.0.2.0/24}', synEce, true],
    ['ip.src in {10.0.0.0/8} and tcp.dstport == 443 and ip.ttl == 61', synEce, true],
    ['ip.proto == "tcp" and ip.hdr_len == 6 and ip.opt.type == 148', synEce, true],
    ['ip.len == 44', synEce, true],
    ['tcp.flags == 0x42', synEce, true],
    ['tcp.flags.syn and tcp.flags.ecn and not tcp.flags.ack and not tcp.flags.cwr', synEce, true],
    ['tcp.flags.fin or tcp.flags.reset or tcp.flags.push or tcp.flags.urg', synEce, false],
    ['udp.dstport == 5060', synEce, false],
    ['udp.dstport != 5060', synEce, true],
    ['sip', synEce, false],
    ['not sip', synEce, true],
    ['sip and ip.proto == "udp" and udp.srcport == 5060', sipUdp6, true],
    ['ip.src == 2001:db8::5 and ip.ttl == 3 and ip.len == 71', sipUdp6, true],
    ['ip.hdr_len == 5', sipUdp6, false],
    ['icmp.type == 8 and icmp.code == 0 and ip.proto == "icmp"', ping, true],
    ['tcp.srcport != 1', ping, true],
    ['ip.src.country == "GB"', ping, false],
    ['ip.proto == "udp"', arp, false],
    ['ip.proto != "udp"', arp, true],
  ];
  it.each(cases)('%s', (expr, rec, want) => {
    expect(compile(parse(expr, FIREWALL_SCHEME), recordBinding)(rec)).toBe(want);
  });

  it('reads the enrichment fields once they are set', () => {
    const rec = decoded(101, ipv4({ proto: 6 }, tcp(1, 2, 0x10)));
    rec.srcCountry = enc('GB');
    rec.dstCountry = enc('US');
    rec.srcAsn = 13335;
    rec.dstAsn = 15169;
    rec.coloName = enc('sfo06');
    rec.coloRegion = enc('WNAM');
    rec.present |= Has.SRC_COUNTRY | Has.DST_COUNTRY | Has.SRC_ASN | Has.DST_ASN | Has.COLO_NAME | Has.COLO_REGION;
    const expr = 'ip.src.country == "GB" and ip.dst.country == "US" and ip.geoip.country == "US" and ip.src.asnum == 13335 and ip.dst.asnum == 15169 and cf.colo.name == "sfo06" and cf.colo.region == "WNAM"';
    expect(compile(parse(expr, FIREWALL_SCHEME), recordBinding)(rec)).toBe(true);
    expect(recordFields(rec)).toMatchObject({ 'ip.src.country': 'GB', 'ip.dst.country': 'US', 'ip.src.asnum': 13335, 'ip.dst.asnum': 15169, 'cf.colo.name': 'sfo06', 'cf.colo.region': 'WNAM' });
  });
});

describe('recordFields', () => {
  it('renders every present field by name: addresses and names as text, raw bytes as hex', () => {
    expect(recordFields(ping)).toEqual({
      'ip.src': '192.0.2.1', 'ip.dst': '198.51.100.2', 'ip.proto': 'icmp', 'ip.len': 28, 'ip.ttl': 64, 'ip.hdr_len': 5,
      'icmp.type': 8, 'icmp.code': 0,
      ip: '45:00:00:1c:00:01:00:00:40:01:00:00:c0:00:02:01:c6:33:64:02:08:00:00:00:00:00:00:00',
      icmp: '08:00:00:00:00:00:00:00',
      sip: false,
    });
    expect(recordFields(arp)).toEqual({});
  });

  it('renders IPv6 addresses in RFC 5952 form and the TCP flag booleans', () => {
    const f = recordFields(sipUdp6);
    expect(f['ip.src']).toBe('2001:db8::5');
    expect(f.sip).toBe(true);
    expect(recordFields(synEce)).toMatchObject({ 'tcp.flags': 0x42, 'tcp.flags.syn': true, 'tcp.flags.ecn': true, 'tcp.flags.ack': false, 'ip.opt.type': 148 });
  });
});
