// Link layers, by pcap LINKTYPE_* number, through a table. Each finds where the network layer
// starts and which protocol it is; only IPv4 and IPv6 go further. Ethernet, Linux cooked capture
// (SLL, SLL2) and VLAN tags name the network protocol with an EtherType; raw-IP link types name
// it with the IP version nibble; BSD null/loopback names it with an address family, written in
// the capturing host's byte order, so both orders are accepted.
//
// A frame that is valid but not IP (ARP, STP, LLDP, an AppleTalk loopback frame, ...) ends here
// without a note. A link type missing from the table gets the note "unsupported link type N".
import { Note, unsupportedLinkType } from '../notes.js';
import type { PacketRecord } from '../record.js';
import { decodeIPv4, decodeIPv6 } from './ip.js';

type LinkDecoder = (rec: PacketRecord, d: Uint8Array, off: number, end: number) => void;

const OTHER = 0;
export const IPV4 = 1;
export const IPV6 = 2;
export const VLAN = 3;

/** EtherType -> what follows (IPV4, IPV6, VLAN, else 0); the fast path's prologue reads it too */
export const ETHERTYPE = new Uint8Array(65536);
ETHERTYPE[0x0800] = IPV4;
ETHERTYPE[0x86dd] = IPV6;
ETHERTYPE[0x8100] = VLAN; // 802.1Q
ETHERTYPE[0x88a8] = VLAN; // 802.1ad service tag (QinQ)
ETHERTYPE[0x9100] = VLAN; // pre-standard QinQ
ETHERTYPE[0x9200] = VLAN;

function network(rec: PacketRecord, kind: number, d: Uint8Array, off: number, end: number): void {
  if (kind === IPV4) decodeIPv4(rec, d, off, end);
  else if (kind === IPV6) decodeIPv6(rec, d, off, end);
}

/** Follows VLAN tags, of any depth, from an EtherType to the network layer. */
function etherPayload(rec: PacketRecord, etherType: number, d: Uint8Array, off: number, end: number): void {
  let kind = ETHERTYPE[etherType]!;
  while (kind === VLAN) {
    if (end - off < 4) {
      rec.note = Note.TRUNCATED_VLAN;
      return;
    }
    kind = ETHERTYPE[(d[off + 2]! << 8) | d[off + 3]!]!;
    off += 4;
  }
  network(rec, kind, d, off, end);
}

function ethernet(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < 14) {
    rec.note = Note.TRUNCATED_LINK;
    return;
  }
  etherPayload(rec, (d[off + 12]! << 8) | d[off + 13]!, d, off + 14, end);
}

/** Linux cooked capture v1: 16-byte header, protocol in the last two bytes */
function linuxSll(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < 16) {
    rec.note = Note.TRUNCATED_LINK;
    return;
  }
  etherPayload(rec, (d[off + 14]! << 8) | d[off + 15]!, d, off + 16, end);
}

/** Linux cooked capture v2: 20-byte header, protocol in the first two bytes */
function linuxSll2(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < 20) {
    rec.note = Note.TRUNCATED_LINK;
    return;
  }
  etherPayload(rec, (d[off]! << 8) | d[off + 1]!, d, off + 20, end);
}

/** IP version nibble -> network layer */
const IP_VERSION = new Uint8Array(16);
IP_VERSION[4] = IPV4;
IP_VERSION[6] = IPV6;

function rawIp(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end <= off) {
    rec.note = Note.TRUNCATED_IP;
    return;
  }
  const kind = IP_VERSION[d[off]! >> 4]!;
  if (kind === OTHER) rec.note = Note.BAD_IP_VERSION;
  else network(rec, kind, d, off, end);
}

/** BSD address families -> network layer (AF_INET6 differs between the BSDs and Darwin) */
const ADDRESS_FAMILY = new Map<number, number>([[2, IPV4], [24, IPV6], [28, IPV6], [30, IPV6]]);

function nullLoopback(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < 4) {
    rec.note = Note.TRUNCATED_LINK;
    return;
  }
  const little = (d[off]! | (d[off + 1]! << 8) | (d[off + 2]! << 16) | (d[off + 3]! << 24)) >>> 0;
  const family = little > 0xffff ? ((d[off]! << 24) | (d[off + 1]! << 16) | (d[off + 2]! << 8) | d[off + 3]!) >>> 0 : little;
  network(rec, ADDRESS_FAMILY.get(family) ?? OTHER, d, off + 4, end);
}

const LINK = new Map<number, LinkDecoder>([
  [0, nullLoopback], // LINKTYPE_NULL
  [1, ethernet], // LINKTYPE_ETHERNET
  [12, rawIp], // DLT_RAW on most BSDs, as some files carry it
  [14, rawIp], // DLT_RAW on OpenBSD
  [101, rawIp], // LINKTYPE_RAW
  [108, nullLoopback], // LINKTYPE_LOOP (OpenBSD)
  [113, linuxSll], // LINKTYPE_LINUX_SLL
  [228, decodeIPv4], // LINKTYPE_IPV4
  [229, decodeIPv6], // LINKTYPE_IPV6
  [276, linuxSll2], // LINKTYPE_LINUX_SLL2
]);

/** Decodes the link layer of type `linkType` at d[off, end) and everything above it. */
export function decodeLink(rec: PacketRecord, linkType: number, d: Uint8Array, off: number, end: number): void {
  const decode = LINK.get(linkType);
  if (decode === undefined) rec.note = unsupportedLinkType(linkType);
  else decode(rec, d, off, end);
}

/** The link types decodeLink understands. */
export const supportedLinkTypes: readonly number[] = [...LINK.keys()];
