// A MaxMind DB (mmdb) search tree walked with numeric addresses. The `maxmind` reader takes address
// strings, which would mean formatting (allocating) a string per packet; but the tree itself is a
// plain binary trie of fixed-size records, so we walk it here straight from PacketRecord's numbers
// and get the record's data pointer. Decoding a record (a small map) stays with `maxmind`, once per
// distinct pointer: the caller caches what it extracts per pointer, so a lookup is a tree walk plus
// one Map hit: of at most 128 steps for IPv6, of at most 16 for IPv4 (from the node its /16 reaches,
// kept per /16).
//
// The walk mirrors mmdb-lib's findAddressInTree: IPv4 addresses in an IPv6 tree start at the node
// reached by 96 zero bits; a record below nodeCount is a node, equal to it means "no data", above it
// a data pointer. An IPv6 address cannot be asked of an IPv4-only tree (the walk would read its first
// 32 bits and answer garbage), so v4-mapped addresses (::ffff:a.b.c.d) are looked up as IPv4 and
// other IPv6 addresses find nothing there.

import { readFile } from 'node:fs/promises';
import type { Reader, Response } from 'maxmind';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';
import { DataError } from './errors.js';
import { systemErrorText } from '../errors.js';

/** A data pointer, or NONE when the database has nothing for the address. */
export const NONE = 0;

export class MmdbTree {
  private readonly db: Buffer;
  private readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly ipv4Start: number;
  private readonly v6: boolean;
  /**
   * Per /16 of IPv4, the node its 16 bits reach from ipv4Start, or the record they end at (-1: not
   * yet walked): filled on first use, so a lookup walks at most the last 16 bits, and a capture
   * pays only for the /16s it holds (512 KB, allocated at the first IPv4 lookup).
   */
  private top4: Float64Array | null = null;

  private constructor(
    /** the file, for error messages */
    readonly path: string,
    private readonly reader: Reader<Response>,
    db: Buffer,
  ) {
    this.db = db;
    const meta = reader.metadata;
    this.nodeCount = meta.nodeCount;
    this.recordSize = meta.recordSize;
    this.v6 = meta.ipVersion === 6;
    if (![24, 28, 32].includes(this.recordSize)) throw new DataError(`${path}: unsupported MaxMind DB record size ${this.recordSize}`);
    let node = 0;
    if (this.v6) for (let i = 0; i < 96 && node < this.nodeCount; i++) node = this.child(node, 0);
    this.ipv4Start = node;
  }

  /** Reads and checks a MaxMind DB file; throws DataError naming the file. */
  static async open(path: string): Promise<MmdbTree> {
    let db: Buffer;
    try {
      db = await readFile(path);
    } catch (err) {
      throw new DataError(`${path}: cannot read the database (${systemErrorText(err)})`);
    }
    // loaded here, not at start-up: most rulesets read no looked-up field and never open a database
    const { Reader } = await import('maxmind');
    let reader: Reader<Response>;
    try {
      reader = new Reader<Response>(db);
    } catch (err) {
      throw new DataError(`${path}: not a MaxMind DB file (${(err as Error).message})`);
    }
    return new MmdbTree(path, reader, db);
  }

  /** The database_type from the file's metadata (e.g. "GeoLite2-Country"). */
  get databaseType(): string {
    return this.reader.metadata.databaseType;
  }

  private child(node: number, bit: number): number {
    const db = this.db;
    switch (this.recordSize) {
      case 24: {
        const o = node * 6 + bit * 3;
        return (db[o] << 16) | (db[o + 1] << 8) | db[o + 2];
      }
      case 28: {
        const o = node * 7;
        if (bit === 0) return (((db[o + 3] & 0xf0) << 20) | (db[o] << 16) | (db[o + 1] << 8) | db[o + 2]) >>> 0;
        return (((db[o + 3] & 0x0f) << 24) | (db[o + 4] << 16) | (db[o + 5] << 8) | db[o + 6]) >>> 0;
      }
      default:
        return db.readUInt32BE(node * 8 + bit * 4);
    }
  }

  /** Data pointer for an IPv4 address (unsigned 32-bit number), or NONE. */
  pointer4(v: number): number {
    const top = (this.top4 ??= new Float64Array(1 << 16).fill(-1));
    const high = v >>> 16;
    let node = top[high];
    if (node < 0) node = top[high] = this.walk4(this.ipv4Start, v, 0, 16);
    node = this.walk4(node, v, 16, 32);
    return node > this.nodeCount ? node : NONE;
  }

  /** The node (or record) reached from `node` by bits [from, to) of v, counted from the top. */
  private walk4(node: number, v: number, from: number, to: number): number {
    const n = this.nodeCount;
    for (let i = from; i < to && node < n; i++) node = this.child(node, (v >>> (31 - i)) & 1);
    return node;
  }

  /** Data pointer for an IPv6 address (four words), or NONE. */
  pointer6(w: Uint32Array): number {
    if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return this.pointer4(w[3]);
    if (!this.v6) return NONE;
    let node = 0;
    const n = this.nodeCount;
    for (let i = 0; i < 128 && node < n; i++) node = this.child(node, (w[i >> 5] >>> (31 - (i & 31))) & 1);
    return node > n ? node : NONE;
  }

  /** Decodes the record of an IPv4 address (slow: use once per distinct pointer). */
  record4(v: number): Response | null {
    return this.reader.get(formatIPv4(v));
  }

  /** Decodes the record of an IPv6 address that pointer6 found (slow: once per distinct pointer). */
  record6(w: Uint32Array): Response | null {
    if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return this.record4(w[3]);
    return this.reader.get(formatIPv6(w));
  }
}
