// Builds decoded PacketRecords directly, for tests of stages after decoding.
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
  /** seconds after `epoch` (default 0) */
  time?: number;
  epoch?: number;
  /** TCP sequence and acknowledgement numbers, payload bytes */
  seq?: number;
  ack?: number;
  payload?: number;
  /** the ingress data center and region, as the lookups would set them */
  colo?: string;
  region?: string;
}

const interned = new Map<string, Uint8Array>();
function intern(s: string): Uint8Array {
  let b = interned.get(s);
  if (b === undefined) {
    b = new TextEncoder().encode(s);
    interned.set(s, b);
  }
  return b;
}

const PROTO = { tcp: 6, udp: 17, icmp: 1 } as const;


export function record(spec: RecordSpec, rec = new PacketRecord()): PacketRecord {
  rec.reset();
  rec.frame = spec.frame ?? 1;
  const time = spec.time ?? 0;
  rec.tsSec = (spec.epoch ?? 0) + Math.floor(time);
  rec.tsNsec = Math.round((time - Math.floor(time)) * 1e9);
  rec.present = Has.IP;
  rec.setAddresses(spec.src, spec.dst);
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
    rec.tcpSeq = (spec.seq ?? 0) >>> 0;
    rec.tcpAck = (spec.ack ?? 0) >>> 0;
    rec.payloadLen = spec.payload ?? 0;
  } else if (proto === 'udp') {
    rec.present |= Has.UDP;
    rec.srcPort = spec.sport ?? 40000;
    rec.dstPort = spec.dport ?? 53;
  } else {
    rec.present |= Has.ICMP;
    rec.icmpType = 8;
  }
  setIngress(rec, spec);
  return rec;
}

/** Adds the looked-up data center and region of `spec` to a record. */
function setIngress(rec: PacketRecord, spec: RecordSpec): void {
  if (spec.colo !== undefined) {
    rec.coloName = intern(spec.colo);
    rec.present |= Has.COLO_NAME;
  }
  if (spec.region !== undefined) {
    rec.coloRegion = intern(spec.region);
    rec.present |= Has.COLO_REGION;
  }
}

