// Finding where a record starts in the middle of a classic pcap file. The format has no sync marker:
// a record header is four numbers (seconds, fraction, captured and original length) and the next
// record starts right after the bytes it announces. So a start is guessed as the first offset from
// which a chain of headers reads as plausible: seconds within a year of the capture's first packet,
// a fraction below one second, a captured length from 1 byte to what the snap length allows and no
// longer than the original length, each header leading to the next, several in a row or up to the
// end of the file.
//
// A guess is only a guess (packet bytes can look like a chain of headers): the parallel replay
// (sim/jobs/) checks it against where the range before it really ended and reads the file in one
// piece when they differ, so a wrong guess costs time, never a different result.
import { open } from 'node:fs/promises';
import { MAX_RECORD } from './frame-delivery.js';
import { isPcapMagic, PCAP_FILE_HEADER, pcapHeader, type PcapHeader } from './pcap.js';

const RECORD_HEADER = 16;
/** headers in a row that make a guess (fewer where the file ends first) */
const CHAIN = 8;
/** bytes looked at from the offset the search starts at */
export const PROBE_BYTES = 1 << 20;
/** how far from the first packet's time a record's seconds may lie */
const NEAR_SECONDS = 366 * 86_400;

/** The file's pcap header, or null when it is not a classic pcap file (pcapng, gzip, too short). */
export async function readPcapHeader(path: string): Promise<PcapHeader | null> {
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(PCAP_FILE_HEADER);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const view = new DataView(head.buffer);
    if (bytesRead < PCAP_FILE_HEADER || !isPcapMagic(view)) return null;
    return pcapHeader(path, view);
  } finally {
    await fh.close();
  }
}

/**
 * The offset of the first record that seems to start at or after `from` in the file (whose first
 * packet is stamped `firstSec`), or null when none does within PROBE_BYTES (or before the end of the file).
 */
export async function guessRecordStart(path: string, from: number, header: PcapHeader, firstSec: number): Promise<number | null> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    if (from >= size) return size;
    const bytes = new Uint8Array(Math.min(PROBE_BYTES, size - from));
    const { bytesRead } = await fh.read(bytes, 0, bytes.length, from);
    const at = recordStartIn(bytes.subarray(0, bytesRead), header, firstSec, from + bytesRead === size);
    return at < 0 ? null : from + at;
  } finally {
    await fh.close();
  }
}

/**
 * The first offset in `bytes` from which CHAIN record headers follow one another plausibly, seconds
 * near `firstSec` (or fewer,
 * ending exactly at the end of the bytes when `atEnd`: the end of the file); `bytes.length` when
 * `atEnd` and no record starts in them; -1 when none is found.
 */
export function recordStartIn(bytes: Uint8Array, header: PcapHeader, firstSec: number, atEnd: boolean): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const maxCap = Math.min(MAX_RECORD, Math.max(header.snapLen, 262_144));
  const maxFraction = header.nanoFactor === 1 ? 1e9 : 1e6;
  const n = bytes.length;
  const plausible = (q: number): boolean => {
    const capLen = view.getUint32(q + 8, header.little);
    return (
      Math.abs(view.getUint32(q, header.little) - firstSec) <= NEAR_SECONDS &&
      view.getUint32(q + 4, header.little) < maxFraction &&
      capLen > 0 &&
      capLen <= maxCap &&
      capLen <= view.getUint32(q + 12, header.little)
    );
  };
  for (let p = 0; p + RECORD_HEADER <= n; p++) {
    let q = p;
    let links = 0;
    while (links < CHAIN && q + RECORD_HEADER <= n && plausible(q)) {
      q += RECORD_HEADER + view.getUint32(q + 8, header.little);
      links++;
    }
    // a full chain; or a chain that ends exactly where the file does; or one that runs past the
    // bytes looked at (records too big for CHAIN of them to fit)
    if (links === CHAIN || (atEnd && q === n && links > 0) || (!atEnd && q + RECORD_HEADER > n && links >= 2)) return p;
  }
  return atEnd ? n : -1;
}
