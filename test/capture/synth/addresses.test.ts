import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressPool, FamilyChooser } from '../../../src/capture/synth/addresses.js';
import { Rng } from '../../../src/capture/synth/rng.js';
import { mask4, mask6Word, parseCidr } from '../../../src/net/cidr.js';
import type { Cidr } from '../../../src/net/cidr.js';

const v4Prefix = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 })).map(([a, len]): Cidr => ({ family: 4, v4: (a & mask4(len)) >>> 0, v6: new Uint32Array(4), len }));
const v6Prefix = fc.tuple(fc.uint32Array({ minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 128 })).map(([w, len]): Cidr => ({
  family: 6, v4: 0, v6: Uint32Array.from(w, (x, i) => (x & mask6Word(len, i)) >>> 0), len,
}));

describe('address pools', () => {
  it('draw IPv4 hosts inside their prefix, never its network or broadcast address, nor 0/8, 127/8, 224/3 from wide prefixes', () => {
    fc.assert(
      fc.property(v4Prefix, fc.integer({ min: 0, max: 0xffffffff }), (p, seed) => {
        const pool = new AddressPool([p]);
        const rng = new Rng(seed);
        for (let i = 0; i < 50; i++) {
          const a = pool.pick4(rng);
          expect((a & mask4(p.len)) >>> 0).toBe(p.v4);
          if (p.len <= 30) {
            expect(a).not.toBe(p.v4);
            expect(a).not.toBe((p.v4 | ~mask4(p.len)) >>> 0);
          }
          if (p.len < 3) expect([0, 127]).not.toContain(a >>> 24);
          if (p.len < 3) expect(a >>> 24).toBeLessThan(224);
        }
      }),
    );
  });

  it('draw IPv6 hosts inside their prefix, never the prefix address itself', () => {
    fc.assert(
      fc.property(v6Prefix, fc.integer({ min: 0, max: 0xffffffff }), (p, seed) => {
        const pool = new AddressPool([p]);
        const rng = new Rng(seed);
        const out = new Uint32Array(4);
        for (let i = 0; i < 50; i++) {
          pool.pick6(rng, out);
          for (let w = 0; w < 4; w++) expect((out[w]! & mask6Word(p.len, w)) >>> 0).toBe(p.v6[w]);
          if (p.len < 128) expect([...out]).not.toEqual([...p.v6]);
        }
      }),
    );
  });

  it('pick a family both pools have, IPv6 at the asked share when both do', () => {
    const both = new AddressPool([parseCidr('198.51.100.0/24'), parseCidr('2001:db8::/32')]);
    const only4 = new AddressPool([parseCidr('203.0.113.10')]);
    const rng = new Rng(1);
    const mixed = new FamilyChooser(both, both, 0.25);
    let v6 = 0;
    for (let i = 0; i < 20000; i++) if (mixed.v6(rng)) v6++;
    expect(v6 / 20000).toBeCloseTo(0.25, 1);
    const four = new FamilyChooser(both, only4, 0.9);
    for (let i = 0; i < 100; i++) expect(four.v6(rng)).toBe(false);
  });

  it('the random generator is reproducible per seed and stream, and streams differ', () => {
    const draw = (seed: number, stream: number): number[] => {
      const r = new Rng(seed, stream);
      return Array.from({ length: 8 }, () => r.u32());
    };
    expect(draw(5, 1)).toEqual(draw(5, 1));
    expect(draw(5, 1)).not.toEqual(draw(5, 2));
    expect(draw(5, 1)).not.toEqual(draw(6, 1));
  });
});
