// Turns a suite's packet into what the packet path sees from a capture: a Frame of real Ethernet +
// IPv4/IPv6 + TCP/UDP/ICMP bytes (the synthetic scenarios' FrameBuilder, correct lengths and
// checksums), which decideFrame decides as it decides a capture's. Building bytes instead of filling
// a record by hand means a suite tests the same decoder and the same record the replay does: a field
// the decoder would not set cannot be faked.
//
// ICMP errors (destination unreachable, time exceeded, ...) carry what a real one does: the start of
// the packet that caused it, a UDP datagram from the packet's destination back to its source, as
// much of it as ip.len leaves room for. ip.len pads a packet with zeros; one longer than an IP header
// can say is written as a capture taken before segmentation offload holds it (length 0 in the
// header, the frame's length on the wire). Given bytes (`ip`, `tcp`, ...) are used as they are, as
// captured (an ip.len beyond them: the capture cut the packet short), and the fields given beside
// them must agree with what the decoder reads from them (a SuiteError at the field otherwise). So
// every packet the decoder reads can be written.
//
// In a `packets:` sequence, a TCP packet without tcp.seq takes its connection's next sequence number
// (after the previous packet's SYN, FIN and payload), so a handshake is written as flags only.
import { EXTENSION } from '../capture/decode/ip.js';
import { decodeInto } from '../capture/decode/link-up.js';
import type { Frame } from '../capture/frame.js';
import { PacketRecord } from '../capture/record.js';
import { FrameBuilder, MAX_IP_LENGTH, PROTO_ICMP, PROTO_ICMPV6, PROTO_TCP, PROTO_UDP, putU16, putU32, wordSum } from '../capture/synth/frame-builder.js';
import { recordFields } from '../fields/render.js';
import { LOOKUP_FIELDS } from '../fields/lookups.js';
import { icmpBodyLength } from '../capture/protocols.js';
import { headerOf, slotOf, writeSlot } from '../layers/index.js';
import { SIP_PAYLOAD, SIP_STATUS, type PacketSpec } from './packet-spec.js';

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
  /** the built frame decoded, to check the fields given beside bytes or a payload */
  private readonly check = new PacketRecord();

  /** Builds the next packet into `frame` (its bytes are the builder's: they hold until the next build). */
  build(spec: PacketSpec, frame: Frame): void {
    const f = this.frames;
    // IPv6 naming an extension header as its protocol is a capture cut short in that header, as the
    // decoder reads it: the header's next header is ip.proto, its length runs past what was captured
    const extensionCut = spec.family === 6 && EXTENSION[spec.proto] !== 0 && spec.bytes === null;
    const cutShort = spec.cut || extensionCut;
    const given = spec.bytes?.data.length ?? spec.payload?.length ?? 0;
    const padded = spec.ipLen !== null && spec.ipLen <= MAX_IP_LENGTH[spec.family] ? spec.ipLen : 0;
    f.ensure(ETH + Math.max(padded, 120 + given));
    // inbound: from the upstream router's MAC to the server side's, as traffic toward the edge
    let l4 = spec.family === 4 ? f.ipv4(true, spec.src4, spec.dst4, spec.proto, spec.ttl, this.frame + 1) : f.ipv6(true, spec.src6, spec.dst6, spec.proto, spec.ttl, 0);
    if (spec.options.length > 0) l4 = f.ipv4Options(spec.options);
    let end: number;
    const key = connectionKey(spec);
    let seq = 0;
    if (spec.bytes !== null) {
      const at = spec.bytes.layer === 'ip' ? ETH : l4;
      if (at === ETH) putU16(f.buf, 12, spec.bytes.data[0]! >> 4 === 6 ? 0x86dd : 0x0800);
      f.buf.set(spec.bytes.data, at);
      end = at + spec.bytes.data.length;
    } else if (spec.cut) {
      // as far as the fields given: the fixed header, and the first option's type byte
      end = spec.options.length > 0 ? ETH + 21 : l4;
    } else if (spec.proto === PROTO_TCP) {
      seq = spec.seq ?? this.nextSeq.get(key) ?? 1000;
      end = f.tcp(spec.srcPort, spec.dstPort, seq, spec.ack, spec.tcpFlags, spec.window, 0);
    } else if (spec.proto === PROTO_UDP) end = f.udp(spec.srcPort, spec.dstPort);
    else if (spec.proto === PROTO_ICMP || spec.proto === PROTO_ICMPV6) {
      end = f.echo(spec.icmpType, 1, this.frame + 1);
      f.buf[f.l4 + 1] = spec.icmpCode;
      if (icmpBodyLength(spec.proto === PROTO_ICMPV6 ? 6 : 4, spec.icmpType) > 0) {
        f.buf.fill(0, f.l4 + 4, f.l4 + 8);
        if (spec.payload === null) end = invokingPacket(f.buf, end, spec);
      }
    } else {
      f.buf.fill(0, l4, l4 + 4);
      if (extensionCut) f.buf.set([spec.proto, 0xff], l4);
      end = l4 + 4;
    }
    // each field given, where its layer places it (src/layers/): over what the headers above wrote
    if (spec.bytes === null) {
      for (const [field, value] of spec.placed) {
        const header = headerOf(field);
        const slot = slotOf(field, spec.family);
        if (slot !== undefined) writeSlot(f.buf, header === 'tcp' || header === 'udp' || header === 'icmp' ? f.l4 : ETH, slot, value);
      }
    }
    const payload = spec.bytes !== null ? null : spec.payload ?? (spec.sip ? sipPayload(end, spec.ipLen) : null);
    if (payload !== null) {
      f.buf.set(payload, end);
      end += payload.length;
    }
    // the IP packet's length its header says, and its length on the wire
    let ipLen = end - ETH;
    let wire = end;
    if (spec.bytes !== null) {
      if (spec.ipLen !== null) ipLen = spec.ipLen;
      wire = Math.max(end, ETH + ipLen);
    } else if (spec.ipLen !== null) {
      ipLen = spec.ipLen;
      if (cutShort) end = Math.min(end, ETH + ipLen);
      else if (ipLen <= MAX_IP_LENGTH[spec.family]) {
        if (ETH + ipLen > end) f.buf.fill(0, end, ETH + ipLen);
        end = ETH + ipLen;
      }
      wire = ETH + ipLen;
    }
    const len = spec.bytes?.layer === 'ip' ? end : f.finish(end, ipLen);
    if (spec.proto === PROTO_TCP) {
      const control = (spec.tcpFlags & 0x03) !== 0 ? 1 : 0;
      this.nextSeq.set(key, (seq + (ETH + ipLen - f.l4 - 20) + control) >>> 0);
    }
    this.frame++;
    const time = spec.time ?? (this.frame === 1 ? 0 : this.lastTime + DEFAULT_GAP);
    this.lastTime = time;
    frame.set(LINKTYPE_ETHERNET, f.buf, 0, len, wire);
    frame.number = this.frame;
    const ns = Math.round(time * 1e9);
    frame.tsSec = BASE_TIME + Math.floor(ns / 1e9);
    frame.tsNsec = ns % 1e9;
    if (spec.agree.length > 0) {
      decodeInto(this.check, frame);
      checkAgreement(spec, this.check);
    }
  }
}

