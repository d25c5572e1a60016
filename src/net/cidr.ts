// CIDR text from configuration (API bodies, snapshot files, list files): "192.0.2.0/24",
// "2001:db8::/32", or a bare address meaning a single host (/32 or /128). Addresses are parsed as
// strictly as everywhere else in src/net, the prefix length is plain decimal without a leading zero,
// and host bits must be zero: "10.0.0.1/24" is almost always a typo, so it is refused with the
// network the user probably meant rather than silently masked.
//
// Configuration parsing is not a hot path, so errors are thrown (NetParseError), each naming the
// text and what is wrong with it.

import { formatIPv4, parseIPv4 } from './ipv4.js';
import { formatIPv6, parseIPv6 } from './ipv6.js';

/**
 * A network prefix. For family 4 `v4` holds the address (unsigned) and `v6` is all zeros; for
 * family 6 `v6` holds the four words and `v4` is 0. Host bits are always zero.
 */
export interface Cidr {
  family: 4 | 6;
  v4: number;
  v6: Uint32Array;
  len: number;
}

/** Configuration text that is not a valid address or prefix; the message names the text. */
export class NetParseError extends Error {
  override name = 'NetParseError';
}

function fail(text: string, what: string): never {
  throw new NetParseError(`${JSON.stringify(text)}: ${what}`);
}

function parseLength(text: string, lenText: string, max: number): number {
  if (!/^(0|[1-9][0-9]{0,2})$/.test(lenText)) fail(text, `prefix length "${lenText}" is not a number 0..${max}`);
  const len = Number(lenText);
  if (len > max) fail(text, `prefix length ${len} is larger than ${max}`);
  return len;
}

/** The IPv4 netmask for a prefix length, unsigned. */
export function mask4(len: number): number {
  return len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
}

/** The mask word `i` (0..3) of an IPv6 prefix length, unsigned. */
export function mask6Word(len: number, i: number): number {
  return mask4(Math.max(0, Math.min(32, len - 32 * i)));
}

/** Parses "addr" or "addr/len" (IPv4 or IPv6); throws NetParseError naming the text. */
export function parseCidr(text: string): Cidr {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const v4 = parseIPv4(addrText);
  if (v4 >= 0) {
    const len = slash < 0 ? 32 : parseLength(text, text.slice(slash + 1), 32);
    const net = (v4 & mask4(len)) >>> 0;
    if (net !== v4) fail(text, `host bits are set (did you mean ${formatIPv4(net)}/${len}?)`);
    return { family: 4, v4, v6: new Uint32Array(4), len };
  }
  const v6 = parseIPv6(addrText);
  if (v6 === null) {
    if (addrText === '') fail(text, 'missing address');
    fail(text, 'not an IPv4 or IPv6 address');
  }
  const len = slash < 0 ? 128 : parseLength(text, text.slice(slash + 1), 128);
  const net = new Uint32Array(4);
  for (let i = 0; i < 4; i++) net[i] = (v6[i] & mask6Word(len, i)) >>> 0;
  if (net.some((word, i) => word !== v6[i])) fail(text, `host bits are set (did you mean ${formatIPv6(net)}/${len}?)`);
  return { family: 6, v4: 0, v6, len };
}

/** Canonical text: "192.0.2.0/24", "2001:db8::/32"; a single host without its length. */
export function formatCidr(c: Cidr): string {
  if (c.family === 4) return c.len === 32 ? formatIPv4(c.v4) : `${formatIPv4(c.v4)}/${c.len}`;
  return c.len === 128 ? formatIPv6(c.v6) : `${formatIPv6(c.v6)}/${c.len}`;
}
