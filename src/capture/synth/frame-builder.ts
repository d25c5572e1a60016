// Builds one Ethernet frame at a time into a reused buffer, byte by byte, the way a capture would
// hold it: Ethernet II with fixed MACs (the upstream router and the server side), IPv4 or IPv6,
// then TCP, UDP, ICMP or ICMPv6 with correct checksums (IPv4 header checksum and the transport
// checksums over the pseudo-header), so tshark with checksum validation calls every packet good.
//
// The caller writes the headers in order and the payload straight into `buf`, then calls finish(),
// which fills in the lengths and checksums. Nothing is allocated per packet (`buf` grows, once, for a
// caller that asks for room: ensure()).

export const PROTO_ICMP = 1;
export const PROTO_TCP = 6;
export const PROTO_UDP = 17;
export const PROTO_ICMPV6 = 58;

/** Largest frame the scenarios build: Ethernet + IPv6 + TCP with options + one full MSS. */
export const MAX_FRAME = 2048;
/** The largest IP packet whose length its header can say: IPv4's total length; IPv6's payload length plus its header. */
export const MAX_IP_LENGTH: Readonly<Record<4 | 6, number>> = { 4: 0xffff, 6: 0xffff + 40 };

const ETH = 14;
const ROUTER_MAC = new Uint8Array([0x02, 0x00, 0x5e, 0x00, 0x00, 0x01]);
const SERVER_MAC = new Uint8Array([0x02, 0x00, 0x5e, 0x00, 0x00, 0x02]);

