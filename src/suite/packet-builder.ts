// Turns a suite's packet into what the packet path sees from a capture: real Ethernet + IPv4/IPv6 +
// TCP/UDP/ICMP bytes (the synthetic scenarios' FrameBuilder, correct lengths and checksums), decoded
// by the capture decoder into a PacketRecord. Building bytes instead of filling a record by hand
// means a suite tests the same decoder and the same record the replay does: a field the decoder
// would not set cannot be faked.
//
// In a `packets:` sequence, a TCP packet without tcp.seq takes its connection's next sequence number
// (after the previous packet's SYN, FIN and payload), so a handshake is written as flags only.
import { decodeFrame } from '../capture/reader.js';
import { PacketRecord } from '../capture/record.js';
import { FrameBuilder, PROTO_ICMP, PROTO_ICMPV6, PROTO_TCP, PROTO_UDP } from '../capture/synth/frame-builder.js';
import { SIP_PAYLOAD, type PacketSpec } from './packet-spec.js';

const LINKTYPE_ETHERNET = 1;
const ETH = 14;
/** the first packet's capture time: 2023-11-14T22:13:20Z */
export const BASE_TIME = 1_700_000_000;
/** seconds between packets of a sequence that give no time */
export const DEFAULT_GAP = 0.001;

/** Builds the packets of one case in order, keeping each TCP connection's next sequence number. */
export class PacketBuilder {
  private readonly frames = new FrameBuilder();
  private readonly nextSeq = new Map<string, number>();
  private frame = 0;
  private lastTime = 0;

  /** Builds and decodes the next packet into `rec` (reset first). */
  build(spec: PacketSpec, rec: PacketRecord): void {
    const f = this.frames;
    // inbound: from the upstream router's MAC to the server side's, as traffic toward the edge
    const l4 = spec.family === 4 ? f.ipv4(true, spec.src4, spec.dst4, spec.proto, spec.ttl, this.frame + 1) : f.ipv6(true, spec.src6, spec.dst6, spec.proto, spec.ttl, 0);
    let end: number;
    const key = connectionKey(spec);
    let seq = 0;
    if (spec.proto === PROTO_TCP) {
      seq = spec.seq ?? this.nextSeq.get(key) ?? 1000;
      end = f.tcp(spec.srcPort, spec.dstPort, seq, spec.ack, spec.tcpFlags, spec.window, 0);
    } else if (spec.proto === PROTO_UDP) end = f.udp(spec.srcPort, spec.dstPort);
    else if (spec.proto === PROTO_ICMP || spec.proto === PROTO_ICMPV6) {
      end = f.echo(spec.icmpType, 1, this.frame + 1);
      f.buf[f.l4 + 1] = spec.icmpCode;
    } else end = l4 + 4;
    if (spec.sip) {
      f.buf.set(SIP_PAYLOAD, end);
      end += SIP_PAYLOAD.length;
    }
    if (spec.ipLen !== null && ETH + spec.ipLen > end) {
      f.buf.fill(0, end, ETH + spec.ipLen);
      end = ETH + spec.ipLen;
    }
    const len = f.finish(end);
    if (spec.proto === PROTO_TCP) {
      const control = (spec.tcpFlags & 0x03) !== 0 ? 1 : 0;
      this.nextSeq.set(key, (seq + (end - f.l4 - 20) + control) >>> 0);
    }
    this.frame++;
    const time = spec.time ?? (this.frame === 1 ? 0 : this.lastTime + DEFAULT_GAP);
    this.lastTime = time;
    rec.reset();
    decodeFrame(rec, LINKTYPE_ETHERNET, f.buf, len);
    rec.frame = this.frame;
    const ns = Math.round(time * 1e9);
    rec.tsSec = BASE_TIME + Math.floor(ns / 1e9);
    rec.tsNsec = ns % 1e9;
  }
}

function connectionKey(s: PacketSpec): string {
  const a = s.family === 4 ? String(s.src4) : s.src6.join(':');
  const b = s.family === 4 ? String(s.dst4) : s.dst6.join(':');
  return `${a}/${s.srcPort}>${b}/${s.dstPort}`;
}
