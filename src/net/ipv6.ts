// IPv6 text <-> four unsigned 32-bit words (most significant first), the representation
// PacketRecord and the Rules-language binding use.
//
// The parser follows Rust's `Ipv6Addr::from_str` step by step, because configurations written for
// the vendor's engine must be accepted or rejected exactly as the vendor would: groups of 1..4 hex
// digits; at most one `::` standing for one or more zero groups; an optional embedded IPv4 tail
// (strict dotted-quad, counting as two groups) only as the last part; no zone (`%eth0`), no
// brackets, no whitespace. It reads into preallocated group buffers, so with an `out` array it
// allocates nothing.
//
// The formatter writes RFC 5952 canonical text: lowercase, no leading zeros, the longest run of two
// or more zero groups (the first on a tie) as `::`, and IPv4-mapped addresses as `::ffff:a.b.c.d`
// (RFC 5952 §5), the same text Rust's `Display` writes.

import { formatIPv4, scanIPv4, scannedIPv4 } from './ipv4.js';

const head = new Uint16Array(8);
const tail = new Uint16Array(8);
let groupsRead = 0;
let endedWithIPv4 = false;

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

// Rust's read_groups: reads up to `limit` colon-separated groups into `groups`, trying an IPv4
// tail first while at least two slots remain. Sets groupsRead/endedWithIPv4; returns the position.
function readGroups(text: string, start: number, groups: Uint16Array, limit: number): number {
  let pos = start;
  groupsRead = 0;
  endedWithIPv4 = false;
  for (let i = 0; i < limit; i++) {
    let p = pos;
    if (i > 0) {
      if (text.charCodeAt(p) !== 0x3a) return pos;
      p++;
    }
    if (i < limit - 1) {
      const end = scanIPv4(text, p);
      if (end >= 0) {
        groups[i] = scannedIPv4 >>> 16;
        groups[i + 1] = scannedIPv4 & 0xffff;
        groupsRead = i + 2;
        endedWithIPv4 = true;
        return end;
      }
    }
    let value = 0;
    const first = p;
    while (p - first < 4) {
      const d = hexDigit(text.charCodeAt(p));
      if (d < 0) break;
      value = value * 16 + d;
      p++;
    }
    if (p === first) return pos;
    groups[i] = value;
    groupsRead = i + 1;
    pos = p;
  }
  return pos;
}

/**
 * Parses strict IPv6 text ("2001:db8::1", "::ffff:192.0.2.1") into four words, most significant
 * first. Writes into `out` when given (no allocation); returns null if the text is not an address.
 */
export function parseIPv6(text: string, out?: Uint32Array): Uint32Array | null {
  let pos = readGroups(text, 0, head, 8);
  const headSize = groupsRead;
  if (headSize < 8) {
    if (endedWithIPv4) return null;
    if (text.charCodeAt(pos) !== 0x3a || text.charCodeAt(pos + 1) !== 0x3a) return null;
    pos = readGroups(text, pos + 2, tail, 7 - headSize);
    const tailSize = groupsRead;
    for (let i = headSize; i < 8 - tailSize; i++) head[i] = 0;
    for (let i = 0; i < tailSize; i++) head[8 - tailSize + i] = tail[i];
  }
  if (pos !== text.length) return null;
  const w = out ?? new Uint32Array(4);
  for (let i = 0; i < 4; i++) w[i] = ((head[2 * i] << 16) | head[2 * i + 1]) >>> 0;
  return w;
}

/** Formats four words as RFC 5952 canonical text. */
export function formatIPv6(w: Uint32Array): string {
  if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return `::ffff:${formatIPv4(w[3])}`;
  let bestStart = -1;
  let bestLen = 1;
  let runStart = -1;
  for (let i = 0; i <= 8; i++) {
    const zero = i < 8 && group(w, i) === 0;
    if (zero) {
      if (runStart < 0) runStart = i;
    } else if (runStart >= 0) {
      if (i - runStart > bestLen) {
        bestStart = runStart;
        bestLen = i - runStart;
      }
      runStart = -1;
    }
  }
  let text = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      text += '::';
      i += bestLen - 1;
      continue;
    }
    if (text !== '' && !text.endsWith(':')) text += ':';
    text += group(w, i).toString(16);
  }
  return text;
}

function group(w: Uint32Array, i: number): number {
  return (i & 1) === 0 ? w[i >> 1] >>> 16 : w[i >> 1] & 0xffff;
}

/** Orders two addresses numerically: negative, zero or positive. */
export function compareIPv6(a: Uint32Array, b: Uint32Array): number {
  for (let i = 0; i < 4; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}
