// One table of (expression, packet, expected) run against BOTH the compiled predicate and the
// reference interpreter: the evaluation vectors of reference/wirefilter.md §5c (scheme S) and the
// firewall-scheme semantics edgesim adds (geoip either-country, bit_slice, v4/v6, lists, views;
// firewall-rows.ts, which the fast path runs too).
import { describe, expect, it } from 'vitest';
import { compile, FilterError, FIREWALL_SCHEME, interpret, parse, type Scheme } from '../../src/lang/index.js';
import { CONFORMANCE_LISTS, FIREWALL_ROWS, type Row } from './firewall-rows.js';
import { objectBinding, packet } from './packets.js';
import { S, UNIT, LOGICAL } from './schemes.js';

const opts = { lists: (name: string) => CONFORMANCE_LISTS.get(name) };

function run(scheme: Scheme, rows: Row[]) {
  const binding = objectBinding(scheme);
  return rows.map(([expr, values, expected]) => {
    const ast = parse(expr, scheme);
    const p = packet(scheme, values);
    return { expr, values, expected, compiled: compile(ast, binding, opts)(p), interpreted: interpret(ast, binding, p, opts) };
  });
}

function table(name: string, scheme: Scheme, rows: Row[]) {
  describe(name, () => {
    it.each(rows.map((r) => [`${r[0]} with ${JSON.stringify(r[1])}`, r] as const))('%s', (_, row) => {
      const [result] = run(scheme, [row]);
      expect(result.compiled, 'compiled').toBe(result.expected);
      expect(result.interpreted, 'interpreted').toBe(result.expected);
    });
  });
}

table('§5c evaluation vectors (scheme S)', S, [
  ['ip.src in {10.0.0.0/8}', { 'ip.src': '10.1.2.3' }, true],
  ['ip.src in {10.0.0.0/8}', { 'ip.src': '11.0.0.0' }, false],
  ['ip.src == 1.2.3.4', { 'ip.src': '::ffff:1.2.3.4' }, false],
  ['ip.src != 1.2.3.4', { 'ip.src': '::1' }, true],
  ['ip.src < ::1', { 'ip.src': '1.2.3.4' }, false],
  ['ip.src in {10}', { 'ip.src': '10.0.0.1' }, false],
  ['ip.src in {10}', { 'ip.src': '10.0.0.0' }, true],
  ['ip.src in {10.0.0.0..10.0.0.255}', { 'ip.src': '10.0.0.255' }, true],
  ['ip.src in {10.0.0.0/8 ::/0}', { 'ip.src': '::ffff:10.0.0.1' }, true],
  ['ip.src in {10.0.0.0/8}', { 'ip.src': '::ffff:10.0.0.1' }, false],
  ['tcp.dstport in {1..70000}', { 'tcp.dstport': 70000 }, true],
  ['tcp.dstport in {1..70000}', { 'tcp.dstport': 70001 }, false],
  ['tcp.dstport == 80', {}, false],
  ['tcp.dstport < 80', {}, false],
  ['tcp.dstport in {80}', {}, false],
  ['tcp.dstport != 80', {}, true],
  ['not tcp.dstport == 80', {}, true],
  ['tcp.flags.syn', {}, false],
  ['not tcp.flags.syn', {}, true],
  ['tcp.dstport & 3', { 'tcp.dstport': 4 }, false],
  ['tcp.dstport & 3', { 'tcp.dstport': 5 }, true],
  ['http.host contains ""', { 'http.host': 'abc' }, true],
  ['http.host > "a"', { 'http.host': 'b' }, true],
  ['http.host < "ab"', { 'http.host': 'a' }, true],
  ['http.host matches "^a.c$"', { 'http.host': 'abc' }, true],
  ['http.host wildcard "*.EXAMPLE.com"', { 'http.host': 'a.example.com' }, true],
  ['http.host strict wildcard "*.EXAMPLE.com"', { 'http.host': 'a.example.com' }, false],
  ['http.cookies[0] == "a"', { 'http.cookies': [] }, false],
  ['http.cookies[0] != "a"', { 'http.cookies': [] }, true],
  ['http.headers["x"] != "a"', { 'http.headers': {} }, true],
  ['any(http.cookies[*] == "a")', { 'http.cookies': ['b', 'a'] }, true],
  ['all(http.cookies[*] == "a")', { 'http.cookies': ['b', 'a'] }, false],
  ['all(http.cookies[*] == "a")', { 'http.cookies': [] }, true],
  ['all(http.cookies[*] == "a")', {}, true],
  ['any(http.cookies[*] == "a")', {}, false],
  ['any(flags)', {}, false],
  ['all(flags)', {}, false],
  ['ip.src in $blocked', { 'ip.src': '10.0.0.1' }, false],
  ['ssl xor ssl xor ssl', { ssl: true }, true],
  ['http.host == "\\x41\\101\\"\\\\"', { 'http.host': 'AA"\\' }, true],
  ['tcp.dstport in {-5..-1 0x10 010}', { 'tcp.dstport': 8 }, true],
  ['tcp.dstport in {-5..-1 0x10 010}', { 'tcp.dstport': 9 }, false],
  ['http.host >= 10:20:30:40:50:60:70:80', { 'http.host': new Uint8Array([0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80]) }, true],
  ['any(flags and flags)', { flags: [false, true] }, true],
  ['all(not flags)', { flags: [false, false] }, true],
  ['any(concat(http.cookies, http.cookies)[*] == "z")', { 'http.cookies': ['a', 'z'] }, true],
  ['concat(http.host, "x") == "abx"', { 'http.host': 'ab' }, true],
  ['any(ports[*] in {443})', { ports: [80, 443] }, true],
  ['http.headers["k"] contains "al"', { 'http.headers': { k: 'value' } }, true],
  ['tcp.dstport == 0x1f5 and tcp.srcport == 0123', { 'tcp.dstport': 501, 'tcp.srcport': 83 }, true],
  ['tcp.dstport == -010', { 'tcp.dstport': -10 }, true],
  ['ip.src in {1.1.1.01}', { 'ip.src': '1.1.1.1' }, true],
  ['ip.src in {192.168}', { 'ip.src': '192.168.0.0' }, true],
  ['http.host wildcard "a?c"', { 'http.host': 'A?C' }, true],
  ['http.host wildcard "a?c"', { 'http.host': 'abc' }, false],
  ['http.host strict wildcard "a\\\\*"', { 'http.host': 'a*' }, true],
  ['http.host strict wildcard "a\\\\*"', { 'http.host': 'ab' }, false],
  ['http.host wildcard "*a*a*"', { 'http.host': 'aa' }, true],
  ['http.host wildcard "*a*a*"', { 'http.host': 'a' }, false],
  ['http.host matches "a\\.b"', { 'http.host': 'a.b' }, true],
  ['http.host matches "a\\.b"', { 'http.host': 'axb' }, false],
  ['http.host matches "[\\"]"', { 'http.host': 'x"y' }, true],
  ['http.host matches "é"', { 'http.host': 'café' }, true],
  ['http.host == "é"', { 'http.host': new Uint8Array([0xc3, 0xa9]) }, true],
  ['http.host contains 61-62', { 'http.host': 'xaby' }, true],
]);

