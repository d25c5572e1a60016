// validateExpression: schemes and limits per kind (rule: firewall scheme, 4,096 characters;
// filter: ATP filter scheme, 8,192), the complexity limit on both sides, the legacy message shape.
import { describe, expect, it } from 'vitest';
import { FilterError, legacyMessage, parse, validateExpression, FIREWALL_SCHEME, type Expr } from '../../src/lang/index.js';

const groups = (n: number) =>
  Array.from({ length: n }, (_, i) => `(tcp.dstport == ${1000 + 2 * i} || tcp.dstport == ${1001 + 2 * i})`).join(' && ');

describe('validateExpression', () => {
  it('accepts the documented firewall and filter examples', () => {
    for (const e of [
      'ip.proto eq "tcp" and ip.dst in $endpoints and tcp.dstport in {32768..60999} and not (tcp.flags.syn and not tcp.flags.ack)',
      'ip.proto eq "icmp" and ip.dst in $endpoints and (icmp.type eq 0 or icmp.type eq 3 or icmp.type eq 11)',
      'ip.src == 192.0.2.1 && (tcp.flags.push || tcp.flags.reset)',
      'ip.geoip.country == "BR"',
      'ip.src.country == "BR"',
      'tcp.dstport in { 1..65535 }',
      'bit_slice(udp, 64, 72) == 0x45 and ip.src.asnum in {13335 15169}',
      'cf.colo.region == "WNAM" and sip',
    ]) {
      expect(validateExpression(e, 'rule')).toBeNull();
    }
    expect(validateExpression('ip.dst in { 192.0.2.0/24 203.0.113.0/24 } and tcp.dstport in { 80 443 10000..65535 }', 'filter')).toBeNull();
  });

  it('the filter scheme knows only four fields, no functions and no lists', () => {
    expect(validateExpression('ip.proto == "tcp"', 'filter')?.reason).toBe('unknown identifier');
    expect(validateExpression('bit_slice(tcp, 0, 8) == 1', 'filter')?.reason).toBe('unknown identifier');
    const list = validateExpression('ip.src in $blocked', 'filter')!;
    expect([list.reason, list.start, list.end]).toEqual(['cannot perform this operation on type Ip', 7, 18]);
  });

  it('firewall lists exist for Ip only', () => {
    expect(validateExpression('tcp.dstport in $ports', 'rule')?.reason).toBe('cannot perform this operation on type Int');
  });

  it('bit_slice checks its arguments with the engine messages', () => {
    const cases: Array<[string, string]> = [
      ['bit_slice("ab", 0, 8) == 1', 'invalid kind of argument #0: expected argument of kind Field, but got Literal'],
      ['bit_slice(tcp.dstport, 0, 8) == 1', 'invalid type of argument #0: expected value of type Bytes, but got Int'],
      ['bit_slice(ip.proto, 0, 8) == 1', 'invalid value of argument #0: invalid argument: "protocol must be one of the fields ip, tcp, udp, icmp"'],
      ['bit_slice(tcp, tcp.dstport, 8) == 1', 'invalid kind of argument #1: expected argument of kind Literal, but got Field'],
      ['bit_slice(tcp, 0, 33) == 1', 'invalid value of argument #2: invalid argument: "end - start must be between 1 and 32 bits"'],
      ['bit_slice(tcp, 8, 8) == 1', 'invalid value of argument #2: invalid argument: "end - start must be between 1 and 32 bits"'],
      ['bit_slice(tcp, 2030, 2041) == 1', 'invalid value of argument #2: invalid argument: "end must be at most 2040"'],
      ['bit_slice(tcp, 0, 8, 9) == 1', 'invalid number of arguments'],
      ['bit_slice(tcp, 0) == 1', 'invalid number of arguments'],
    ];
    for (const [e, reason] of cases) expect(validateExpression(e, 'rule')?.reason, e).toBe(reason);
    expect(validateExpression('bit_slice(tcp, 2008, 2040) == 1', 'rule')).toBeNull();
  });

  it('length limits: 4,096 characters for rules, 8,192 for filters, counted in characters', () => {
    const long = (n: number) => `tcp.dstport in {${'1 '.repeat((n - 17) / 2)}}`;
    expect(long(4095).length).toBe(4095);
    expect(validateExpression(long(4095), 'rule')).toBeNull();
    const err = validateExpression(long(4097), 'rule')!;
    expect(err.code).toBe('too_long');
    expect(err.message).toBe('expression is too long: 4097 characters, the limit is 4096');
    expect(validateExpression(long(4097), 'filter')).toBeNull();
    expect(validateExpression(long(8193), 'filter')?.code).toBe('too_long');
    expect(validateExpression(`ip.proto == "${'é'.repeat(10)}"`, 'rule', { maxLength: 24 })).toBeNull();
  });

  it('complexity: the documented nine OR-groups fail, eight pass; the limit is configurable', () => {
    const nine = validateExpression(groups(9), 'rule')!;
    expect([nine.code, nine.message]).toEqual(['too_complex', 'ruleset exceeds complexity constraints']);
    expect(validateExpression(groups(8), 'rule')).toBeNull();
    expect(validateExpression(groups(9), 'filter')?.code).toBe('too_complex');
    expect(validateExpression(groups(9), 'rule', { complexityLimit: 512 })).toBeNull();
    expect(validateExpression(groups(3), 'rule', { complexityLimit: 4 })?.code).toBe('too_complex');
  });

  it('returns syntax errors as FilterError with the engine text', () => {
    const err = validateExpression('ip.src==34', 'rule');
    expect(err).toBeInstanceOf(FilterError);
    expect(err!.message).toBe("Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax\n");
  });
});

