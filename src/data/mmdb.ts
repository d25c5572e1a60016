// A MaxMind DB (mmdb) file read with numeric addresses (format: https://maxmind.github.io/MaxMind-DB/):
// a binary search tree of fixed-size records, a data section of typed values, and the metadata. Three
// things make a lookup cheap inside a replay and the file cheap to open:
//
// - The file is read in 64 KB pages when a walk or a record first needs them, not whole: a replay of a
//   few packets reads a few pages of the bundled 7.8 MB database (README "Speed": reading it whole was
//   a sixth of a small replay's time, and its memory set off a full garbage collection).
// - What an address leads to is kept as a small record number (`id4`, `id6`; 0: no data): per /16 of
//   IPv4, either the record the whole /16 has or a block of 256 entries, one per /24, each the record
//   of the whole /24 or where that /24's ranges start in a list of (first address, record) pairs.
//   The first address looked up in a split /16 reads the /16's whole subtree once (a few dozen nodes
//   on average, 18,000 leaves at most in the bundled database) and fills its block and ranges, so
//   later lookups there never walk: one or two array reads, and a binary search over the few
//   ranges of a /24 the database splits. Walking per /24 on first use instead (as before) cost a
//   spoofed-source flood a walk of 8 nodes for nearly every packet, each a cache miss, and a map
//   entry per split /24 (issue 38). Per /16 and per /32 of IPv6 the records are kept likewise on first use
//   (IPv6 then walks what is left). The /24 blocks of one database take at most MAX_BLOCKS KB; past
//   that, addresses of other split /16s walk from their /16.
// - A record (a small map) is decoded once per record number, by the caller, through `record(id)`.
//
// The walk mirrors mmdb-lib's findAddressInTree: IPv4 addresses in an IPv6 tree start at the node
// reached by 96 zero bits; a record below nodeCount is a node, equal to it means "no data", above it
// a data pointer. An IPv6 address cannot be asked of an IPv4-only tree (the walk would read its first
// 32 bits and answer garbage), so v4-mapped addresses (::ffff:a.b.c.d) are looked up as IPv4 and other
// IPv6 addresses find nothing there. The `maxmind` reader (a development dependency) checks all of it
// in the tests.

import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { DataError } from './errors.js';
import { systemErrorText } from '../errors.js';

const PAGE_BITS = 16;
/** bytes a page holds beyond its 64 KB, so a tree node that starts in it is read from it whole */
const PAGE_OVERLAP = 8;
/** the metadata is in the last 128 KB (the format's rule) */
const METADATA_SEARCH = 128 * 1024;
const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
/** at most this many /24 blocks (1 KB each) per database: 16 MB (the bundled database has 9,062 split /16s) */
const MAX_BLOCKS = 16384;

/** what a file is, for telling whether it changed: device, inode, size and modification time */
function identity(s: Stats): string {
  return `${s.dev} ${s.ino} ${s.size} ${s.mtimeMs}`;
}

/**
 * A file read in pages on demand. A page is read only from the file that was opened: a file replaced
 * or rewritten meanwhile (a database update during a replay) is refused, never read half old, half new.
 */
class PagedFile {
  private readonly pages: Array<Uint8Array | undefined>;
  /** the offset of a byte within its page: o & mask */
  readonly mask: number;
  readonly size: number;
  private readonly identity: string;

  constructor(
    readonly path: string,
    stats: Stats,
    private readonly pageBits: number,
  ) {
    this.size = stats.size;
    this.identity = identity(stats);
    this.pages = new Array<Uint8Array | undefined>(Math.ceil(this.size / (1 << pageBits)) + 1);
    this.mask = (1 << pageBits) - 1;
  }

  /** the page holding byte `o`: the file's bytes from o & ~mask, PAGE_OVERLAP more at its end (zeros past the file's end) */
  page(o: number): Uint8Array {
    return this.pages[o >>> this.pageBits] ?? this.load(o >>> this.pageBits);
  }

  byte(o: number): number {
    return this.page(o)[o & this.mask];
  }

  bytes(o: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.byte(o + i);
    return out;
  }