table('engine unit-test evaluations', UNIT, [
  ['tcp.port in { 80 443 2082..2083 }', { 'tcp.port': 2081 }, false],
  ['tcp.port in { 80 443 2082..2083 }', { 'tcp.port': 2082 }, true],
  ['tcp.port in { 80 443 2082..2083 }', { 'tcp.port': 2083 }, true],
  ['tcp.port in { 80 443 2082..2083 }', { 'tcp.port': 2084 }, false],
  ['ip.addr in { 127.0.0.0/8 ::1 10.0.0.0..10.0.255.255 }', { 'ip.addr': '127.0.0.3' }, true],
  ['ip.addr in { 127.0.0.0/8 ::1 10.0.0.0..10.0.255.255 }', { 'ip.addr': '::2' }, false],
]);

table('vectors of Bool combine element-wise, truncated to the shortest', LOGICAL, [
  ['any(at and af)', { at: [true, false, true], af: [false, false, true] }, true],
  ['all(at or af)', { at: [true, false, true], af: [false, false, true] }, false],
  ['all(at xor af)', { at: [true, false], af: [false, true, true] }, true],
]);

table('firewall scheme', FIREWALL_SCHEME, FIREWALL_ROWS);

describe('lists', () => {
  it('compile and interpret reject a list they cannot resolve, pointing at its name', () => {
    const ast = parse('tcp.dstport == 1 or ip.src in $nope', FIREWALL_SCHEME);
    const binding = objectBinding(FIREWALL_SCHEME);
    for (const attempt of [() => compile(ast, binding, opts), () => interpret(ast, binding, {}, opts)]) {
      let err: unknown;
      try {
        attempt();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FilterError);
      expect((err as FilterError).code).toBe('unknown_list');
      expect((err as FilterError).message).toBe(
        'Filter parsing error (1:31):\ntcp.dstport == 1 or ip.src in $nope\n                              ^^^^^ unknown list $nope\n',
      );
    }
  });
});
