// Which packets ATP looks at: those whose destination's most specific ATP prefix is not excluded
// (an `excluded` prefix carves its range out of a larger enrolled one, and an enrolled prefix inside
// an excluded one puts it back), and whose source is not on an enabled allowlist entry. The vendor
// says the allowlist applies to source addresses only and that a disabled entry has no effect.
//
// Longest-prefix match is what the configuration means, but every packet asks, so the answer is
// flattened once into disjoint address ranges: the prefixes' boundaries cut the address space into
// intervals inside which the longest match cannot change, and each interval whose match is a
// non-excluded prefix becomes a range of an IpSet (a binary search over a handful of ranges instead
// of a walk down a 32- or 128-level trie).
import type { PacketRecord } from '../capture/record.js';
import type { AllowlistEntry, Prefix } from '../config/snapshot.js';
import { mask4, mask6Word, NetParseError, parseCidr, type Cidr } from '../net/cidr.js';
import { IpSetBuilder, type IpSet } from '../net/ip-set.js';
import { compareIPv6 } from '../net/ipv6.js';
import { PrefixMap } from '../net/prefix-map.js';
import { ConfigItemError } from '../errors.js';

function cidrOf(value: unknown, path: string): Cidr {
  if (typeof value !== 'string') throw new ConfigItemError(path, 'expected a prefix string (CIDR or address)');
  try {
    return parseCidr(value.trim());
  } catch (err) {
    if (err instanceof NetParseError) throw new ConfigItemError(path, err.message);
    throw err;
  }
}

// a + 1 for a 128-bit address; null past the last address
function next6(a: Uint32Array): Uint32Array | null {
  const out = Uint32Array.from(a);
  for (let i = 3; i >= 0; i--) {
    out[i] = (out[i] + 1) >>> 0;
    if (out[i] !== 0) return out;
  }
  return null;
}

function previous6(a: Uint32Array): Uint32Array {
  const out = Uint32Array.from(a);
  for (let i = 3; i >= 0; i--) {
    const borrow = out[i] === 0;
    out[i] = (out[i] - 1) >>> 0;
    if (!borrow) break;
  }
  return out;
}