function fold(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** The one's-complement sum (unfolded) of the big-endian 16-bit words of buf[from..to). */
export function wordSum(buf: Uint8Array, from: number, to: number): number {
  let sum = 0;
  let i = from;
  for (; i + 1 < to; i += 2) sum += (buf[i]! << 8) | buf[i + 1]!;
  if (i < to) sum += buf[i]! << 8;
  return sum;
}

export class FrameBuilder {
  buf = new Uint8Array(MAX_FRAME);
  private family: 4 | 6 = 4;
  private proto = 0;
  /** offset of the transport header */
  l4 = 0;

  /** Ethernet + IPv4 header (DF set for TCP); returns the transport header's offset. */
  ipv4(inbound: boolean, src: number, dst: number, proto: number, ttl: number, id: number): number {
    const b = this.buf;
    this.ethernet(inbound, 0x0800);
    b[14] = 0x45;
    b[15] = 0;
    b[18] = (id >>> 8) & 0xff;
    b[19] = id & 0xff;
    b[20] = proto === PROTO_TCP ? 0x40 : 0;
    b[21] = 0;
    b[22] = ttl;
    b[23] = proto;
    b[26] = src >>> 24;
    b[27] = (src >>> 16) & 0xff;
    b[28] = (src >>> 8) & 0xff;
    b[29] = src & 0xff;
    b[30] = dst >>> 24;
    b[31] = (dst >>> 16) & 0xff;
    b[32] = (dst >>> 8) & 0xff;
    b[33] = dst & 0xff;
    this.family = 4;
    this.proto = proto;
    this.l4 = ETH + 20;
    return this.l4;
  }

  /** IPv4 options after the header ipv4() wrote (a multiple of 4 bytes, at most 40); returns the transport header's offset. */
  ipv4Options(options: Uint8Array): number {
    this.buf[14] = 0x40 | (5 + (options.length >>> 2));
    this.buf.set(options, ETH + 20);
    this.l4 = ETH + 20 + options.length;
    return this.l4;
  }

  /** Ethernet + IPv6 header; returns the transport header's offset. */
  ipv6(inbound: boolean, src: Uint32Array, dst: Uint32Array, proto: number, hopLimit: number, flowLabel: number): number {
    const b = this.buf;
    this.ethernet(inbound, 0x86dd);
    b[14] = 0x60 | ((flowLabel >>> 16) & 0x0f);
    b[15] = (flowLabel >>> 8) & 0xff;
    b[16] = flowLabel & 0xff;
    b[17] = 0;
    b[20] = proto;
    b[21] = hopLimit;
    for (let w = 0; w < 4; w++) {
      putU32(b, 22 + 4 * w, src[w]!);
      putU32(b, 38 + 4 * w, dst[w]!);
    }
    this.family = 6;
    this.proto = proto;
    this.l4 = ETH + 40;
    return this.l4;
  }

  /** The fixed 20 bytes of a TCP header with `optionBytes` (a multiple of 4) of options to follow. */
  tcp(sport: number, dport: number, seq: number, ack: number, flags: number, window: number, optionBytes: number): number {
    const b = this.buf;
    const o = this.l4;
    putU16(b, o, sport);
    putU16(b, o + 2, dport);
    putU32(b, o + 4, seq);
    putU32(b, o + 8, ack);
    b[o + 12] = ((20 + optionBytes) >>> 2) << 4;
    b[o + 13] = flags;
    putU16(b, o + 14, window);
    b[o + 16] = 0;
    b[o + 17] = 0;
    b[o + 18] = 0;
    b[o + 19] = 0;
    return o + 20;
  }

  /** A UDP header; returns the payload's offset. */
  udp(sport: number, dport: number): number {
    const o = this.l4;
    putU16(this.buf, o, sport);
    putU16(this.buf, o + 2, dport);
    return o + 8;
  }

  /** An ICMP or ICMPv6 echo header; returns the payload's offset. */
  echo(type: number, id: number, seq: number): number {
    const b = this.buf;
    const o = this.l4;
    b[o] = type;
    b[o + 1] = 0;
    putU16(b, o + 4, id);
    putU16(b, o + 6, seq);
    return o + 8;
  }

  /** Makes `buf` hold at least `size` bytes, keeping what it holds. */
  ensure(size: number): void {
    if (size <= this.buf.length) return;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf);
    this.buf = bigger;
  }

  /**
   * Fills in lengths and checksums for a frame that ends at `end`; returns the frame's length.
   * `ipLen`: the IP packet's length its header says (default: what the frame holds); one longer than
   * the header can say is written as 0, as a capture taken before segmentation offload has it.
   */
  finish(end: number, ipLen = end - ETH): number {
    const b = this.buf;
    const l4 = this.l4;
    const l4Len = end - l4;
    let pseudo: number;
    if (this.family === 4) {
      putU16(b, 16, ipLen > MAX_IP_LENGTH[4] ? 0 : ipLen);
      b[24] = 0;
      b[25] = 0;
      putU16(b, 24, ~fold(wordSum(b, ETH, l4)) & 0xffff);
      pseudo = this.proto === PROTO_ICMP ? 0 : wordSum(b, 26, 34) + this.proto + l4Len;
    } else {
      putU16(b, 18, ipLen > MAX_IP_LENGTH[6] ? 0 : ipLen - 40);
      pseudo = wordSum(b, 22, 54) + this.proto + l4Len;
    }
    let ckOff: number;
    if (this.proto === PROTO_TCP) ckOff = l4 + 16;
    else if (this.proto === PROTO_UDP) {
      putU16(b, l4 + 4, l4Len);
      ckOff = l4 + 6;
    } else ckOff = l4 + 2;
    b[ckOff] = 0;
    b[ckOff + 1] = 0;
    let ck = ~fold(pseudo + wordSum(b, l4, end)) & 0xffff;
    if (ck === 0 && this.proto === PROTO_UDP) ck = 0xffff;
    putU16(b, ckOff, ck);
    return end;
  }

  private ethernet(inbound: boolean, etherType: number): void {
    this.buf.set(inbound ? SERVER_MAC : ROUTER_MAC, 0);
    this.buf.set(inbound ? ROUTER_MAC : SERVER_MAC, 6);
    putU16(this.buf, 12, etherType);
  }
}

export function putU16(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}

export function putU32(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}
