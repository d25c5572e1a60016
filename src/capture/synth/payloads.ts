// Application payloads that tshark decodes as what they claim to be, so a synthetic capture reads
// like a real one in Wireshark and no dissector calls a packet malformed: HTTP/1.1 requests and
// responses on port 80, TLS application-data records on 443, SSH banners on 22, DNS queries and
// answers, QUIC short-header datagrams, ping payloads. Opaque bytes (TLS, QUIC) come from a pool of
// seeded random bytes, so nothing is drawn byte by byte. The writers put bytes straight into the
// frame buffer and return where the payload ends.
import { putU16, putU32 } from './frame-builder.js';
import type { Rng } from './rng.js';

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

const HTTP_PATHS = ['/', '/index.html', '/api/v1/items?page=2', '/static/app.js', '/images/logo.png', '/login', '/search?q=edge', '/health'];
const HTTP_REQUESTS = HTTP_PATHS.map((p) =>
  ascii(`GET ${p} HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n`),
);
const HTTP_BODY_SIZES = [0, 64, 180, 420, 700, 960, 1200];
const HTTP_RESPONSES = HTTP_BODY_SIZES.map((n) => {
  const head = n === 0 ? 'HTTP/1.1 204 No Content\r\nServer: edgesim\r\n\r\n' : `HTTP/1.1 200 OK\r\nServer: edgesim\r\nContent-Type: text/html\r\nContent-Length: ${n}\r\n\r\n`;
  const body = n === 0 ? '' : `<html>${'x'.repeat(Math.max(0, n - 13))}</html>`.slice(0, n);
  return ascii(head + body);
});
const SSH_CLIENT_BANNERS = ['SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n', 'SSH-2.0-OpenSSH_8.9p1\r\n', 'SSH-2.0-PuTTY_Release_0.80\r\n'].map(ascii);
const SSH_SERVER_BANNER = ascii('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n');
const TEXT = ascii('edgesim synthetic payload: nothing to see here, just bytes on the wire.\n');
const DNS_NAMES = ['example.com', 'www.example.com', 'api.example.net', 'cdn.example.org', 'mail.example.com', 'static.example.net', 'login.example.org', 'edgesim.example'].map(
  (name) => {
    const out: number[] = [];
    for (const label of name.split('.')) out.push(label.length, ...ascii(label));
    out.push(0);
    return Uint8Array.from(out);
  },
);

/** What a TCP session carries, by server port. */
export const App = { Text: 0, Http: 1, Tls: 2, Ssh: 3 } as const;
export type App = (typeof App)[keyof typeof App];

const APP_BY_PORT = new Map<number, App>([
  [80, App.Http],
  [8080, App.Http],
  [443, App.Tls],
  [8443, App.Tls],
  [22, App.Ssh],
]);

export function appForPort(port: number): App {
  return APP_BY_PORT.get(port) ?? App.Text;
}

const POOL = 1 << 16;

/** The payload writers of one generated capture (its random pool comes from the capture's seed). */
export class Payloads {
  private readonly pool = new Uint8Array(POOL);

  constructor(rng: Rng) {
    rng.fill(this.pool);
  }

  /** Random bytes from the pool. */
  opaque(b: Uint8Array, off: number, len: number, rng: Rng): number {
    const from = rng.below(POOL - len);
    b.set(this.pool.subarray(from, from + len), off);
    return off + len;
  }

  /** The client's `i`-th message of a TCP session. */
  request(app: App, i: number, b: Uint8Array, off: number, rng: Rng): number {
    if (app === App.Http) return copy(b, off, HTTP_REQUESTS[rng.below(HTTP_REQUESTS.length)]!);
    if (app === App.Tls) return this.tls(b, off, rng.int(60, 700), rng);
    if (app === App.Ssh) return i === 0 ? copy(b, off, SSH_CLIENT_BANNERS[rng.below(SSH_CLIENT_BANNERS.length)]!) : this.sshPacket(b, off, rng.int(1, 6), rng);
    return text(b, off, rng.int(20, 300));
  }

