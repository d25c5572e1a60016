// Tiny builders for test packets and capture files: enough of Ethernet/IP/TCP/UDP/ICMP to lay out
// headers byte by byte, classic pcap in either byte order and resolution, and pcapng blocks (SHB,
// IDB with if_tsresol/if_tsoffset, EPB, SPB, obsolete PB, any other block) in either byte order.

export function bytes(...parts: Array<Uint8Array | number[]>): Uint8Array {
  return Buffer.concat(parts.map((p) => Uint8Array.from(p)));
}

const u16 = (v: number): number[] => [(v >> 8) & 0xff, v & 0xff];
const u32 = (v: number): number[] => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];

function v4(text: string): number[] {
  return text.split('.').map(Number);
}

function v6(text: string): number[] {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => u16(parseInt(g, 16)));
}

/** an Ethernet frame; each VLAN tag is [TPID, TCI], outermost first */
export function ethernet(etherType: number, payload: Uint8Array, vlanTags: Array<[tpid: number, tci: number]> = []): Uint8Array {
  const macs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const tags = vlanTags.flatMap(([tpid, tci]) => [...u16(tpid), ...u16(tci)]);
  return bytes(macs, tags, u16(etherType), payload);
}

/** Linux cooked capture v1: the protocol is the last two of 16 header bytes */
export function sllFrame(protocol: number, payload: Uint8Array): Uint8Array {
  return bytes([0, 0, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0], u16(protocol), payload);
}

/** Linux cooked capture v2: the protocol is the first two of 20 header bytes */
export function sll2Frame(protocol: number, payload: Uint8Array): Uint8Array {
  return bytes(u16(protocol), [0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0], payload);
}

/** BSD null/loopback: a 4-byte address family in the capturing host's byte order */
export function nullFrame(family: number, little: boolean, payload: Uint8Array): Uint8Array {
  const b = u32(family);
  return bytes(little ? b.reverse() : b, payload);
}

export interface IPv4Spec {
  src?: string; dst?: string; proto: number; ttl?: number; options?: number[];
  fragOffset?: number; moreFragments?: boolean; totalLength?: number; ihl?: number;
}

export function ipv4(spec: IPv4Spec, payload: Uint8Array): Uint8Array {
  const options = spec.options ?? [];
  const ihl = spec.ihl ?? 5 + Math.ceil(options.length / 4);
  const padded = [...options, ...Array<number>((4 - (options.length % 4)) % 4).fill(0)];
  const total = spec.totalLength ?? 20 + padded.length + payload.length;
  const frag = ((spec.fragOffset ?? 0) / 8) | (spec.moreFragments ? 0x2000 : 0);
  return bytes([0x40 | (ihl & 0x0f), 0], u16(total), [0, 1], u16(frag), [spec.ttl ?? 64, spec.proto, 0, 0],
    v4(spec.src ?? '192.0.2.1'), v4(spec.dst ?? '198.51.100.2'), padded, payload);
}

export interface IPv6Spec { src?: string; dst?: string; next: number; hopLimit?: number; payloadLength?: number }

export function ipv6(spec: IPv6Spec, payload: Uint8Array): Uint8Array {
  return bytes([0x60, 0, 0, 0], u16(spec.payloadLength ?? payload.length), [spec.next, spec.hopLimit ?? 64],
    v6(spec.src ?? '2001:db8::1'), v6(spec.dst ?? '2001:db8::2'), payload);
}

/** an IPv6 extension header in 8-octet units (hop-by-hop, routing, destination options) of `units` * 8 bytes */
export function extension(next: number, units = 1): Uint8Array {
  return bytes([next, units - 1], Array<number>(units * 8 - 2).fill(0));
}

export function fragmentHeader(next: number, offset: number, more: boolean): Uint8Array {
  return bytes([next, 0], u16(offset | (more ? 1 : 0)), [0, 0, 0, 7]);
}

/** AH: length field counts 4-octet units minus 2 */
export function authHeader(next: number, words = 6): Uint8Array {
  return bytes([next, words - 2, 0, 0], Array<number>(words * 4 - 4).fill(0));
}

export function tcp(sport: number, dport: number, flags: number, payload: Uint8Array = new Uint8Array(0), dataOffset = 5): Uint8Array {
  return bytes(u16(sport), u16(dport), u32(1000), u32(2000), [dataOffset << 4, flags], u16(65535), [0, 0, 0, 0],
    Array<number>(Math.max(0, dataOffset - 5) * 4).fill(1), payload);
}

export function udp(sport: number, dport: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  return bytes(u16(sport), u16(dport), u16(8 + payload.length), [0, 0], payload);
}

export function icmp(type: number, code: number): Uint8Array {
  return bytes([type, code, 0, 0, 0, 0, 0, 0]);
}