  private load(index: number): Uint8Array {
    const start = index << this.pageBits;
    const length = Math.max(0, Math.min((1 << this.pageBits) + PAGE_OVERLAP, this.size - start));
    const page = this.read(start, length, PAGE_OVERLAP);
    this.pages[index] = page;
    return page;
  }

  /** `length` bytes from `start`, read from the file at once (not kept), and `spare` zeros after them */
  read(start: number, length: number, spare = 0): Uint8Array {
    const out = new Uint8Array(length + spare);
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'r');
      if (identity(fstatSync(fd)) !== this.identity) throw new DataError(`${this.path}: the database changed while it was being read; run again`);
      for (let at = 0; at < length; ) {
        const n = readSync(fd, out, at, length - at, start + at);
        if (n === 0) throw new Error('the file got shorter');
        at += n;
      }
    } catch (err) {
      if (err instanceof DataError) throw err;
      throw new DataError(`${this.path}: cannot read the database (${systemErrorText(err)})`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return out;
  }
}

/** A value of the data section, as the format types it. */
export type MmdbValue = string | number | bigint | boolean | Uint8Array | MmdbValue[] | { [key: string]: MmdbValue };

const UTF8 = new TextDecoder();

/** Decodes values of the data section (or of the metadata) at offsets from `base`. */
class Decoder {
  constructor(
    private readonly file: PagedFile,
    private readonly base: number,
  ) {}

  /** The value at `offset` (from base) and the offset after it. */
  decode(offset: number): [MmdbValue, number] {
    const f = this.file;
    let o = this.base + offset;
    const control = f.byte(o++);
    let type = control >>> 5;
    if (type === 1) {
      const ss = (control >>> 3) & 3;
      const v = control & 7;
      let pointer: number;
      if (ss === 0) pointer = (v << 8) | f.byte(o);
      else if (ss === 1) pointer = ((v << 16) | (f.byte(o) << 8) | f.byte(o + 1)) + 2048;
      else if (ss === 2) pointer = ((v << 24) | (f.byte(o) << 16) | (f.byte(o + 1) << 8) | f.byte(o + 2)) + 526336;
      else pointer = ((f.byte(o) << 24) | (f.byte(o + 1) << 16) | (f.byte(o + 2) << 8) | f.byte(o + 3)) >>> 0;
      return [this.decode(pointer)[0], o + ss + 1 - this.base];
    }
    if (type === 0) type = 7 + f.byte(o++);
    let size = control & 31;
    if (size === 29) size = 29 + f.byte(o++);
    else if (size === 30) {
      size = 285 + ((f.byte(o) << 8) | f.byte(o + 1));
      o += 2;
    } else if (size === 31) {
      size = 65821 + ((f.byte(o) << 16) | (f.byte(o + 1) << 8) | f.byte(o + 2));
      o += 3;
    }
    const next = (value: MmdbValue, length: number): [MmdbValue, number] => [value, o + length - this.base];
    switch (type) {
      case 2:
        return next(UTF8.decode(f.bytes(o, size)), size);
      case 3:
        return next(Buffer.from(f.bytes(o, 8)).readDoubleBE(0), 8);
      case 4:
        return next(f.bytes(o, size), size);
      case 5:
      case 6:
      case 9:
      case 10: {
        let v = 0n;
        for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(f.byte(o + i));
        return next(v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v, size);
      }
      case 8: {
        let v = 0;
        for (let i = 0; i < size; i++) v = (v << 8) | f.byte(o + i);
        return next(size === 4 ? v | 0 : v, size);
      }
      case 7: {
        const map: { [key: string]: MmdbValue } = {};
        let at = o - this.base;
        for (let i = 0; i < size; i++) {
          const [key, afterKey] = this.decode(at);
          const [value, afterValue] = this.decode(afterKey);
          map[String(key)] = value;
          at = afterValue;
        }
        return [map, at];
      }
      case 11: {
        const array: MmdbValue[] = [];
        let at = o - this.base;
        for (let i = 0; i < size; i++) {
          const [value, after] = this.decode(at);
          array.push(value);
          at = after;
        }
        return [array, at];
      }
      case 14:
        return next(size !== 0, 0);
      case 15:
        return next(Buffer.from(f.bytes(o, 4)).readFloatBE(0), 4);
      default:
        throw new Error(`unknown data type ${type} at byte ${o - 1}`);
    }
  }
}

