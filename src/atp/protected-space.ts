// Which packets ATP looks at: those whose destination's most specific ATP prefix is not excluded
// (an `excluded` prefix carves its range out of a larger enrolled one, and an enrolled prefix inside
// an excluded one puts it back), and whose source is not on an enabled allowlist entry. The vendor
// says the allowlist applies to source addresses only and that a disabled entry has no effect.
import type { PacketRecord } from '../capture/record.js';
import type { AllowlistEntry, Prefix } from '../config/snapshot.js';
import { NetParseError, parseCidr, type Cidr } from '../net/cidr.js';
import { IpSetBuilder, type IpSet } from '../net/ip-set.js';
import { PrefixMap } from '../net/prefix-map.js';
import { AtpConfigError } from './errors.js';

function cidrOf(value: unknown, path: string): Cidr {
  if (typeof value !== 'string') throw new AtpConfigError(path, 'expected a prefix string (CIDR or address)');
  try {
    return parseCidr(value.trim());
  } catch (err) {
    if (err instanceof NetParseError) throw new AtpConfigError(path, err.message);
    throw err;
  }
}

export class ProtectedSpace {
  private readonly prefixes = new PrefixMap<boolean>();
  private readonly allowed: IpSet;
  /** whether any prefix is protected (enrolled and not excluded) */
  readonly any: boolean;

  constructor(prefixes: Prefix[] | undefined, allowlist: AllowlistEntry[] | undefined) {
    let any = false;
    (prefixes ?? []).forEach((p, k) => {
      if (typeof p !== 'object' || p === null) throw new AtpConfigError(`prefixes[${k}]`, 'expected a prefix object');
      if (p.excluded !== undefined && typeof p.excluded !== 'boolean') throw new AtpConfigError(`prefixes[${k}].excluded`, 'expected true or false');
      const excluded = p.excluded === true;
      this.prefixes.set(cidrOf(p.prefix, `prefixes[${k}].prefix`), excluded);
      if (!excluded) any = true;
    });
    const allow = new IpSetBuilder();
    (allowlist ?? []).forEach((a, k) => {
      if (typeof a !== 'object' || a === null) throw new AtpConfigError(`allowlist[${k}]`, 'expected an allowlist object');
      const c = cidrOf(a.prefix, `allowlist[${k}].prefix`);
      if (a.enabled !== true) return;
      if (c.family === 4) allow.addPrefix4(c.v4, c.len);
      else allow.addPrefix6(c.v6, c.len);
    });
    this.allowed = allow.build();
    this.any = any;
  }

  /** The destination is in a protected prefix. */
  protectsDst(rec: PacketRecord): boolean {
    return (rec.ipVersion === 4 ? this.prefixes.lookup4(rec.dst4) : this.prefixes.lookup6(rec.dst6)) === false;
  }

  /** The source is in a protected prefix (the protected side sending, for bidirectional tracking). */
  protectsSrc(rec: PacketRecord): boolean {
    return (rec.ipVersion === 4 ? this.prefixes.lookup4(rec.src4) : this.prefixes.lookup6(rec.src6)) === false;
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