/** The fields given beside a packet's bytes or payload must be what the decoder reads from the built packet. */
function checkAgreement(spec: PacketSpec, rec: PacketRecord): void {
  const fields = recordFields(rec);
  for (const [name, at] of spec.agree) {
    if (!(name in fields)) {
      if (NOT_FROM_BYTES.has(name)) continue;
      at.failKey(`the built packet has no ${name} (its bytes say otherwise)`);
    }
    const want = at.value;
    const got = fields[name]!;
    const same = typeof got === 'string' ? String(want).toLowerCase() === got.toLowerCase() : want === got;
    if (!same) at.fail(`${JSON.stringify(want)} disagrees with the packet's bytes, which say ${JSON.stringify(got)}`);
  }
}

/** keys a built packet's record does not hold from its bytes: the looked-up fields (set after it is built) and the TCP header values that are no Rules-language field */
const NOT_FROM_BYTES: ReadonlySet<string> = new Set([...LOOKUP_FIELDS, 'tcp.seq', 'tcp.ack', 'tcp.window']);

/** The SIP message of a packet with `sip: true` whose payload starts at `at`: the request, or a status line cut to the room ip.len leaves. */
function sipPayload(at: number, ipLen: number | null): Uint8Array {
  const room = ipLen === null ? Infinity : ETH + ipLen - at;
  return room >= SIP_PAYLOAD.length ? SIP_PAYLOAD : SIP_STATUS.subarray(0, Math.min(room, SIP_STATUS.length));
}

function folded(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** Writes an ICMP error's invoking packet at `at`: an IP header and a UDP header from the packet's destination back to its source. */
function invokingPacket(b: Uint8Array, at: number, spec: PacketSpec): number {
  const udp = at + (spec.family === 4 ? 20 : 40);
  if (spec.family === 4) {
    b.fill(0, at, udp);
    b[at] = 0x45;
    putU16(b, at + 2, 28);
    b[at + 8] = 64;
    b[at + 9] = PROTO_UDP;
    putU32(b, at + 12, spec.dst4);
    putU32(b, at + 16, spec.src4);
    putU16(b, at + 10, ~folded(wordSum(b, at, udp)) & 0xffff);
  } else {
    b.fill(0, at, udp);
    b[at] = 0x60;
    putU16(b, at + 4, 8);
    b[at + 6] = PROTO_UDP;
    b[at + 7] = 64;
    for (let w = 0; w < 4; w++) {
      putU32(b, at + 8 + 4 * w, spec.dst6[w]!);
      putU32(b, at + 24 + 4 * w, spec.src6[w]!);
    }
  }
  putU16(b, udp, spec.dstPort);
  putU16(b, udp + 2, spec.srcPort);
  putU16(b, udp + 4, 8);
  putU16(b, udp + 6, 0);
  // the UDP checksum over its pseudo-header (the addresses, the protocol and the length) and header
  const addresses = spec.family === 4 ? wordSum(b, at + 12, at + 20) : wordSum(b, at + 8, at + 40);
  putU16(b, udp + 6, ~folded(addresses + PROTO_UDP + 8 + wordSum(b, udp, udp + 8)) & 0xffff || 0xffff);
  return udp + 8;
}

function connectionKey(s: PacketSpec): string {
  const a = s.family === 4 ? String(s.src4) : s.src6.join(':');
  const b = s.family === 4 ? String(s.dst4) : s.dst6.join(':');
  return `${a}/${s.srcPort}>${b}/${s.dstPort}`;
}
