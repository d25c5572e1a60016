// The network layer: the OUTERMOST IPv4 or IPv6 header only. A tunnelled packet (IPv4 in IPv6, GRE,
// ...) is described by its outer header; edgesim does not descend, because the firewall sees the
// outer packet. IPv4 options are skipped (the first option byte is ip.opt.type); IPv6 extension
// headers are walked (hop-by-hop, routing, fragment, destination options, AH) so that `proto` is the
// protocol of the transport that follows them; ESP ends the walk, since what it carries is encrypted.
// A non-first fragment of either family carries no transport header, so it gets no transport fields.
//
// An IPv4 header whose header length or total length is impossible yields no IP fields at all
// (as in Wireshark), with a note; a header cut by the capture sets what it holds, except that the
// fixed header (IPv4 20 bytes, IPv6 40) must be complete for any IP field to be set.
import { Note } from '../notes.js';
import { Has, type PacketRecord } from '../record.js';
import { READ_FIELDS } from './layer-readers.js';
import { decodeTransport } from './transport.js';

/** The big-endian 32-bit word at d[o], unsigned. */
export function word(d: Uint8Array, o: number): number {
  return ((d[o]! << 24) | (d[o + 1]! << 16) | (d[o + 2]! << 8) | d[o + 3]!) >>> 0;
}

/** Sets ip.src and ip.dst from the complete fixed IP header of `version` (4 or 6) at d[off]. */
export function readAddresses(rec: PacketRecord, d: Uint8Array, off: number, version: number): void {
  if (version === 4) {
    rec.src4 = word(d, off + 12);
    rec.dst4 = word(d, off + 16);
    return;
  }
  for (let i = 0; i < 4; i++) {
    rec.src6[i] = word(d, off + 8 + 4 * i);
    rec.dst6[i] = word(d, off + 24 + 4 * i);
  }
}

/** Decodes an IPv4 packet at d[off, end). */
export function decodeIPv4(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < 20) {
    rec.note = end > off && d[off]! >> 4 !== 4 ? Note.BAD_IP_VERSION : Note.TRUNCATED_IPV4;
    return;
  }
  const vihl = d[off]!;
  if (vihl >> 4 !== 4) {
    rec.note = Note.BAD_IP_VERSION;
    return;
  }
  const ihl = vihl & 0x0f;
  if (ihl < 5) {
    rec.note = Note.BAD_IPV4_HEADER_LENGTH;
    return;
  }
  let totalLen = (d[off + 2]! << 8) | d[off + 3]!;
  // zero: a packet captured before segmentation offload or a BIG TCP packet (> 64 KiB) filled it in;
  // as Wireshark does, take the length the frame reports
  if (totalLen === 0) totalLen = rec.dataOff + rec.origLen - off;
  const hdrBytes = ihl * 4;
  if (totalLen < hdrBytes) {
    rec.note = Note.BAD_IPV4_TOTAL_LENGTH;
    return;
  }
  rec.present |= Has.IP | Has.IP_HDR_LEN;
  rec.ipVersion = 4;
  rec.ipLen = totalLen;
  // ip.ttl, ip.hdr_len, …: where the IP layer places them (src/layers/ip.ts)
  READ_FIELDS.ipv4(rec, d, off);
  rec.proto = d[off + 9]!;
  readAddresses(rec, d, off, 4);
  const fragField = (d[off + 6]! << 8) | d[off + 7]!;
  rec.fragOffset = (fragField & 0x1fff) * 8;
  rec.moreFragments = (fragField & 0x2000) !== 0;
  rec.l3Off = off;
  rec.l3End = Math.min(end, off + totalLen);
  if (ihl > 5 && rec.l3End > off + 20) {
    READ_FIELDS.ipv4Options(rec, d, off);
    rec.present |= Has.IP_OPT;
  }
  if (rec.l3End - off < hdrBytes) {
    rec.note = Note.TRUNCATED_IPV4;
    return;
  }
  if (rec.fragOffset === 0) decodeTransport(rec, rec.proto, d, off + hdrBytes, rec.l3End);
}

