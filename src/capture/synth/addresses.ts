// Where synthetic packets come from and go to: a pool of IPv4 and IPv6 prefixes from which a flow
// draws a random host. A prefix is picked uniformly (so a /24 of servers and a /8 of clients get
// the same share of flows, which is what a spec author means by listing them), then a random host
// inside it. Network and broadcast addresses of IPv4 prefixes are avoided, and the whole IPv4
// space (0.0.0.0/0, the default source of spoofed floods) skips 0/8, 127/8 and 224/3, addresses
// no router would carry.
import type { Cidr } from '../../net/cidr.js';
import { mask4, mask6Word } from '../../net/cidr.js';
import type { Rng } from './rng.js';

export class AddressPool {
  readonly v4: Cidr[];
  readonly v6: Cidr[];

  constructor(prefixes: Cidr[]) {
    this.v4 = prefixes.filter((p) => p.family === 4);
    this.v6 = prefixes.filter((p) => p.family === 6);
  }

  /** A random IPv4 host of the pool (the pool must hold an IPv4 prefix). */
  pick4(rng: Rng): number {
    const p = this.v4.length === 1 ? this.v4[0]! : this.v4[rng.below(this.v4.length)]!;
    if (p.len === 32) return p.v4;
    const hostMask = ~mask4(p.len) >>> 0;
    for (;;) {
      const host = rng.u32() & hostMask;
      if (p.len <= 30 && (host === 0 || host === hostMask)) continue;
      const a = (p.v4 | host) >>> 0;
      const top = a >>> 24;
      if (p.len < 3 && (top === 0 || top === 127 || top >= 224)) continue;
      return a;
    }
  }

  /** Writes a random IPv6 host of the pool into `out` (the pool must hold an IPv6 prefix). */
  pick6(rng: Rng, out: Uint32Array): void {
    const p = this.v6.length === 1 ? this.v6[0]! : this.v6[rng.below(this.v6.length)]!;
    for (let w = 0; w < 4; w++) {
      const m = mask6Word(p.len, w);
      out[w] = (p.v6[w]! | (rng.u32() & ~m)) >>> 0;
    }
    if (p.len < 128 && out[3] === p.v6[3] && out[2] === p.v6[2] && out[1] === p.v6[1] && out[0] === p.v6[0]) out[3] = (out[3]! | 1) >>> 0;
  }
}

/**
 * Decides the address family of each flow between a pool of initiators and a pool of servers:
 * IPv6 with probability `v6Share` when both pools hold both families, otherwise the one family
 * they share.
 */
export class FamilyChooser {
  private readonly both: boolean;
  private readonly only6: boolean;

  constructor(sources: AddressPool, servers: AddressPool, private readonly v6Share: number) {
    const has4 = sources.v4.length > 0 && servers.v4.length > 0;
    const has6 = sources.v6.length > 0 && servers.v6.length > 0;
    this.both = has4 && has6;
    this.only6 = has6 && !has4;
  }

  /** True for an IPv6 flow. */
  v6(rng: Rng): boolean {
    if (this.both) return rng.chance(this.v6Share);
    return this.only6;
  }
}
