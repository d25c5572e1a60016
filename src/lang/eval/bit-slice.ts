// Reads bits [from, to) (to - from <= 32) of a byte view, big-endian, as an unsigned integer; -1
// when the bits run past the captured bytes. At most five bytes are combined, within a double's
// exact range, so nothing is allocated.
export function readBits(bytes: Uint8Array, start: number, end: number, from: number, to: number): number {
  const lastByte = (to - 1) >> 3;
  if (start + lastByte >= end) return -1;
  let acc = 0;
  for (let i = from >> 3; i <= lastByte; i++) acc = acc * 256 + bytes[start + i];
  const drop = (8 - (to & 7)) & 7;
  return Math.floor(acc / 2 ** drop) % 2 ** (to - from);
}
