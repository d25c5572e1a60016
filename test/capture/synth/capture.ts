// Reads a capture with the project's reader into plain objects the synth tests can compare.
import { readCapture } from '../../../src/capture/reader.js';
import { Has } from '../../../src/capture/record.js';
import type { PacketRecord } from '../../../src/capture/record.js';

export interface Decoded {
  frame: number;
  tsSec: number;
  tsNsec: number;
  bytes: Uint8Array;
  origLen: number;
  v: number;
  src: string;
  dst: string;
  proto: number;
  sport: number;
  dport: number;
  flags: number;
  seq: number;
  ack: number;
  payload: number;
  icmpType: number;
  tcp: boolean;
  note: string;
}

function addr(rec: PacketRecord, src: boolean): string {
  if (rec.ipVersion === 4) {
    const a = src ? rec.src4 : rec.dst4;
    return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`;
  }
  return Array.from(src ? rec.src6 : rec.dst6, (w) => w.toString(16).padStart(8, '0')).join('');
}

export async function decodeAll(path: string): Promise<Decoded[]> {
  const out: Decoded[] = [];
  await readCapture(path, (rec) => {
    out.push({
      frame: rec.frame,
      tsSec: rec.tsSec,
      tsNsec: rec.tsNsec,
      bytes: rec.data.slice(rec.dataOff, rec.dataOff + rec.capLen),
      origLen: rec.origLen,
      v: rec.ipVersion,
      src: addr(rec, true),
      dst: addr(rec, false),
      proto: rec.proto,
      sport: rec.srcPort,
      dport: rec.dstPort,
      flags: rec.tcpFlags,
      seq: rec.tcpSeq,
      ack: rec.tcpAck,
      payload: rec.payloadLen,
      icmpType: rec.icmpType,
      tcp: (rec.present & Has.TCP) !== 0,
      note: rec.note,
    });
  });
  return out;
}
