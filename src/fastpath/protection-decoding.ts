// The fast path in a replay with Advanced TCP Protection on. ATP keeps connection state for every
// protected TCP packet, so it needs some of each packet's fields, but far fewer than the decoder
// fills: the IP version and addresses, and for TCP the ports, flags, sequence and acknowledgement
// numbers and the payload length (advanced-tcp-protection.ts and the filters, which read only
// ip.src, ip.dst and the TCP ports). So the generated function first decides the frame for the
// firewall, as in a firewall-only replay, and leaves the header offsets it found; for the frames it
// decided, only ATP's fields are read from the bytes at those offsets. The packet path then runs ATP
// and keeps the firewall's result when ATP passes the packet (PacketPath.processDecided). A frame
// the generated function cannot read simply is decoded fully and takes the reference path.
//
// After each frame, `decided` says which happened. When true, the record holds the frame, no note,
// the IP version (0: no IP) and, exactly as the decoder sets them: for TCP (Has.IP | Has.TCP) the
// addresses, srcPort, dstPort, tcpFlags, tcpSeq, tcpAck and payloadLen; for other IP packets
// (Has.IP) the addresses only when the firewall dropped the packet (the summary counts where drops
// came from and went to). Every other field is stale.
import { readAddresses, word } from '../capture/decode/ip.js';
import { Has, type PacketRecord } from '../capture/record.js';
import type { FirewallResult } from '../firewall/firewall.js';
import { FastDecoding } from './fast-decoding.js';
import { type FastFirewall, NOT_IP } from './fast-firewall.js';
import { HeaderAt } from './generate.js';

export class ProtectionDecoding extends FastDecoding {
  /** `headers`: the array `fast` was compiled to leave the transport's offsets in (FastPathOptions.headers) */
  constructor(
    fast: FastFirewall,
    private readonly headers: Int32Array,
    result: FirewallResult,
  ) {
    super(fast, result);
  }

  protected override fill(rec: PacketRecord, data: Uint8Array, kind: number): void {
    if (kind === NOT_IP) return;
    const h = this.headers;
    const l3 = this.fast.ipHeader[0];
    if (h[HeaderAt.TCP] === 1) {
      readAddresses(rec, data, l3, kind);
      this.fillTcp(rec, data, l3, h[HeaderAt.L4], h[HeaderAt.IP_LEN]);
    } else {
      rec.present = Has.IP;
      // ATP reads nothing more of a packet without TCP; the summary counts a dropped packet's addresses
      if (this.result.drop) readAddresses(rec, data, l3, kind);
    }
  }

  // ATP's fields of a TCP packet, as decode/transport.ts sets them.
  private fillTcp(rec: PacketRecord, d: Uint8Array, l3: number, l4: number, ipLen: number): void {
    rec.present = Has.IP | Has.TCP;
    rec.srcPort = (d[l4] << 8) | d[l4 + 1];
    rec.dstPort = (d[l4 + 2] << 8) | d[l4 + 3];
    rec.tcpSeq = word(d, l4 + 4);
    rec.tcpAck = word(d, l4 + 8);
    rec.tcpFlags = d[l4 + 13];
    const payload = l3 + ipLen - (l4 + (d[l4 + 12] >> 4) * 4);
    rec.payloadLen = payload > 0 ? payload : 0;
  }
}