function metadataOf(file: PagedFile): { [key: string]: MmdbValue } {
  const from = Math.max(0, file.size - METADATA_SEARCH);
  const tail = Buffer.from(file.read(from, file.size - from).buffer);
  const at = tail.lastIndexOf(METADATA_MARKER);
  if (at < 0) throw new Error('no metadata');
  const [meta] = new Decoder(file, from + at + METADATA_MARKER.length).decode(0);
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || meta instanceof Uint8Array) throw new Error('the metadata is not a map');
  return meta;
}

export class MmdbTree {
  private readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly ipv4Start: number;
  private readonly v6: boolean;
  private readonly data: Decoder;
  /** data pointer of each record number (index 0: no data) */
  private readonly pointers: number[] = [0];
  private readonly ids = new Map<number, number>();
  /** the last data pointer idOf() looked up, and its record number */
  private lastReached = -1;
  private lastId = 0;
  /**
   * Per IPv4 /16: 0 not looked up yet (or split when the blocks ran out: walked every time); id + 1
   * when the whole /16 leads to record `id`; -(block + 1) when it is split, its /24s in `blocks`
   * from block * 256.
   */
  private top4: Int32Array | null = null;
  /** per IPv4 /8: 1 once its /16s are in top4 (whole ones) or node16 (split ones) */
  private readonly filled8 = new Uint8Array(256);
  /** per IPv4 /16 that the database splits: the node its first 16 bits reach, + 1 */
  private node16: Int32Array | null = null;
  /** per /24 of a split /16: id + 1 when the whole /24 leads to record `id`, else -(r + 1): its ranges start at `ranges[r]` */
  private blocks = new Int32Array(0);
  private blockCount = 0;
  /**
   * The ranges of the split /24s, one list per /24: its length n, then n pairs (the range's first
   * address's last byte, its record number), in address order, neighbours with the same record merged.
   */
  private ranges = new Int32Array(1024);
  private rangesUsed = 0;
  /** IPv6: the same per /16 (top6) and, in a map, per /32 of the split /16s */
  private top6: Int32Array | null = null;
  private readonly by32 = new Map<number, number>();