describe('legacyMessage (cloudflare.md §3)', () => {
  it('reproduces both documented validate-expr messages', () => {
    const a = 'ip.src==34';
    expect(legacyMessage(a, validateExpression(a, 'rule')!)).toBe(
      "Filter parsing error:\n`ip.src==34`\n          ^^ couldn't parse address in network: invalid IP address syntax\n",
    );
    const b = 'ip.src in {2400:cb00::/32 2405:8100::/2000 2c0f:f248::/32 2a06:98c0::/29}';
    expect(legacyMessage(b, validateExpression(b, 'rule')!)).toBe(
      `Filter parsing error:\n\`${b}\`\n${' '.repeat(40)}^^^^ number too large to fit in target type while parsing with radix 10\n`,
    );
  });
});

describe('tree shapes', () => {
  const shape = (e: Expr): unknown => {
    if (e.kind === 'combining') return { [e.op]: e.items.map(shape) };
    if (e.kind === 'not') return { not: shape(e.arg) };
    if (e.kind === 'group') return { group: shape(e.expr) };
    if (e.kind === 'quantifier') return { [e.which]: shape(e.arg) };
    return e.lhs.base.kind === 'field' ? e.lhs.base.name : e.lhs.base.name + '()';
  };
  it('flattens runs and follows or < xor < and < not', () => {
    expect(shape(parse('tcp.flags.syn or sip && sip and sip or sip ^^ sip and sip || sip', FIREWALL_SCHEME).expr)).toEqual({
      or: ['tcp.flags.syn', { and: ['sip', 'sip', 'sip'] }, { xor: ['sip', { and: ['sip', 'sip'] }] }, 'sip'],
    });
    expect(shape(parse('tcp.dstport > 80 or tcp.dstport < 10 xor sip and not sip', FIREWALL_SCHEME).expr)).toEqual({
      or: ['tcp.dstport', { xor: ['tcp.dstport', { and: ['sip', { not: 'sip' }] }] }],
    });
    expect(shape(parse('not sip && sip', FIREWALL_SCHEME).expr)).toEqual({ and: [{ not: 'sip' }, 'sip'] });
    expect(shape(parse('(sip or sip) or sip', FIREWALL_SCHEME).expr)).toEqual({ or: [{ group: { or: ['sip', 'sip'] } }, 'sip'] });
  });
});
