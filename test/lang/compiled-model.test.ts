// The compiled Int and Ip comparisons (src/lang/eval/primitive.ts) against a naive model written
// with BigInt, at the edges where a comparison turns: values one either side of the constant, sets
// of one value, one range, or two values (each has its own closure), masks with bits above 32, and
// address ranges of both families; and Ip orderings, whose constant is often the address itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6 } from '../../src/net/ipv6.js';
import { ip, objectBinding } from './packets.js';

const binding = objectBinding(FIREWALL_SCHEME);
const decide = (expr: string, packet: Record<string, unknown>) => compile(parse(expr, FIREWALL_SCHEME), binding)(packet as never);

const ORDER: Record<string, (a: bigint, b: bigint) => boolean> = {
  '==': (a, b) => a === b, '!=': (a, b) => a !== b, '<': (a, b) => a < b, '<=': (a, b) => a <= b, '>': (a, b) => a > b, '>=': (a, b) => a >= b,
};

describe('compiled Int comparisons against a naive model', () => {
  it('orderings at the constant and one either side', () => {
    fc.assert(fc.property(fc.constantFrom(...Object.keys(ORDER)), fc.integer({ min: 1, max: 70000 }), fc.integer({ min: -1, max: 1 }), (op, n, d) => {
      const v = n + d;
      expect(decide(`tcp.dstport ${op} ${n}`, { 'tcp.dstport': v })).toBe(ORDER[op](BigInt(v), BigInt(n)));
    }), { numRuns: 1000 });
  });

  it('sets of one value, one range, two values, and more', () => {
    const item = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0, 0, 0, 1, 3)).map(([a, w]) => [a, a + w] as const);
    fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), fc.integer({ min: -1, max: 45 }), (items, v) => {
      const text = `tcp.dstport in {${items.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(' ')}}`;
      expect(decide(text, { 'tcp.dstport': v }), `${text} on ${v}`).toBe(items.some(([a, b]) => v >= a && v <= b));
      expect(decide(text, {})).toBe(false);
    }), { numRuns: 2000 });
  });

  it('& with masks and values above 32 bits', () => {
    const big = fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom(0, 1, 2 ** 32, 2 ** 33, 2 ** 32 + 1, 2 ** 40));
    fc.assert(fc.property(big, big, (v, m) => {
      expect(decide(`tcp.flags & ${m}`, { 'tcp.flags': v }), `${v} & ${m}`).toBe((BigInt(v) & BigInt(m)) !== 0n);
    }), { numRuns: 2000 });
    expect(decide('tcp.flags & 4294967296', {})).toBe(false);
  });
});

describe('an absent Int field whose accessor still reads a value (a reused record keeps the last packet\'s)', () => {
  // the binding says absent; the value read would match every comparison below
  const stale = { ...binding, 'tcp.flags': { ...binding['tcp.flags'], has: () => false, get: () => 2 ** 33 + 7 } } as typeof binding;
  it.each(['tcp.flags & 1', 'tcp.flags & 8589934592', `tcp.flags in {${2 ** 33 + 7}}`, `tcp.flags in {${2 ** 33 + 7} ${2 ** 33 + 9}}`, `tcp.flags in {${2 ** 33}..${2 ** 33 + 8}}`,
    `tcp.flags in {1 3 5 ${2 ** 33 + 7}}`, `tcp.flags == ${2 ** 33 + 7}`])('%s is false', (expr) => {
    expect(compile(parse(expr, FIREWALL_SCHEME), stale)({} as never)).toBe(false);
  });
});

const toBig = (a: ReturnType<typeof ip>) => (a.family === 4 ? BigInt(a.v4) : a.v6.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n));

describe('compiled Ip orderings against a naive model', () => {
  // few addresses, so a constant and the packet's address are often equal; words at and above 2^31,
  // and IPv6 addresses differing in their first or in their last word
  const addresses = ['10.0.0.1', '10.0.0.2', '200.0.0.1', '2001:db8::1', '2001:db8::2', '2001:db9::1', 'fe80::1'];
  it('== != < <= > >= on an address of either family: the other family and an absent address only !=', () => {
    fc.assert(fc.property(fc.constantFrom(...Object.keys(ORDER)), fc.constantFrom(...addresses), fc.option(fc.constantFrom(...addresses)), (op, rhs, probe) => {
      const expected = probe === null || ip(probe).family !== ip(rhs).family ? op === '!=' : ORDER[op](toBig(ip(probe)), toBig(ip(rhs)));
      expect(decide(`ip.src ${op} ${rhs}`, probe === null ? {} : { 'ip.src': ip(probe) }), `${probe} ${op} ${rhs}`).toBe(expected);
    }), { numRuns: 1000, examples: [['!=', '10.0.0.1', '10.0.0.1'], ['!=', '2001:db8::1', '2001:db8::1'], ['==', '2001:db8::1', '2001:db8::1']] });
  });
});

describe('compiled Ip sets of address ranges against a naive model', () => {
  const v4 = fc.integer({ min: 0x0a000000, max: 0x0a000010 }).map(formatIPv4);
  const v6 = fc.integer({ min: 0, max: 16 }).map((n) => formatIPv6(Uint32Array.of(0x20010db8, 0, 0, n)));

  it('a..b of IPv4 and of IPv6 hold exactly the addresses between, of their own family', () => {
    const range = fc.oneof(fc.tuple(v4, v4), fc.tuple(v6, v6)).map(([a, b]) => (toBig(ip(a)) <= toBig(ip(b)) ? [a, b] : [b, a]));
    fc.assert(fc.property(fc.array(range, { minLength: 1, maxLength: 3 }), fc.oneof(v4, v6), (ranges, probe) => {
      const text = `ip.src in {${ranges.map(([a, b]) => `${a}..${b}`).join(' ')}}`;
      const p = ip(probe);
      const expected = ranges.some(([a, b]) => ip(a).family === p.family && toBig(ip(a)) <= toBig(p) && toBig(p) <= toBig(ip(b)));
      expect(decide(text, { 'ip.src': p }), `${text} on ${probe}`).toBe(expected);
    }), { numRuns: 1000 });
  });
});
