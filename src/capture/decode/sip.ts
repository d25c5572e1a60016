// The `sip` field: does a TCP or UDP payload start like a SIP message? A SIP message starts with a
// status line ("SIP/2.0 200 OK") or a request line ("INVITE sip:bob@example.com SIP/2.0"). The test
// is meant to be cheap on the hot path: most payloads fail on their first byte (a request must start
// with the first letter of a method, a status line with 'S'), and only a payload that starts with a
// method name and a space is scanned, at most LINE_LIMIT bytes, for the end of its first line.

const encode = (s: string): Uint8Array => new TextEncoder().encode(s);

const STATUS_PREFIX = encode('SIP/2.0 ');
const REQUEST_SUFFIX = encode(' SIP/2.0');
const METHODS = ['INVITE', 'ACK', 'BYE', 'CANCEL', 'OPTIONS', 'REGISTER', 'PRACK', 'SUBSCRIBE', 'NOTIFY',
  'PUBLISH', 'INFO', 'REFER', 'MESSAGE', 'UPDATE'].map(encode);
const LINE_LIMIT = 1024;

/** The fewest bytes of a payload taken for SIP: a status line's "SIP/2.0 " and the first digit of its code. */
export const SIP_LEAST = STATUS_PREFIX.length + 1;

/** methods by their first byte, so a payload is compared only with the methods it could be */
const byFirstByte: Uint8Array[][] = Array.from({ length: 256 }, () => []);
for (const m of METHODS) byFirstByte[m[0]!]!.push(m);

function startsWith(d: Uint8Array, off: number, end: number, prefix: Uint8Array): boolean {
  if (end - off < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (d[off + i] !== prefix[i]) return false;
  return true;
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

function requestLineEndsWithVersion(d: Uint8Array, from: number, end: number): boolean {
  const stop = Math.min(end, from + LINE_LIMIT);
  for (let i = from; i < stop; i++) {
    const b = d[i];
    if (b === 0x0d || b === 0x0a) return i - REQUEST_SUFFIX.length >= from && startsWith(d, i - REQUEST_SUFFIX.length, i, REQUEST_SUFFIX);
  }
  return false;
}

/** True when d[off, end) starts with a SIP status line or request line. */
export function looksLikeSip(d: Uint8Array, off: number, end: number): boolean {
  if (end - off < STATUS_PREFIX.length) return false;
  const first = d[off]!;
  if (first === 0x53 && startsWith(d, off, end, STATUS_PREFIX)) return isDigit(d[off + STATUS_PREFIX.length]);
  for (const method of byFirstByte[first]!) {
    if (startsWith(d, off, end, method) && d[off + method.length] === 0x20) {
      return requestLineEndsWithVersion(d, off + method.length + 1, end);
    }
  }
  return false;
}