const NOT_EXTENSION = 0;
/** length = (byte 1 + 1) * 8 */
const EXT_8OCTET = 1;
/** length = (byte 1 + 2) * 4 */
export const EXT_AH = 2;
export const EXT_FRAGMENT = 3;

/** next header -> which extension header it is (0: none); the fast path's prologue walks them with it too */
export const EXTENSION = new Uint8Array(256);
EXTENSION[0] = EXT_8OCTET; // hop-by-hop options
EXTENSION[43] = EXT_8OCTET; // routing
EXTENSION[60] = EXT_8OCTET; // destination options
EXTENSION[51] = EXT_AH;
EXTENSION[44] = EXT_FRAGMENT;

const JUMBO_PAYLOAD = 0xc2;

/** The IPv6 packet length a Jumbo Payload option in a hop-by-hop header right after the header at d[off] gives, or null. */
export function jumboLength(d: Uint8Array, off: number, end: number): number | null {
  const h = off + 40;
  if (d[off + 6] !== 0 || end - h < 8) return null;
  const hEnd = Math.min(end, h + (d[h + 1]! + 1) * 8);
  for (let p = h + 2; p < hEnd; ) {
    const type = d[p]!;
    if (type === 0) {
      p++;
      continue;
    }
    if (p + 1 >= hEnd) return null;
    const len = d[p + 1]!;
    if (type === JUMBO_PAYLOAD && len === 4 && p + 6 <= hEnd) return (word(d, p + 2) >>> 0) + 40;
    p += 2 + len;
  }
  return null;
}

/** Decodes an IPv6 packet at d[off, end). */
export function decodeIPv6(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end > off && d[off]! >> 4 !== 6) {
    rec.note = Note.BAD_IP_VERSION;
    return;
  }
  if (end - off < 40) {
    rec.note = Note.TRUNCATED_IPV6;
    return;
  }
  const payloadLen = (d[off + 4]! << 8) | d[off + 5]!;
  rec.present |= Has.IP;
  rec.ipVersion = 6;
  // zero: a jumbogram (RFC 2675: the length is in the hop-by-hop Jumbo Payload option) or a packet
  // captured before segmentation offload / BIG TCP filled it in: then, as for IPv4, the frame's length
  rec.ipLen = payloadLen !== 0 ? payloadLen + 40 : jumboLength(d, off, end) ?? rec.dataOff + rec.origLen - off;
  READ_FIELDS.ipv6(rec, d, off);
  readAddresses(rec, d, off, 6);
  rec.l3Off = off;
  // a zero payload length is a jumbogram (or a capture of a segmentation-offload packet): use what was captured
  rec.l3End = payloadLen === 0 ? end : Math.min(end, off + 40 + payloadLen);
  const l3End = rec.l3End;
  let next = d[off + 6]!;
  let p = off + 40;
  let kind = EXTENSION[next]!;
  while (kind !== NOT_EXTENSION) {
    const len = l3End - p < 2 ? 8 : kind === EXT_FRAGMENT ? 8 : kind === EXT_AH ? (d[p + 1]! + 2) * 4 : (d[p + 1]! + 1) * 8;
    if (l3End - p < len) {
      // the header's own next-header byte, when captured, is still the best name for what follows
      rec.proto = l3End > p ? d[p]! : next;
      rec.note = Note.TRUNCATED_IPV6_EXTENSION;
      return;
    }
    if (kind === EXT_FRAGMENT) {
      const fragField = (d[p + 2]! << 8) | d[p + 3]!;
      rec.fragOffset = fragField & 0xfff8;
      rec.moreFragments = (fragField & 1) !== 0;
      if (rec.fragOffset !== 0) {
        // what follows a non-first fragment's header is the middle of the original payload
        rec.proto = d[p]!;
        return;
      }
    }
    next = d[p]!;
    p += len;
    kind = EXTENSION[next]!;
  }
  rec.proto = next;
  decodeTransport(rec, next, d, p, l3End);
}