  /** The server's answer to the `i`-th message; at most `max` bytes. */
  response(app: App, i: number, b: Uint8Array, off: number, max: number, rng: Rng): number {
    if (app === App.Http) return copy(b, off, HTTP_RESPONSES[rng.below(HTTP_RESPONSES.length)]!);
    if (app === App.Tls) return this.tls(b, off, rng.int(100, max), rng);
    if (app === App.Ssh) return i === 0 ? copy(b, off, SSH_SERVER_BANNER) : this.sshPacket(b, off, rng.int(2, 40), rng);
    return text(b, off, rng.int(20, max));
  }

  /** A TLS 1.2/1.3 application-data record of `len` bytes in all. */
  private tls(b: Uint8Array, off: number, len: number, rng: Rng): number {
    b[off] = 0x17;
    b[off + 1] = 0x03;
    b[off + 2] = 0x03;
    putU16(b, off + 3, len - 5);
    return this.opaque(b, off + 5, len - 5, rng);
  }

  /** An encrypted SSH binary packet of `blocks` 16-byte blocks plus a 32-byte MAC (opaque bytes). */
  private sshPacket(b: Uint8Array, off: number, blocks: number, rng: Rng): number {
    return this.opaque(b, off, blocks * 16 + 32, rng);
  }

  /** A DNS query (A or AAAA) for one of a few names; returns the end. */
  dnsQuery(b: Uint8Array, off: number, id: number, nameIndex: number, aaaa: boolean): number {
    putU16(b, off, id);
    putU16(b, off + 2, 0x0100);
    putU16(b, off + 4, 1);
    putU32(b, off + 6, 0);
    putU16(b, off + 10, 0);
    let o = copy(b, off + 12, DNS_NAMES[nameIndex % DNS_NAMES.length]!);
    putU16(b, o, aaaa ? 28 : 1);
    putU16(b, o + 2, 1);
    return o + 4;
  }

  /** The answer to dnsQuery(id, nameIndex, aaaa): one record in a documentation range. */
  dnsAnswer(b: Uint8Array, off: number, id: number, nameIndex: number, aaaa: boolean, rng: Rng): number {
    let o = this.dnsQuery(b, off, id, nameIndex, aaaa);
    putU16(b, off + 2, 0x8180);
    putU16(b, off + 6, 1);
    putU16(b, o, 0xc00c);
    putU16(b, o + 2, aaaa ? 28 : 1);
    putU16(b, o + 4, 1);
    putU32(b, o + 6, 300);
    putU16(b, o + 10, aaaa ? 16 : 4);
    o += 12;
    if (aaaa) {
      putU32(b, o, 0x20010db8);
      putU32(b, o + 4, 0);
      putU32(b, o + 8, 0);
      putU32(b, o + 12, rng.int(1, 0xffff));
      return o + 16;
    }
    putU32(b, o, (0xc0000200 | rng.int(1, 254)) >>> 0);
    return o + 4;
  }

  /** A QUIC 1-RTT (short header) datagram of `len` bytes to connection `dcid` (8 bytes). */
  quic(b: Uint8Array, off: number, dcidHi: number, dcidLo: number, len: number, rng: Rng): number {
    b[off] = 0x40 | (rng.u32() & 0x3f);
    putU32(b, off + 1, dcidHi);
    putU32(b, off + 5, dcidLo);
    return this.opaque(b, off + 9, len - 9, rng);
  }

  /** The 56-byte payload of a Linux ping: a timeval (as the sender wrote it) and the 0x10.. pattern. */
  ping(b: Uint8Array, off: number, sec: number, usec: number): number {
    for (let i = 0; i < 4; i++) {
      b[off + i] = (sec >>> (8 * i)) & 0xff;
      b[off + 8 + i] = (usec >>> (8 * i)) & 0xff;
      b[off + 4 + i] = 0;
      b[off + 12 + i] = 0;
    }
    for (let i = 16; i < 56; i++) b[off + i] = i;
    return off + 56;
  }
}

function copy(b: Uint8Array, off: number, src: Uint8Array): number {
  b.set(src, off);
  return off + src.length;
}

function text(b: Uint8Array, off: number, len: number): number {
  for (let i = 0; i < len; i += TEXT.length) b.set(i + TEXT.length <= len ? TEXT : TEXT.subarray(0, len - i), off + i);
  return off + len;
}
