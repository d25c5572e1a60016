// Longest-prefix match: the value of the most specific prefix containing an address, as routing
// tables and "which network does this address belong to" tables (data centers, ASNs by prefix)
// need. One binary trie per family, stored in a growable Int32Array of child links (node i has
// children at 2i and 2i+1; 0 means none, since the root is never a child) and an Int32Array of value
// slots, so a lookup walks at most 32 or 128 array cells and allocates nothing.

import type { Cidr } from './cidr.js';

class BitTrie {
  children = new Int32Array(64);
  slot = new Int32Array(32).fill(-1);
  nodes = 1;

  private addNode(): number {
    const id = this.nodes++;
    if (id * 2 + 1 >= this.children.length) {
      const c = new Int32Array(this.children.length * 2);
      c.set(this.children);
      this.children = c;
      const s = new Int32Array(this.slot.length * 2).fill(-1);
      s.set(this.slot);
      this.slot = s;
    }
    return id;
  }

  // Walks (creating nodes) down `len` bits taken from `bit(i)`; returns the node reached.
  nodeFor(len: number, bit: (i: number) => number): number {
    let node = 0;
    for (let i = 0; i < len; i++) {
      const at = node * 2 + bit(i);
      let next = this.children[at];
      if (next === 0) {
        next = this.addNode();
        this.children[at] = next;
      }
      node = next;
    }
    return node;
  }
}

/** Maps IPv4/IPv6 prefixes to values; lookups return the value of the longest matching prefix. */
export class PrefixMap<T> {
  private readonly trie4 = new BitTrie();
  private readonly trie6 = new BitTrie();
  private readonly values: T[] = [];

  /** Number of distinct prefixes stored. */
  get size(): number {
    return this.values.length;
  }

  /** Stores a value for a prefix, replacing the value of the same prefix. */
  set(c: Cidr, value: T): void {
    const trie = c.family === 4 ? this.trie4 : this.trie6;
    const node =
      c.family === 4
        ? trie.nodeFor(c.len, (i) => (c.v4 >>> (31 - i)) & 1)
        : trie.nodeFor(c.len, (i) => (c.v6[i >> 5] >>> (31 - (i & 31))) & 1);
    if (trie.slot[node] >= 0) this.values[trie.slot[node]] = value;
    else {
      trie.slot[node] = this.values.length;
      this.values.push(value);
    }
  }

  /** Value of the longest prefix containing the IPv4 address (32-bit number), if any. */
  lookup4(v: number): T | undefined {
    const { children, slot } = this.trie4;
    let node = 0;
    let best = slot[0];
    for (let i = 0; i < 32; i++) {
      node = children[node * 2 + ((v >>> (31 - i)) & 1)];
      if (node === 0) break;
      if (slot[node] >= 0) best = slot[node];
    }
    return best >= 0 ? this.values[best] : undefined;
  }

  /** Value of the longest prefix containing the IPv6 address (four words), if any. */
  lookup6(w: Uint32Array): T | undefined {
    const { children, slot } = this.trie6;
    let node = 0;
    let best = slot[0];
    for (let i = 0; i < 128; i++) {
      node = children[node * 2 + ((w[i >> 5] >>> (31 - (i & 31))) & 1)];
      if (node === 0) break;
      if (slot[node] >= 0) best = slot[node];
    }
    return best >= 0 ? this.values[best] : undefined;
  }
}
