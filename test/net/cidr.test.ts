import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCidr, NetParseError, parseCidr } from '../../src/net/cidr.js';

describe('parseCidr', () => {
  it.each([
    ['192.0.2.0/24', 4, 0xc0000200, 24, '192.0.2.0/24'],
    ['192.0.2.1', 4, 0xc0000201, 32, '192.0.2.1'],
    ['192.0.2.1/32', 4, 0xc0000201, 32, '192.0.2.1'],
    ['0.0.0.0/0', 4, 0, 0, '0.0.0.0/0'],
    ['2001:DB8::/32', 6, 0, 32, '2001:db8::/32'],
    ['::/0', 6, 0, 0, '::/0'],
    ['::1', 6, 0, 128, '::1'],
    ['::ffff:10.0.0.0/104', 6, 0, 104, '::ffff:10.0.0.0/104'],
  ])('%s', (text, family, v4, len, canonical) => {
    const c = parseCidr(text);
    expect([c.family, c.v4, c.len]).toEqual([family, v4, len]);
    expect(formatCidr(c)).toBe(canonical);
  });

  it('keeps IPv6 words and zeroes the other family', () => {
    expect([...parseCidr('2001:db8::/32').v6]).toEqual([0x20010db8, 0, 0, 0]);
    expect([...parseCidr('10.0.0.0/8').v6]).toEqual([0, 0, 0, 0]);
  });

  it.each([
    ['10.0.0.1/24', '"10.0.0.1/24": host bits are set (did you mean 10.0.0.0/24?)'],
    ['2001:db8::1/32', '"2001:db8::1/32": host bits are set (did you mean 2001:db8::/32?)'],
    ['10.0.0.0/33', '"10.0.0.0/33": prefix length 33 is larger than 32'],
    ['::/129', '"::/129": prefix length 129 is larger than 128'],
    ['10.0.0.0/08', '"10.0.0.0/08": prefix length "08" is not a number 0..32'],
    ['10.0.0.0/', '"10.0.0.0/": prefix length "" is not a number 0..32'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8": prefix length "8/8" is not a number 0..32'],
    ['10.0.0.0/ 8', '"10.0.0.0/ 8": prefix length " 8" is not a number 0..32'],
    ['010.0.0.0/8', '"010.0.0.0/8": not an IPv4 or IPv6 address'],
    ['10.0.0/24', '"10.0.0/24": not an IPv4 or IPv6 address'],
    ['/24', '"/24": missing address'],
    ['', '"": missing address'],
    ['fe80::1%eth0', '"fe80::1%eth0": not an IPv4 or IPv6 address'],
  ])('refuses %j', (text, message) => {
    expect(() => parseCidr(text)).toThrow(NetParseError);
    expect(() => parseCidr(text)).toThrow(message);
  });

  it('an error that escapes uncaught says its kind before the message', () => {
    // what a stack trace or String(err) shows when a caller does not catch it
    let caught: unknown;
    try {
      parseCidr('10.0.0.1/24');
    } catch (err) {
      caught = err;
    }
    expect(String(caught)).toBe('NetParseError: "10.0.0.1/24": host bits are set (did you mean 10.0.0.0/24?)');
  });

  it('round-trips every valid prefix: parse(format(c)) = c', () => {
    const v4 = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 })).map(([a, len]) => {
      const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
      return `${[24, 16, 8, 0].map((s) => ((a & mask) >>> s) & 255).join('.')}/${len}`;
    });
    fc.assert(
      fc.property(v4, (text) => {
        const c = parseCidr(text);
        const again = parseCidr(formatCidr(c));
        return again.family === 4 && again.v4 === c.v4 && again.len === c.len;
      }),
    );
  });
});
