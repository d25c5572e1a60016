// Transport headers: TCP, UDP, ICMP and ICMPv6, chosen by the final protocol number through a
// table. Each decoder gets the transport's start and the end of the IP packet as captured, sets
// its group of fields only when the fixed header is there, and leaves a note when it is not.
import { Note } from '../notes.js';
import { Has, type PacketRecord } from '../record.js';
import { READ_FIELDS } from './layer-readers.js';
import { looksLikeSip } from './sip.js';

type TransportDecoder = (rec: PacketRecord, d: Uint8Array, off: number, end: number) => void;

/** The bytes of each transport's header the decoder needs before it sets the transport's fields (a packet with fewer gets a note). */
export const TRANSPORT_MIN = { tcp: 20, udp: 8, icmp: 4 } as const;

/** payload bytes the headers announce: the IP packet's nominal end minus the transport header's end */
function announcedPayload(rec: PacketRecord, payloadOff: number): number {
  const n = rec.l3Off + rec.ipLen - payloadOff;
  return n > 0 ? n : 0;
}

function checkSip(rec: PacketRecord, d: Uint8Array, payloadOff: number, end: number): void {
  if (payloadOff < end && looksLikeSip(d, payloadOff, end)) {
    rec.sip = true;
    rec.present |= Has.SIP;
  }
}

function decodeTCP(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < TRANSPORT_MIN.tcp) {
    rec.note = Note.TRUNCATED_TCP;
    return;
  }
  // the ports, tcp.flags, …: where the TCP layer places them (src/layers/tcp.ts)
  READ_FIELDS.tcp(rec, d, off);
  rec.tcpSeq = ((d[off + 4]! << 24) | (d[off + 5]! << 16) | (d[off + 6]! << 8) | d[off + 7]!) >>> 0;
  rec.tcpAck = ((d[off + 8]! << 24) | (d[off + 9]! << 16) | (d[off + 10]! << 8) | d[off + 11]!) >>> 0;
  rec.tcpWindow = (d[off + 14]! << 8) | d[off + 15]!;
  rec.l4Off = off;
  rec.l4End = end;
  rec.present |= Has.TCP;
  const hdr = (d[off + 12]! >> 4) * 4;
  if (hdr < 20) {
    rec.note = Note.BAD_TCP_HEADER_LENGTH;
    return;
  }
  rec.payloadLen = announcedPayload(rec, off + hdr);
  checkSip(rec, d, off + hdr, end);
}

function decodeUDP(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < TRANSPORT_MIN.udp) {
    rec.note = Note.TRUNCATED_UDP;
    return;
  }
  READ_FIELDS.udp(rec, d, off);
  rec.l4Off = off;
  rec.l4End = end;
  rec.present |= Has.UDP;
  rec.payloadLen = announcedPayload(rec, off + 8);
  checkSip(rec, d, off + 8, end);
}

/** ICMP and ICMPv6 share the layout of type, code and checksum. */
function decodeICMP(rec: PacketRecord, d: Uint8Array, off: number, end: number): void {
  if (end - off < TRANSPORT_MIN.icmp) {
    rec.note = Note.TRUNCATED_ICMP;
    return;
  }
  READ_FIELDS.icmp(rec, d, off);
  rec.l4Off = off;
  rec.l4End = end;
  rec.present |= Has.ICMP;
  rec.payloadLen = announcedPayload(rec, off + 4);
}

const TRANSPORT: Array<TransportDecoder | undefined> = new Array<TransportDecoder | undefined>(256).fill(undefined);
TRANSPORT[6] = decodeTCP;
TRANSPORT[17] = decodeUDP;
TRANSPORT[1] = decodeICMP;
TRANSPORT[58] = decodeICMP;

/** Decodes the transport header of protocol `proto` at d[off, end), if it is one edgesim reads. */
export function decodeTransport(rec: PacketRecord, proto: number, d: Uint8Array, off: number, end: number): void {
  const decode = TRANSPORT[proto];
  if (decode !== undefined) decode(rec, d, off, end);
}
