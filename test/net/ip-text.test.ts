import { isIPv4, isIPv6 } from 'node:net';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { formatIPv4, parseIPv4 } from '../../src/net/ipv4.js';
import { compareIPv6, formatIPv6, parseIPv6 } from '../../src/net/ipv6.js';

const word = fc.oneof(fc.constant(0), fc.constant(0xffff), fc.constant(0xffffffff), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffff }));
const v6 = fc.tuple(word, word, word, word).map((t) => Uint32Array.from(t));
const v4 = fc.oneof(fc.constant(0), fc.constant(0xffffffff), fc.integer({ min: 0, max: 0xffffffff }));

function w(text: string): number[] {
  const r = parseIPv6(text);
  if (r === null) throw new Error(`test input ${text} did not parse`);
  return [...r];
}

describe('parseIPv4', () => {
  it.each([
    ['0.0.0.0', 0],
    ['255.255.255.255', 0xffffffff],
    ['192.0.2.1', 0xc0000201],
    ['10.0.0.0', 0x0a000000],
  ])('parses %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each([
    '', '01.2.3.4', '1.2.3.00', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.4 ', ' 1.2.3.4', '1..2.3', '1.2.3.',
    '.1.2.3', '0x1.2.3.4', '1.2.3.4/32', '１.2.3.4', '1.2.3.-1', '+1.2.3.4', '1.2.3.1000', '::1', '1e2.0.0.0',
  ])('rejects %j', (text) => {
    expect(parseIPv4(text)).toBe(-1);
  });

  it('round-trips: parse(format(v)) = v', () => {
    fc.assert(fc.property(v4, (v) => parseIPv4(formatIPv4(v)) === v));
  });

  it('round-trips: format(parse(x)) = x for canonical dotted quads', () => {
    const quad = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));
    fc.assert(fc.property(quad, (x) => formatIPv4(parseIPv4(x)) === x));
  });

  it('accepts exactly what Node net.isIPv4 accepts (strict decimal, no leading zeros)', () => {
    const soup = fc.string({ unit: fc.constantFrom(...'0123456789.'.split(''), '25', '255', '256', '00'), maxLength: 16 });
    fc.assert(fc.property(soup, (s) => (parseIPv4(s) >= 0) === isIPv4(s)), { numRuns: 3000 });
  });
});

describe('parseIPv6', () => {
  it.each([
    ['::', [0, 0, 0, 0]],
    ['::1', [0, 0, 0, 1]],
    ['1::', [0x10000, 0, 0, 0]],
    ['::ffff:1.2.3.4', [0, 0, 0xffff, 0x01020304]],
    ['2001:DB8::8:800:200C:417A', [0x20010db8, 0, 0x80800, 0x200c417a]],
    ['1:2:3:4:5:6:7:8', [0x10002, 0x30004, 0x50006, 0x70008]],
    ['1:2:3:4:5:6:7::', [0x10002, 0x30004, 0x50006, 0x70000]],
    ['0000:0000:0000:0000:0000:0000:0000:0001', [0, 0, 0, 1]],
  ])('parses %s', (text, expected) => {
    expect(w(text)).toEqual(expected);
  });

  it.each([
    '', ':', ':::', '1::2::3', '::ffff:01.2.3.4', '::ffff:1.2.3', '::ffff:256.0.0.1', '1.2.3.4::', '1.2.3.4',
    '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6::7:8', '12345::', 'fe80::1%eth0', '[::1]', ':1::2', '1::2:', '1:2',
    '::g', ' ::1', '::1 ', '1:2:3:4:5:6:7:1.2.3.4', '::1.2.3.4:5',
  ])('rejects %j', (text) => {
    expect(parseIPv6(text)).toBeNull();
  });

  it('writes into the given array and returns it', () => {
    const out = new Uint32Array(4);
    expect(parseIPv6('2001:db8::1', out)).toBe(out);
    expect([...out]).toEqual([0x20010db8, 0, 0, 1]);
  });

  it('round-trips: parse(format(w)) = w', () => {
    fc.assert(fc.property(v6, (a) => compareIPv6(parseIPv6(formatIPv6(a))!, a) === 0), { numRuns: 2000 });
  });

  it('round-trips: format(parse(x)) = x for canonical text', () => {
    fc.assert(fc.property(v6, (a) => { const x = formatIPv6(a); return formatIPv6(parseIPv6(x)!) === x; }));
  });

  it('accepts exactly what Node net.isIPv6 accepts (zones aside)', () => {
    const unit = fc.constantFrom(':', '::', '.', '0', '1', 'f', 'ffff', 'A0', '12345', '1.2.3.4', '01.2.3.4', '255');
    const soup = fc.array(unit, { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(fc.property(soup, (s) => (parseIPv6(s) !== null) === isIPv6(s)), { numRuns: 5000 });
  });
});

describe('formatIPv6 (RFC 5952)', () => {
  it.each([
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'], // §4.1 leading zeros, §4.2.1 longest run
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // §4.2.3 first of equal runs
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'], // §4.2.3 longest run wins
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // §4.2.2 a single zero group is not shortened
    ['2001:DB8::AB', '2001:db8::ab'], // §4.3 lowercase
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'], // §5 IPv4-mapped keeps the dotted tail
    ['::192.0.2.1', '::c000:201'],
    ['0:0:0:0:0:0:0:0', '::'],
  ])('%s -> %s', (text, canonical) => {
    expect(formatIPv6(parseIPv6(text)!)).toBe(canonical);
  });

  it('matches ipaddr.js toRFC5952String except for the mapped-IPv4 tail', () => {
    fc.assert(
      fc.property(v6, (a) => {
        const bytes = [...a].flatMap((x) => [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255]);
        const theirs = ipaddr.fromByteArray(bytes);
        const mapped = a[0] === 0 && a[1] === 0 && a[2] === 0xffff;
        return mapped || formatIPv6(a) === (theirs as ipaddr.IPv6).toRFC5952String();
      }),
      { numRuns: 2000 },
    );
  });
});

describe('compareIPv6', () => {
  it('orders like the 128-bit numbers', () => {
    const big = (a: Uint32Array) => a.reduce((n, x) => (n << 32n) | BigInt(x), 0n);
    fc.assert(fc.property(v6, v6, (a, b) => Math.sign(compareIPv6(a, b)) === Math.sign(Number(big(a) - big(b)))));
  });
});
