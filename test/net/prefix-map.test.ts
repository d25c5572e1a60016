import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Cidr, parseCidr } from '../../src/net/cidr.js';
import { PrefixMap } from '../../src/net/prefix-map.js';

function mask4(len: number): number {
  return len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
}

function bitOf(w: Uint32Array, i: number): number {
  return (w[i >> 5] >>> (31 - (i & 31))) & 1;
}

function contains6(c: Cidr, w: Uint32Array): boolean {
  for (let i = 0; i < c.len; i++) if (bitOf(c.v6, i) !== bitOf(w, i)) return false;
  return true;
}

const cidr4 = fc.tuple(fc.constantFrom(0, 0x0a000000, 0xc0a80000, 0xffffffff), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 32 })).map(
  ([base, noise, len]): Cidr => ({ family: 4, v4: ((base ^ noise ^ (noise << 12)) & mask4(len)) >>> 0, v6: new Uint32Array(4), len }),
);
const probe4 = fc.tuple(fc.constantFrom(0, 0x0a000000, 0xc0a80000, 0xffffffff), fc.integer({ min: 0, max: 0xffff })).map(([b, n]) => (b ^ n ^ (n << 12)) >>> 0);

const word = fc.constantFrom(0, 0x20010db8, 0xffffffff, 1);
const cidr6 = fc.tuple(word, word, word, word, fc.integer({ min: 0, max: 128 })).map(([a, b, c, d, len]): Cidr => {
  const v6 = Uint32Array.of(a, b, c, d);
  for (let i = len; i < 128; i++) v6[i >> 5] &= ~(1 << (31 - (i & 31)));
  return { family: 6, v4: 0, v6, len };
});
const probe6 = fc.tuple(word, word, word, word).map((t) => Uint32Array.from(t));

describe('PrefixMap', () => {
  it('returns the most specific prefix', () => {
    const m = new PrefixMap<string>();
    m.set(parseCidr('0.0.0.0/0'), 'default');
    m.set(parseCidr('10.0.0.0/8'), 'ten');
    m.set(parseCidr('10.1.0.0/16'), 'ten-one');
    m.set(parseCidr('10.1.2.3'), 'host');
    m.set(parseCidr('2001:db8::/32'), 'doc6');
    expect(['10.1.2.3', '10.1.2.4', '10.2.0.0', '11.0.0.0'].map((t) => m.lookup4(parseCidr(t).v4))).toEqual(['host', 'ten-one', 'ten', 'default']);
    expect(m.lookup6(parseCidr('2001:db8::1').v6)).toBe('doc6');
    expect(m.lookup6(parseCidr('2001:db9::1').v6)).toBeUndefined();
    expect(m.size).toBe(5);
  });

  it('matches an IPv6 host (/128) exactly, and its neighbours by the prefix around it', () => {
    const m = new PrefixMap<string>();
    m.set(parseCidr('2001:db8::/32'), 'doc6');
    m.set(parseCidr('2001:db8::ffff'), 'host6');
    expect(['2001:db8::ffff', '2001:db8::fffe', '2001:db8::1:ffff'].map((t) => m.lookup6(parseCidr(t).v6))).toEqual(['host6', 'doc6', 'doc6']);
  });

  it('replaces the value of the same prefix without growing', () => {
    const m = new PrefixMap<number>();
    m.set(parseCidr('192.0.2.0/24'), 1);
    m.set(parseCidr('192.0.2.0/24'), 2);
    expect(m.size).toBe(1);
    expect(m.lookup4(parseCidr('192.0.2.9').v4)).toBe(2);
  });

  it('v4 longest match agrees with a linear scan', () => {
    fc.assert(
      fc.property(fc.array(cidr4, { maxLength: 60 }), fc.array(probe4, { maxLength: 30 }), (cidrs, probes) => {
        const m = new PrefixMap<number>();
        cidrs.forEach((c, i) => m.set(c, i));
        for (const p of probes) {
          let best = -1;
          let bestLen = -1;
          cidrs.forEach((c, i) => {
            if (((p & mask4(c.len)) >>> 0) === c.v4 && c.len >= bestLen) {
              best = i;
              bestLen = c.len;
            }
          });
          if ((m.lookup4(p) ?? -1) !== best) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('v6 longest match agrees with a linear scan', () => {
    fc.assert(
      fc.property(fc.array(cidr6, { maxLength: 40 }), fc.array(probe6, { maxLength: 30 }), (cidrs, probes) => {
        const m = new PrefixMap<number>();
        cidrs.forEach((c, i) => m.set(c, i));
        for (const p of probes) {
          let best = -1;
          let bestLen = -1;
          cidrs.forEach((c, i) => {
            if (contains6(c, p) && c.len >= bestLen) {
              best = i;
              bestLen = c.len;
            }
          });
          if ((m.lookup6(p) ?? -1) !== best) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