const LAST6 = new Uint32Array([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);

function flatten(cidrs: Cidr[], map: PrefixMap<PrefixMatch>): IpSet {
  const set = new IpSetBuilder();
  const cuts4 = new Set<number>([0]);
  const cuts6: Uint32Array[] = [new Uint32Array(4)];
  for (const c of cidrs) {
    if (c.family === 4) {
      cuts4.add(c.v4);
      cuts4.add(c.v4 + (~mask4(c.len) >>> 0) + 1);
    } else {
      cuts6.push(c.v6);
      const last = c.v6.map((w, i) => (w | ~mask6Word(c.len, i)) >>> 0);
      const after = next6(last);
      if (after !== null) cuts6.push(after);
    }
  }
  const starts4 = [...cuts4].filter((v) => v < 2 ** 32).sort((a, b) => a - b);
  starts4.forEach((lo, k) => {
    if (map.lookup4(lo)?.excluded === false) set.addRange4(lo, (k + 1 < starts4.length ? starts4[k + 1] : 2 ** 32) - 1);
  });
  cuts6.sort(compareIPv6);
  const starts6 = cuts6.filter((v, k) => k === 0 || compareIPv6(v, cuts6[k - 1]) !== 0);
  starts6.forEach((lo, k) => {
    if (map.lookup6(lo)?.excluded === false) set.addRange6(lo, k + 1 < starts6.length ? previous6(starts6[k + 1]) : LAST6);
  });
  return set.build();
}

/** The most specific ATP prefix holding an address: its text as configured, and whether it is excluded. */
export interface PrefixMatch {
  readonly prefix: string;
  readonly excluded: boolean;
}

export class ProtectedSpace {
  private readonly protected: IpSet;
  private readonly prefixes = new PrefixMap<PrefixMatch>();
  private readonly allowed: IpSet;
  /** whether any prefix is protected (enrolled and not excluded) */
  readonly any: boolean;
  // Floods aim at one address or a few, so the last IPv4 destination's answer is kept.
  private lastDst4 = -1;
  private lastProtected = false;

  constructor(prefixes: Prefix[] | undefined, allowlist: AllowlistEntry[] | undefined) {
    const map = this.prefixes;
    const cidrs: Cidr[] = [];
    (prefixes ?? []).forEach((p, k) => {
      if (typeof p !== 'object' || p === null) throw new ConfigItemError(`prefixes[${k}]`, 'expected a prefix object');
      if (p.excluded !== undefined && typeof p.excluded !== 'boolean') throw new ConfigItemError(`prefixes[${k}].excluded`, 'expected true or false');
      const c = cidrOf(p.prefix, `prefixes[${k}].prefix`);
      map.set(c, Object.freeze({ prefix: String(p.prefix).trim(), excluded: p.excluded === true }));
      cidrs.push(c);
    });
    this.protected = flatten(cidrs, map);
    this.any = this.protected.ranges4 + this.protected.ranges6 > 0;
    const allow = new IpSetBuilder();
    (allowlist ?? []).forEach((a, k) => {
      if (typeof a !== 'object' || a === null) throw new ConfigItemError(`allowlist[${k}]`, 'expected an allowlist object');
      const c = cidrOf(a.prefix, `allowlist[${k}].prefix`);
      if (a.enabled !== true) return;
      if (c.family === 4) allow.addPrefix4(c.v4, c.len);
      else allow.addPrefix6(c.v6, c.len);
    });
    this.allowed = allow.build();
  }

  /** The protected addresses (enrolled, not excluded), for static analysis. */
  get addresses(): IpSet {
    return this.protected;
  }

  /** Whether some address of `c` is protected (for a check of where synthetic traffic goes, not per packet). */
  protectsAnyOf(c: Cidr): boolean {
    let found = false;
    if (c.family === 4) {
      const first = c.v4;
      const last = (c.v4 | ~mask4(c.len)) >>> 0;
      this.protected.forEachRange4((lo, hi) => {
        if (lo <= last && hi >= first) found = true;
      });
    } else {
      const last = c.v6.map((w, i) => (w | ~mask6Word(c.len, i)) >>> 0);
      this.protected.forEachRange6((lo, hi) => {
        if (compareIPv6(lo, last) <= 0 && compareIPv6(hi, c.v6) >= 0) found = true;
      });
    }
    return found;
  }

  /** The destination is in a protected prefix. */
  protectsDst(rec: PacketRecord): boolean {
    if (rec.ipVersion !== 4) return this.protected.has6(rec.dst6);
    if (rec.dst4 !== this.lastDst4) {
      this.lastDst4 = rec.dst4;
      this.lastProtected = this.protected.has4(rec.dst4);
    }
    return this.lastProtected;
  }

  /** The source is in a protected prefix (the protected side sending, for bidirectional tracking). */
  protectsSrc(rec: PacketRecord): boolean {
    return rec.ipVersion === 4 ? this.protected.has4(rec.src4) : this.protected.has6(rec.src6);
  }

  /** The most specific prefix holding the destination, or null (for explanations; the hot path uses protectsDst). */
  matchDst(rec: PacketRecord): PrefixMatch | null {
    return (rec.ipVersion === 4 ? this.prefixes.lookup4(rec.dst4) : this.prefixes.lookup6(rec.dst6)) ?? null;
  }

  /** The source is allowlisted. */
  allowsSrc(rec: PacketRecord): boolean {
    return rec.ipVersion === 4 ? this.allowed.has4(rec.src4) : this.allowed.has6(rec.src6);
  }

  /** The destination is allowlisted (the remote side of an egress packet). */
  allowsDst(rec: PacketRecord): boolean {
    return rec.ipVersion === 4 ? this.allowed.has4(rec.dst4) : this.allowed.has6(rec.dst6);
  }
}
