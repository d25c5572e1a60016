// Byte-string operations on views (array, start, end), so comparing a packet's bytes with a
// literal allocates nothing: lexicographic order on unsigned bytes, equality, substring search,
// and whole-value wildcard matching (ASCII case folding unless strict).
import type { WildcardPattern } from '../literals/wildcard.js';

/** <0, 0, >0 as the view [start, end) of `a` orders before, equal to, after `b`. */
export function compareView(a: Uint8Array, start: number, end: number, b: Uint8Array): number {
  const len = end - start;
  const n = Math.min(len, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[start + i] - b[i];
    if (d !== 0) return d;
  }
  return len - b.length;
}

export function equalsView(a: Uint8Array, start: number, end: number, b: Uint8Array): boolean {
  if (end - start !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[start + i] !== b[i]) return false;
  return true;
}

export function containsView(a: Uint8Array, start: number, end: number, needle: Uint8Array): boolean {
  const n = needle.length;
  if (n === 0) return true;
  const first = needle[0];
  const last = end - n;
  outer: for (let i = start; i <= last; i++) {
    if (a[i] !== first) continue;
    for (let j = 1; j < n; j++) if (a[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function fold(b: number, caseless: boolean): number {
  return caseless && b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

function segmentAt(a: Uint8Array, at: number, seg: Uint8Array, caseless: boolean): boolean {
  for (let j = 0; j < seg.length; j++) if (fold(a[at + j], caseless) !== fold(seg[j], caseless)) return false;
  return true;
}

/**
 * Whether the whole view matches. Segments are the literal runs between stars: the first must be
 * a prefix, the last a suffix, the middle ones found left to right (leftmost is always safe).
 */
export function wildcardMatchView(a: Uint8Array, start: number, end: number, w: WildcardPattern, caseless: boolean): boolean {
  const segs = w.segments;
  const first = segs[0];
  if (segs.length === 1) return end - start === first.length && segmentAt(a, start, first, caseless);
  const lastSeg = segs[segs.length - 1];
  if (end - start < first.length + lastSeg.length) return false;
  if (!segmentAt(a, start, first, caseless) || !segmentAt(a, end - lastSeg.length, lastSeg, caseless)) return false;
  let pos = start + first.length;
  const limit = end - lastSeg.length;
  for (let k = 1; k < segs.length - 1; k++) {
    const seg = segs[k];
    let found = -1;
    for (let i = pos; i + seg.length <= limit; i++) {
      if (segmentAt(a, i, seg, caseless)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    pos = found + seg.length;
  }
  return true;
}
