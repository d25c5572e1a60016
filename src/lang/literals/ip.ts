// IP literals (reference/wirefilter.md §1.4). The lexer takes the run of [0-9a-fA-F:./] (the
// "chunk") and then parses it:
// - after `==` and the ordering operators: a single address, parsed strictly (Rust's std: four
//   decimal octets with no leading zeros, or RFC 4291 IPv6), so `1.2.3.0/24` is an error there;
// - as a set item: `a..b` (both strict, same family, a <= b) or a CIDR as the `cidr` 0.2.3 crate
//   reads it: the last `/` splits off a u8 length, and the address falls back to the lenient
//   "short IPv4" form (1..4 octets, leading zeros allowed, missing octets 0), so `{10}` is
//   10.0.0.0/32 and `{1.1.1.01}` is 1.1.1.1 (kept quirks). Error spans follow the engine: the
//   chunk before the first `/` for address and host-bit errors, the text after the first `/` for
//   a bad length, the whole chunk for a length that is too long.
import { parseIPv4 } from '../../net/ipv4.js';
import { parseIPv6 } from '../../net/ipv6.js';
import { E } from '../errors.js';
import type { Source } from '../source.js';
import { parseRadix, U8 } from './parse-int.js';

export type IpValue = { readonly family: 4; readonly v4: number } | { readonly family: 6; readonly v6: Uint32Array };

/** A set item: a CIDR (a host address is /32 or /128) or an explicit inclusive range. */
export type IpItem =
  | { readonly kind: 'cidr'; readonly ip: IpValue; readonly len: number }
  | { readonly kind: 'range'; readonly lo: IpValue; readonly hi: IpValue };

const BAD_ADDRESS = "couldn't parse address in network: invalid IP address syntax";

function isChunkChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46) || c === 0x3a || c === 0x2e || c === 0x2f;
}

function chunkEnd(s: Source, pos: number): number {
  let p = pos;
  while (isChunkChar(s.at(p))) p++;
  if (p === pos) throw E.expected('IP address character', pos, s.end);
  return p;
}

/** Strict address text (Rust's IpAddr::from_str); null if invalid. */
export function parseStrictIp(text: string): IpValue | null {
  const v4 = parseIPv4(text);
  if (v4 >= 0) return { family: 4, v4 };
  const v6 = parseIPv6(text);
  return v6 ? { family: 6, v6 } : null;
}

function parseShortIPv4(text: string): IpValue | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  let v = 0;
  for (let i = 0; i < 4; i++) {
    let octet = 0n;
    if (i < parts.length) {
      if (!/^[0-9]+$/.test(parts[i])) return null;
      const n = parseRadix(parts[i], 10, U8);
      if (typeof n === 'string') return null;
      octet = n;
    }
    v = v * 256 + Number(octet);
  }
  return { family: 4, v4: v };
}

/** Lexes an address after `==` etc.; returns [address, position after the chunk]. */
export function lexIpAddr(s: Source, pos: number): [IpValue, number] {
  const end = chunkEnd(s, pos);
  const ip = parseStrictIp(s.slice(pos, end));
  if (!ip) throw E.network(BAD_ADDRESS, pos, end);
  return [ip, end];
}

export function compareIp(a: IpValue, b: IpValue): number {
  if (a.family === 4 && b.family === 4) return a.v4 - b.v4;
  if (a.family === 6 && b.family === 6) {
    for (let i = 0; i < 4; i++) if (a.v6[i] !== b.v6[i]) return a.v6[i] - b.v6[i];
    return 0;
  }
  return NaN;
}

/** Whether any bit below the first `len` bits is set. */
function hostBitsSet(ip: IpValue, len: number): boolean {
  if (ip.family === 4) return len < 32 && (ip.v4 & (0xffffffff >>> len)) !== 0;
  for (let w = 0; w < 4; w++) {
    const keep = Math.max(0, Math.min(32, len - 32 * w));
    const hostMask = keep === 32 ? 0 : 0xffffffff >>> keep;
    if ((ip.v6[w] & hostMask) !== 0) return true;
  }
  return false;
}

/** Lexes a set item; returns [item, position after the chunk]. */
export function lexIpItem(s: Source, pos: number): [IpItem, number] {
  const end = chunkEnd(s, pos);
  const chunk = s.slice(pos, end);
  const dots = chunk.indexOf('..');
  if (dots >= 0) {
    const lo = parseStrictIp(chunk.slice(0, dots));
    if (!lo) throw E.network(BAD_ADDRESS, pos, pos + dots);
    const hi = parseStrictIp(chunk.slice(dots + 2));
    if (!hi) throw E.network(BAD_ADDRESS, pos + dots + 2, end);
    if (!(compareIp(lo, hi) <= 0)) throw E.rangeBounds(pos, end);
    return [{ kind: 'range', lo, hi }, end];
  }
  const firstSlash = chunk.indexOf('/');
  const lastSlash = chunk.lastIndexOf('/');
  const beforeFirst = firstSlash < 0 ? end : pos + firstSlash;
  const addrText = lastSlash < 0 ? chunk : chunk.slice(0, lastSlash);
  const ip = parseStrictIp(addrText) ?? parseShortIPv4(addrText);
  if (!ip) throw E.network(BAD_ADDRESS, pos, beforeFirst);
  const max = ip.family === 4 ? 32 : 128;
  let len = max;
  if (lastSlash >= 0) {
    const parsed = parseRadix(chunk.slice(lastSlash + 1), 10, U8);
    if (typeof parsed === 'string') throw E.network(`couldn't parse length in network: ${parsed}`, beforeFirst + 1, end);
    len = Number(parsed);
    if (len > max) {
      throw E.network(`invalid length for network: Network length ${len} is too long for Ipv${ip.family} (maximum: ${max})`, pos, end);
    }
  }
  if (hostBitsSet(ip, len)) throw E.network('host part of address was not zero', pos, beforeFirst);
  return [{ kind: 'cidr', ip, len }, end];
}
