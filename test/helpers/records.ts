// Builds decoded PacketRecords directly, for tests of stages after decoding.
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { Has, PacketRecord } from '../../src/capture/record.js';

export interface RecordSpec {
  src: string;
  dst: string;
  proto?: 'tcp' | 'udp' | 'icmp';
  sport?: number;
  dport?: number;
  flags?: number;
  ttl?: number;
  len?: number;
  frame?: number;
  time?: number;
}

const PROTO = { tcp: 6, udp: 17, icmp: 1 } as const;

/** Sets ip.src / ip.dst (and the IP version) from address text, v4 or v6. */
export function setAddresses(rec: PacketRecord, src: string, dst: string): void {
  if (src.includes(':')) {
    rec.ipVersion = 6;
    parseIPv6(src, rec.src6);
    parseIPv6(dst, rec.dst6);
  } else {
    rec.ipVersion = 4;
    rec.src4 = parseIPv4(src);
    rec.dst4 = parseIPv4(dst);
  }
}

export function record(spec: RecordSpec, rec = new PacketRecord()): PacketRecord {
  rec.reset();
  rec.frame = spec.frame ?? 1;
  rec.tsSec = Math.floor(spec.time ?? 0);
  rec.tsNsec = Math.round(((spec.time ?? 0) % 1) * 1e9);
  rec.present = Has.IP;
  setAddresses(rec, spec.src, spec.dst);
  if (rec.ipVersion === 4) {
    rec.present |= Has.IP_HDR_LEN;
    rec.hdrLen = 5;
  }
  const proto = spec.proto ?? 'tcp';
  rec.proto = PROTO[proto];
  rec.ttl = spec.ttl ?? 64;
  rec.ipLen = spec.len ?? 60;
  if (proto === 'tcp') {
    rec.present |= Has.TCP;
    rec.srcPort = spec.sport ?? 40000;
    rec.dstPort = spec.dport ?? 80;
    rec.tcpFlags = spec.flags ?? 0x02;
  } else if (proto === 'udp') {
    rec.present |= Has.UDP;
    rec.srcPort = spec.sport ?? 40000;
    rec.dstPort = spec.dport ?? 53;
  } else {
    rec.present |= Has.ICMP;
    rec.icmpType = 8;
  }
  return rec;
}
