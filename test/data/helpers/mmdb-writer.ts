// A minimal MaxMind DB writer for test fixtures (format: https://maxmind.github.io/MaxMind-DB/):
// a binary search tree of prefixes, a data section of maps, strings and unsigned integers, and the
// metadata. No ASN or GeoLite2 database ships with the project, so tests build small ones here,
// with each record size (24, 28, 32 bits) and both tree kinds (IPv4-only, IPv6 holding IPv4 at
// ::a.b.c.d).
import { parseCidr } from '../../../src/net/cidr.js';

export type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue };

export interface MmdbSpec {
  ipVersion: 4 | 6;
  recordSize: 24 | 28 | 32;
  databaseType: string;
  /** CIDR text -> record; more specific prefixes override less specific ones */
  entries: Array<[string, MmdbValue]>;
}

function control(type: number, size: number): number[] {
  const head: number[] = [];
  const extra: number[] = [];
  let field = size;
  if (size >= 65821) {
    field = 31;
    const s = size - 65821;
    extra.push((s >> 16) & 255, (s >> 8) & 255, s & 255);
  } else if (size >= 285) {
    field = 30;
    const s = size - 285;
    extra.push((s >> 8) & 255, s & 255);
  } else if (size >= 29) {
    field = 29;
    extra.push(size - 29);
  }
  if (type <= 7) head.push((type << 5) | field);
  else head.push(field, type - 7);
  return [...head, ...extra];
}

function uint(type: number, value: number | bigint): number[] {
  const bytes: number[] = [];
  let v = BigInt(value);
  while (v > 0n) {
    bytes.unshift(Number(v & 255n));
    v >>= 8n;
  }
  return [...control(type, bytes.length), ...bytes];
}

export function encode(value: MmdbValue): number[] {
  if (typeof value === 'string') {
    const bytes = [...Buffer.from(value, 'utf8')];
    return [...control(2, bytes.length), ...bytes];
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (typeof value === 'number') return uint(value <= 0xffff ? 5 : 6, value);
  if (Array.isArray(value)) return [...control(11, value.length), ...value.flatMap(encode)];
  const keys = Object.keys(value);
  return [...control(7, keys.length), ...keys.flatMap((k) => [...encode(k), ...encode(value[k])])];
}

type Child = { node: TreeNode } | { data: number } | null;
interface TreeNode {
  id: number;
  children: [Child, Child];
}

function bitsOf(cidr: string, ipVersion: 4 | 6): number[] {
  const c = parseCidr(cidr);
  const bits: number[] = [];
  if (c.family === 4) {
    if (ipVersion === 6) for (let i = 0; i < 96; i++) bits.push(0);
    for (let i = 0; i < c.len; i++) bits.push((c.v4 >>> (31 - i)) & 1);
  } else {
    if (ipVersion === 4) throw new Error(`IPv6 entry ${cidr} in an IPv4 database`);
    for (let i = 0; i < c.len; i++) bits.push((c.v6[i >> 5] >>> (31 - (i & 31))) & 1);
  }
  if (bits.length === 0) throw new Error('a /0 entry is not supported');
  return bits;
}

export function writeMmdb(spec: MmdbSpec): Buffer {
  const data: number[] = [];
  const offsets = new Map<string, number>();
  const root: TreeNode = { id: 0, children: [null, null] };
  const sorted = spec.entries.map(([cidr, value]) => ({ bits: bitsOf(cidr, spec.ipVersion), value })).sort((a, b) => a.bits.length - b.bits.length);
  for (const { bits, value } of sorted) {
    const key = JSON.stringify(value);
    let offset = offsets.get(key);
    if (offset === undefined) {
      offset = data.length;
      offsets.set(key, offset);
      data.push(...encode(value));
    }
    let node = root;
    for (let i = 0; i < bits.length - 1; i++) {
      const child = node.children[bits[i]];
      if (child !== null && 'node' in child) {
        node = child.node;
        continue;
      }
      const next: TreeNode = { id: -1, children: [child, child] };
      node.children[bits[i]] = { node: next };
      node = next;
    }
    node.children[bits[bits.length - 1]] = { data: offset };
  }

  const nodes: TreeNode[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const n = queue.shift()!;
    n.id = nodes.length;
    nodes.push(n);
    for (const c of n.children) if (c !== null && 'node' in c) queue.push(c.node);
  }
  const nodeCount = nodes.length;
  const value = (c: Child) => (c === null ? nodeCount : 'node' in c ? c.node.id : nodeCount + 16 + c.data);
  const nodeBytes = spec.recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  for (const n of nodes) {
    const [l, r] = n.children.map(value);
    const o = n.id * nodeBytes;
    if (spec.recordSize === 24) {
      tree.writeUIntBE(l, o, 3);
      tree.writeUIntBE(r, o + 3, 3);
    } else if (spec.recordSize === 28) {
      tree.writeUIntBE(l & 0xffffff, o, 3);
      tree[o + 3] = (((l >>> 24) & 0xf) << 4) | ((r >>> 24) & 0xf);
      tree.writeUIntBE(r & 0xffffff, o + 4, 3);
    } else {
      tree.writeUInt32BE(l, o);
      tree.writeUInt32BE(r, o + 4);
    }
  }

  const metadata = [
    ...control(7, 9),
    ...encode('node_count'), ...uint(6, nodeCount),
    ...encode('record_size'), ...uint(5, spec.recordSize),
    ...encode('ip_version'), ...uint(5, spec.ipVersion),
    ...encode('database_type'), ...encode(spec.databaseType),
    ...encode('languages'), ...encode(['en']),
    ...encode('binary_format_major_version'), ...uint(5, 2),
    ...encode('binary_format_minor_version'), ...uint(5, 0),
    ...encode('build_epoch'), ...uint(9, 1_700_000_000n),
    ...encode('description'), ...encode({ en: 'edgesim test fixture' }),
  ];
  return Buffer.concat([tree, Buffer.alloc(16), Buffer.from(data), Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), Buffer.from(metadata)]);
}
