// IPv4 text <-> unsigned 32-bit number. Parsing is deliberately strict, the way Rust's
// `Ipv4Addr::from_str` (and so the vendor's Rules engine) is: exactly four dotted decimal octets,
// each 0..255 with no leading zero, and nothing else — no shorthand (`10.1`), no octal or hex, no
// whitespace. The scanner is shared with the IPv6 parser for its embedded IPv4 tail, so both agree.

/** Result of the last successful scanIPv4: the address as an unsigned 32-bit number. */
export let scannedIPv4 = 0;

/**
 * Scans a strict dotted-quad starting at `start`; returns the index just past it (the text may
 * continue) or -1. On success the value is in `scannedIPv4`. Internal to src/net.
 */
export function scanIPv4(text: string, start: number): number {
  let pos = start;
  let value = 0;
  for (let octet = 0; octet < 4; octet++) {
    if (octet > 0) {
      if (text.charCodeAt(pos) !== 0x2e) return -1;
      pos++;
    }
    const first = pos;
    let n = 0;
    while (pos - first < 3) {
      const d = text.charCodeAt(pos) - 0x30;
      if (!(d >= 0 && d <= 9)) break;
      n = n * 10 + d;
      pos++;
    }
    const digits = pos - first;
    if (digits === 0 || n > 255) return -1;
    if (digits > 1 && text.charCodeAt(first) === 0x30) return -1;
    value = value * 256 + n;
  }
  scannedIPv4 = value;
  return pos;
}

/** Parses a strict dotted-quad ("192.0.2.1") to an unsigned 32-bit number; -1 if invalid. */
export function parseIPv4(text: string): number {
  return scanIPv4(text, 0) === text.length ? scannedIPv4 : -1;
}

/** Formats an unsigned (or signed) 32-bit number as a dotted-quad. */
export function formatIPv4(v: number): string {
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}
