// One frame into the reusable PacketRecord: clear what the previous packet set, point the record at
// the frame's bytes (no copy, no slice) and decode from the link layer up.
import type { Frame } from '../frame.js';
import type { PacketRecord } from '../record.js';
import { decodeLink } from './link.js';

/**
 * Decodes the frame data[off, off + capLen) of link type `linkType`, originally origLen bytes long,
 * into rec. Sets linkType, data, dataOff, capLen, origLen and every decoded field; frame and
 * timestamps are left to the caller.
 */
export function decodeFrameAt(rec: PacketRecord, linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number): void {
  rec.reset();
  rec.origLen = origLen;
  const end = Math.max(off, Math.min(off + capLen, data.length));
  rec.linkType = linkType;
  rec.data = data;
  rec.dataOff = off;
  rec.capLen = end - off;
  decodeLink(rec, linkType, data, off, end);
}

/** Decodes `frame` into rec, its number and timestamp included. */
export function decodeInto(rec: PacketRecord, frame: Frame): void {
  decodeFrameAt(rec, frame.linkType, frame.data, frame.off, frame.capLen, frame.origLen);
  rec.frame = frame.number;
  rec.file = frame.file;
  rec.tsSec = frame.tsSec;
  rec.tsNsec = frame.tsNsec;
}