export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

// ---- capture files ----

function put32(out: number[], v: number, little: boolean): void {
  const b = u32(v);
  out.push(...(little ? b.reverse() : b));
}

function put16(out: number[], v: number, little: boolean): void {
  const b = u16(v);
  out.push(...(little ? b.reverse() : b));
}

export interface PcapRecord { sec: number; frac: number; data: Uint8Array; origLen?: number }

export function pcapFile(opts: { little?: boolean; nano?: boolean; linkType?: number; snaplen?: number }, records: PcapRecord[]): Uint8Array {
  const little = opts.little ?? true;
  const header: number[] = [];
  put32(header, opts.nano ? 0xa1b23c4d : 0xa1b2c3d4, little);
  put16(header, 2, little);
  put16(header, 4, little);
  put32(header, 0, little);
  put32(header, 0, little);
  put32(header, opts.snaplen ?? 65535, little);
  put32(header, opts.linkType ?? 1, little);
  const parts: Uint8Array[] = [Uint8Array.from(header)];
  for (const r of records) {
    const rh: number[] = [];
    put32(rh, r.sec, little);
    put32(rh, r.frac, little);
    put32(rh, r.data.length, little);
    put32(rh, r.origLen ?? r.data.length, little);
    parts.push(Uint8Array.from(rh), r.data);
  }
  return Buffer.concat(parts);
}

/** pcapng blocks of one section; each method appends a block */
export class PcapngBuilder {
  private readonly out: Uint8Array[] = [];
  constructor(private little = true) {}

  private block(type: number, body: number[] | Uint8Array): this {
    const pad = (4 - (body.length % 4)) % 4;
    const len = 12 + body.length + pad;
    const head: number[] = [];
    put32(head, type, this.little);
    put32(head, len, this.little);
    const tail: number[] = [];
    put32(tail, len, this.little);
    this.out.push(Uint8Array.from(head), Uint8Array.from(body), new Uint8Array(pad), Uint8Array.from(tail));
    return this;
  }

  /** starts a section (its byte order may differ from the previous one) */
  section(little = this.little): this {
    this.little = little;
    const body: number[] = [];
    put32(body, 0x1a2b3c4d, little);
    put16(body, 1, little);
    put16(body, 0, little);
    put32(body, 0xffffffff, little);
    put32(body, 0xffffffff, little);
    return this.block(0x0a0d0d0a, body);
  }

  iface(linkType: number, opts: { snaplen?: number; tsresol?: number; tsoffset?: number } = {}): this {
    const body: number[] = [];
    put16(body, linkType, this.little);
    put16(body, 0, this.little);
    put32(body, opts.snaplen ?? 0, this.little);
    if (opts.tsresol !== undefined) {
      put16(body, 9, this.little);
      put16(body, 1, this.little);
      body.push(opts.tsresol, 0, 0, 0);
    }
    if (opts.tsoffset !== undefined) {
      put16(body, 14, this.little);
      put16(body, 8, this.little);
      const hi = Math.floor(opts.tsoffset / 2 ** 32);
      const lo = opts.tsoffset - hi * 2 ** 32;
      if (this.little) { put32(body, lo, true); put32(body, hi >>> 0, true); } else { put32(body, hi >>> 0, false); put32(body, lo, false); }
    }
    put16(body, 0, this.little);
    put16(body, 0, this.little);
    return this.block(1, body);
  }

  /** enhanced packet block; the timestamp is a count of the interface's units (a bigint for exactness) */
  epb(ifId: number, units: bigint, data: Uint8Array, origLen = data.length): this {
    const body: number[] = [];
    put32(body, ifId, this.little);
    put32(body, Number(units >> 32n), this.little);
    put32(body, Number(units & 0xffffffffn), this.little);
    put32(body, data.length, this.little);
    put32(body, origLen, this.little);
    return this.block(6, bytes(body, data));
  }

  /** obsolete packet block (type 2) */
  pb(ifId: number, units: bigint, data: Uint8Array): this {
    const body: number[] = [];
    put16(body, ifId, this.little);
    put16(body, 0, this.little);
    put32(body, Number(units >> 32n), this.little);
    put32(body, Number(units & 0xffffffffn), this.little);
    put32(body, data.length, this.little);
    put32(body, data.length, this.little);
    return this.block(2, bytes(body, data));
  }

  spb(data: Uint8Array, origLen = data.length): this {
    const body: number[] = [];
    put32(body, origLen, this.little);
    return this.block(3, bytes(body, data));
  }

  /** any other block, e.g. a name resolution (4) or interface statistics (5) block */
  other(type: number, body: number[] = [0, 0, 0, 0]): this {
    return this.block(type, body);
  }

  build(): Uint8Array {
    return Buffer.concat(this.out);
  }
}