  private constructor(
    private readonly file: PagedFile,
    meta: { [key: string]: MmdbValue },
  ) {
    const count = (name: string) => {
      const v = meta[name];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`metadata ${name} missing or not a count`);
      return v;
    };
    this.nodeCount = count('node_count');
    this.recordSize = count('record_size');
    const version = count('ip_version');
    if (version !== 4 && version !== 6) throw new Error(`metadata ip_version ${version}`);
    this.v6 = version === 6;
    this.databaseType = typeof meta.database_type === 'string' ? meta.database_type : '';
    if (![24, 28, 32].includes(this.recordSize)) throw new DataError(`${file.path}: unsupported MaxMind DB record size ${this.recordSize}`);
    const treeSize = (this.nodeCount * this.recordSize) / 4;
    if (treeSize + 16 > file.size) throw new Error('the search tree is longer than the file');
    this.data = new Decoder(file, treeSize + 16);
    let node = 0;
    if (this.v6) for (let i = 0; i < 96 && node < this.nodeCount; i++) node = this.child(node, 0);
    this.ipv4Start = node;
  }

  /** the database_type of the file's metadata (e.g. "GeoLite2-Country") */
  readonly databaseType: string;

  /** the file, for error messages */
  get path(): string {
    return this.file.path;
  }

  /** Opens a MaxMind DB file, reading its metadata; throws DataError naming the file. `pageBits`: log2 of the page size (tests). */
  static async open(path: string, pageBits = PAGE_BITS): Promise<MmdbTree> {
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (err) {
      throw new DataError(`${path}: cannot read the database (${systemErrorText(err)})`);
    }
    const file = new PagedFile(path, stats, pageBits);
    try {
      return new MmdbTree(file, metadataOf(file));
    } catch (err) {
      if (err instanceof DataError) throw err;
      throw new DataError(`${path}: not a MaxMind DB file (${(err as Error).message})`);
    }
  }

  private child(node: number, bit: number): number {
    const file = this.file;
    switch (this.recordSize) {
      case 24: {
        const o = node * 6 + bit * 3;
        const p = file.page(o);
        const i = o & file.mask;
        return (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
      }
      case 28: {
        const o = node * 7;
        const p = file.page(o);
        const i = o & file.mask;
        if (bit === 0) return (((p[i + 3] & 0xf0) << 20) | (p[i] << 16) | (p[i + 1] << 8) | p[i + 2]) >>> 0;
        return (((p[i + 3] & 0x0f) << 24) | (p[i + 4] << 16) | (p[i + 5] << 8) | p[i + 6]) >>> 0;
      }
      default: {
        const o = node * 8 + bit * 4;
        const p = file.page(o);
        const i = o & file.mask;
        return ((p[i] << 24) | (p[i + 1] << 16) | (p[i + 2] << 8) | p[i + 3]) >>> 0;
      }
    }
  }

  /** The node (or record) reached from `node` by bits [from, to) of v, counted from the top. */
  private walk4(node: number, v: number, from: number, to: number): number {
    const n = this.nodeCount;
    for (let i = from; i < to && node < n; i++) node = this.child(node, (v >>> (31 - i)) & 1);
    return node;
  }

  /** The record number of what the walk ended at (0: no data), or -1 when it ended at a node. */
  private idOf(reached: number): number {
    if (reached < this.nodeCount) return -1;
    if (reached === this.nodeCount) return 0;
    // neighbouring leaves mostly lead to the same record (a country's ranges): the last one is kept
    if (reached === this.lastReached) return this.lastId;
    let id = this.ids.get(reached);
    if (id === undefined) {
      id = this.pointers.length;
      this.pointers.push(reached);
      this.ids.set(reached, id);
    }
    this.lastReached = reached;
    this.lastId = id;
    return id;
  }

  /** The record number of an IPv4 address (unsigned 32-bit number): 0 when the database has nothing. */
  id4(v: number): number {
    const top = (this.top4 ??= new Int32Array(1 << 16));
    const e = top[v >>> 16];
    if (e > 0) return e - 1;
    if (e < 0) {
      const f = this.blocks[((-e - 1) << 8) | ((v >>> 8) & 255)];
      return f > 0 ? f - 1 : this.inRanges(-f - 1, v & 255);
    }
    return this.fill16(v >>> 16, v);
  }

  /** the record of the range holding `low` (the address's last byte) in the /24 list at `r` */
  private inRanges(r: number, low: number): number {
    const ranges = this.ranges;
    // the last pair whose first byte is at most `low` (the first pair starts at 0)
    let lo = 0;
    let hi = ranges[r] - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ranges[r + 1 + 2 * mid] <= low) lo = mid;
      else hi = mid - 1;
    }
    return ranges[r + 2 + 2 * lo];
  }

  // The /16 of `high`, looked up for the first time (or split with no block to spare): the first
  // lookup in its /8 fills the /8's 256 entries of top4 (and node16) from one reading of the /8's
  // subtree, so a flood from random sources does not walk 16 nodes per new /16; a split /16 then
  // takes a block.
  private fill16(high: number, v: number): number {
    const node16 = (this.node16 ??= new Int32Array(1 << 16));
    if (this.filled8[high >>> 8] === 0) {
      this.filled8[high >>> 8] = 1;
      this.fillTop(this.walk4(this.ipv4Start, v, 0, 8), 8, high & 0xff00);
      if (this.top4![high] > 0) return this.top4![high] - 1;
    }
    const node = node16[high] - 1;
    const top = this.top4!;
    if (this.blockCount === MAX_BLOCKS) {
      // no more blocks: this /16 walks its last 16 bits every time
      return this.recordOf(this.walk4(node, v, 16, 32));
    }
    const block = this.blockCount++;
    if (this.blocks.length < this.blockCount * 256) {
      const blocks = new Int32Array(Math.min(MAX_BLOCKS, Math.max(16, block * 2)) * 256);
      blocks.set(this.blocks);
      this.blocks = blocks;
    }
    this.fillBlock(node, 16, block << 8);
    top[high] = -(block + 1);
    return this.id4(v);
  }

  /** Fills the top4 entries of /16s h .. h + 2^(16 - depth) from `node`, reached at `depth` (8 to 16): a record's, or the node of a split /16 in node16. */
  private fillTop(node: number, depth: number, h: number): void {
    if (node >= this.nodeCount) {
      this.top4!.fill(this.recordOf(node) + 1, h, h + (1 << (16 - depth)));
      return;
    }
    if (depth === 16) {
      this.node16![h] = node + 1;
      return;
    }
    this.fillTop(this.child(node, 0), depth + 1, h);
    this.fillTop(this.child(node, 1), depth + 1, h + (1 << (15 - depth)));
  }

  /** Fills the block entries b .. b + 2^(24 - depth) from `node`, reached at `depth` (16 to 24). */
  private fillBlock(node: number, depth: number, b: number): void {
    if (node >= this.nodeCount) {
      this.blocks.fill(this.idOf(node) + 1, b, b + (1 << (24 - depth)));
      return;
    }
    if (depth === 24) {
      this.blocks[b] = -(this.fillRanges(node) + 1);
      return;
    }
    this.fillBlock(this.child(node, 0), depth + 1, b);
    this.fillBlock(this.child(node, 1), depth + 1, b + (1 << (23 - depth)));
  }

  /** Writes the ranges of the /24 below `node` (a node reached at /24) and returns where they start. */
  private fillRanges(node: number): number {
    const r = this.rangesUsed;
    if (this.ranges.length < r + 1 + 2 * 256) {
      const ranges = new Int32Array(Math.max(this.ranges.length * 2, r + 1 + 2 * 256));
      ranges.set(this.ranges.subarray(0, r));
      this.ranges = ranges;
    }
    this.ranges[r] = 0;
    this.rangesUsed = r + 1;
    this.addRanges(node, 24, 0, r);
    return r;
  }

  // the leaves below `node` (reached at `depth`, covering last bytes from `first`) appended to the list at r
  private addRanges(node: number, depth: number, first: number, r: number): void {
    if (node >= this.nodeCount || depth === 32) {
      const id = this.recordOf(node);
      const ranges = this.ranges;
      const n = ranges[r];
      if (n > 0 && ranges[this.rangesUsed - 1] === id) return;
      ranges[this.rangesUsed++] = first;
      ranges[this.rangesUsed++] = id;
      ranges[r] = n + 1;
      return;
    }
    this.addRanges(this.child(node, 0), depth + 1, first, r);
    this.addRanges(this.child(node, 1), depth + 1, first + (1 << (31 - depth)), r);
  }

  /** what a walk over all 32 bits ended at, as a record number (0: no data; a node left at /32 is a damaged tree, read as no data) */
  private recordOf(reached: number): number {
    const id = this.idOf(reached);
    return id < 0 ? 0 : id;
  }

  /** The record number of an IPv6 address (four words): 0 when the database has nothing. */
  id6(w: Uint32Array): number {
    if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return this.id4(w[3]);
    if (!this.v6) return 0;
    const top = (this.top6 ??= new Int32Array(1 << 16));
    const high = w[0] >>> 16;
    let e = top[high];
    if (e === 0) {
      const node = this.walk6(0, w, 0, 16);
      const id = this.idOf(node);
      e = top[high] = id >= 0 ? id + 1 : -(node + 1);
    }
    if (e > 0) return e - 1;
    let at32 = this.by32.get(w[0]);
    if (at32 === undefined) {
      const node = this.walk6(-e - 1, w, 16, 32);
      const id = this.idOf(node);
      at32 = id >= 0 ? id + 1 : -(node + 1);
      this.by32.set(w[0], at32);
    }
    if (at32 > 0) return at32 - 1;
    return this.idOf(this.walk6(-at32 - 1, w, 32, 128));
  }

  private walk6(node: number, w: Uint32Array, from: number, to: number): number {
    const n = this.nodeCount;
    for (let i = from; i < to && node < n; i++) node = this.child(node, (w[i >> 5] >>> (31 - (i & 31))) & 1);
    return node;
  }

  /** The record numbered `id` (> 0), decoded: slow, for once per record number. */
  record(id: number): MmdbValue {
    try {
      return this.data.decode(this.pointers[id] - this.nodeCount - 16)[0];
    } catch (err) {
      if (err instanceof DataError) throw err;
      throw new DataError(`${this.path}: a damaged record in the database (${(err as Error).message})`);
    }
  }
}
