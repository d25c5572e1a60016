// Which destinations are protected: the flattened ranges must give exactly the longest-prefix-match
// answer (most specific prefix not excluded), checked against a linear scan over random prefix
// sets, in both families, on random addresses and on every prefix boundary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtectedSpace } from '../../src/atp/protected-space.js';
import { PacketRecord } from '../../src/capture/record.js';
import { mask4, mask6Word, parseCidr } from '../../src/net/cidr.js';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6 } from '../../src/net/ipv6.js';

interface P4 {
  net: number;
  len: number;
  excluded: boolean;
}

function contains4(p: P4, a: number): boolean {
  return ((a & mask4(p.len)) >>> 0) === p.net;
}

function reference4(ps: P4[], a: number): boolean {
  let best: P4 | null = null;
  for (const p of ps) if (contains4(p, a) && (best === null || p.len >= best.len)) best = p;
  return best !== null && !best.excluded;
}

const prefix4 = fc.record({ base: fc.constantFrom(0xcb007100, 0xcb007180, 0x0a000000, 0xc0000200, 0), len: fc.integer({ min: 0, max: 32 }), jitter: fc.nat(), excluded: fc.boolean() }).map(({ base, len, jitter, excluded }): P4 => {
  const a = (base + (jitter % 512)) >>> 0;
  return { net: (a & mask4(len)) >>> 0, len, excluded };
});

function dst4(a: number): PacketRecord {
  const rec = new PacketRecord();
  rec.ipVersion = 4;
  rec.dst4 = a;
  return rec;
}

describe('ProtectedSpace', () => {
  it('IPv4: agrees with a longest-match linear scan on random and boundary addresses', () => {
    fc.assert(
      fc.property(fc.array(prefix4, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 50 }), (ps, probes) => {
        const space = new ProtectedSpace(ps.map((p) => ({ prefix: `${formatIPv4(p.net)}/${p.len}`, excluded: p.excluded })), []);
        const edges = ps.flatMap((p) => {
          const last = (p.net | ~mask4(p.len)) >>> 0;
          return [p.net, (p.net - 1) >>> 0, last, (last + 1) >>> 0];
        });
        for (const a of [...edges, ...probes.map((x) => (0xcb007100 + (x % 1024) - 512) >>> 0), 0, 0xffffffff]) {
          expect(space.protectsDst(dst4(a))).toBe(reference4(ps, a));
        }
        // every protected range starts at 0 or at a prefix boundary
        expect(space.any).toBe([...edges, 0].some((a) => reference4(ps, a)));
      }),
      { numRuns: 300 },
    );
  });

  it('IPv6: agrees with a longest-match linear scan, including prefixes that end at the last address', () => {
    const word = fc.constantFrom(0, 1, 0x20010db8, 0xffffffff, 0x80000000);
    const prefix6 = fc.record({ w: fc.tuple(word, word, word, word), len: fc.integer({ min: 0, max: 128 }), excluded: fc.boolean() }).map(({ w, len, excluded }) => ({
      net: Uint32Array.from(w, (x, i) => (x & mask6Word(len, i)) >>> 0),
      len,
      excluded,
    }));
    const contains6 = (p: { net: Uint32Array; len: number }, a: Uint32Array) => [0, 1, 2, 3].every((i) => ((a[i] & mask6Word(p.len, i)) >>> 0) === p.net[i]);
    fc.assert(
      fc.property(fc.array(prefix6, { maxLength: 6 }), fc.array(fc.tuple(word, word, word, word), { maxLength: 30 }), (ps, probes) => {
        const space = new ProtectedSpace(ps.map((p) => ({ prefix: `${formatIPv6(p.net)}/${p.len}`, excluded: p.excluded })), []);
        const rec = new PacketRecord();
        rec.ipVersion = 6;
        const addrs = [...probes.map((t) => Uint32Array.from(t)), ...ps.map((p) => p.net), ...ps.map((p) => Uint32Array.from(p.net, (w, i) => (w | ~mask6Word(p.len, i)) >>> 0))];
        for (const a of addrs) {
          let best: (typeof ps)[number] | null = null;
          for (const p of ps) if (contains6(p, a) && (best === null || p.len >= best.len)) best = p;
          rec.dst6.set(a);
          expect(space.protectsDst(rec)).toBe(best !== null && !best.excluded);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a prefix reaches protected space exactly when one of its addresses is protected (IPv4, by brute force; IPv6 examples)', () => {
    const probe = fc.record({ x: fc.nat(), len: fc.integer({ min: 22, max: 32 }) }).map(({ x, len }) => ({ net: ((0xcb007100 + (x % 2048) - 1024) & mask4(len)) >>> 0, len }));
    fc.assert(
      fc.property(fc.array(prefix4, { maxLength: 8 }), probe, (ps, c) => {
        const space = new ProtectedSpace(ps.map((p) => ({ prefix: `${formatIPv4(p.net)}/${p.len}`, excluded: p.excluded })), []);
        let any = false;
        for (let a = c.net; a <= ((c.net | ~mask4(c.len)) >>> 0) && !any; a++) any = reference4(ps, a);
        expect(space.protectsAnyOf(parseCidr(`${formatIPv4(c.net)}/${c.len}`))).toBe(any);
      }),
      { numRuns: 300 },
    );
    const v6 = new ProtectedSpace([{ prefix: '2001:db8::/32', excluded: false }, { prefix: '2001:db8:ffff::/48', excluded: true }], []);
    expect(['2001:db8:ffff::/48', '2001:db8:ffff::10', '2001:db8:fffe::/47', '2001::/16', '2001:db9::/32'].map((t) => v6.protectsAnyOf(parseCidr(t)))).toEqual([false, false, true, true, false]);
  });

  it('sources: enabled allowlist entries only, CIDR or single address', () => {
    const space = new ProtectedSpace([], [
      { prefix: '192.0.2.0/28', enabled: true },
      { prefix: '198.51.100.7', enabled: true },
      { prefix: '203.0.113.0/24', enabled: false },
      { prefix: '2001:db8::/32', enabled: true },
    ]);
    const src = (text: string) => {
      const rec = new PacketRecord();
      if (text.includes(':')) {
        rec.ipVersion = 6;
        rec.src6.set([0x20010db8, 0, 0, 1]);
      } else {
        rec.ipVersion = 4;
        rec.src4 = text.split('.').reduce((a, o) => a * 256 + Number(o), 0);
      }
      return rec;
    };
    expect(['192.0.2.15', '192.0.2.16', '198.51.100.7', '198.51.100.8', '203.0.113.5', '2001:db8::1'].map((a) => space.allowsSrc(src(a)))).toEqual([true, false, true, false, false, true]);
  });
});
