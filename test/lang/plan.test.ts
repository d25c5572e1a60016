// The compiled plan `edgesim explain` prints: for each comparison, what it compiled to — the type and
// operator, the constant's size, how a set was merged and searched, which fields a field standing
// for several became (any of them, or all of them for !=), and when the reference evaluator runs it.
import { describe, expect, it } from 'vitest';
import { ArrayOf, bitSlice, compile, compileWithPlan, FIREWALL_SCHEME, interpret, parse, Scheme } from '../../src/lang/index.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { objectBinding, packet } from './packets.js';
import { S } from './schemes.js';

const binding = objectBinding(FIREWALL_SCHEME);
const bad = new IpSetBuilder().addPrefix4(0x0a000000, 8).addPrefix4(0xc0a80000, 16).build();
const lists = (name: string) => (name === 'bad' ? bad : undefined);

function plan(expr: string): string[] {
  return compileWithPlan(parse(expr, FIREWALL_SCHEME), binding, { lists }).plan.map((e) => `${e.expr} -> ${e.compiled}`);
}

describe('the compiled plan explain prints', () => {
  it.each([
    ['tcp.flags.syn', 'tcp.flags.syn -> bool field'],
    ['tcp.dstport == 80', 'tcp.dstport == 80 -> int eq 80'],
    ['tcp.dstport != 80', 'tcp.dstport != 80 -> int ne 80'],
    ['tcp.dstport >= 80', 'tcp.dstport >= 80 -> int ge 80'],
    ['tcp.dstport <= 80', 'tcp.dstport <= 80 -> int le 80'],
    ['tcp.dstport > 80', 'tcp.dstport > 80 -> int gt 80'],
    ['tcp.flags & 0x12', 'tcp.flags & 18 -> int & 18'],
    ['tcp.dstport in {80 81}', 'tcp.dstport in {80 81} -> int set: 2 items -> 1 merged ranges [80..81], direct test'],
    ['tcp.dstport in {80 443 1000..3000 2000..4000}', 'tcp.dstport in {80 443 1000..3000 2000..4000} -> int set: 4 items -> 3 merged ranges [80 443 1000..4000], linear scan'],
    ['ip.src == 10.0.0.1', 'ip.src == 10.0.0.1 -> ip eq, IPv4 only (other family: false)'],
    ['ip.src != ::1', 'ip.src != ::1 -> ip ne, IPv6 only (other family: true)'],
    ['ip.src in {10.0.0.0/8 2001:db8::/32 192.168.0.0/16}', 'ip.src in {10.0.0.0/8 2001:db8::/32 192.168.0.0/16} -> ip set: 3 items -> 2 IPv4 + 1 IPv6 merged ranges, binary search'],
    ['ip.src in $bad', 'ip.src in $bad -> ip list $bad: 2 IPv4 + 0 IPv6 ranges'],
    ['ip.proto == "tcp"', 'ip.proto == "tcp" -> bytes eq (3 bytes)'],
    ['ip.proto != "tcp"', 'ip.proto != "tcp" -> bytes ne (3 bytes)'],
    ['ip.proto < "u"', 'ip.proto < "u" -> bytes lt (1 bytes)'],
    ['ip.proto contains "cp"', 'ip.proto contains "cp" -> bytes contains (2 bytes)'],
    ['ip.proto matches "^t"', 'ip.proto matches r"^t" -> regex: linear-time automaton over bytes'],
    ['ip.proto wildcard "t*p"', 'ip.proto wildcard "t*p" -> wildcard: 2 literal segments, ASCII case-insensitive'],
    ['ip.proto strict wildcard "t*c*p"', 'ip.proto strict wildcard "t*c*p" -> wildcard: 3 literal segments'],
    ['ip.proto in {"tcp" "udp"}', 'ip.proto in {"tcp" "udp"} -> bytes set: 2 items, compared by length then bytes'],
    ['bit_slice(ip, 0, 4) == 4', 'bit_slice(ip, 0, 4) == 4 -> bit_slice -> int; int eq 4'],
    ['ip.geoip.country == "US"', 'ip.geoip.country == "US" -> bytes eq (2 bytes); bytes eq (2 bytes); any of ip.src.country, ip.dst.country'],
    ['ip.geoip.country != "US"', 'ip.geoip.country != "US" -> bytes ne (2 bytes); bytes ne (2 bytes); all of ip.src.country, ip.dst.country'],
  ])('%s', (expr, line) => {
    expect(plan(expr)).toEqual([line]);
  });

  it('shows the first 16 merged ranges of an Int set, and … when there are more', () => {
    const set = (n: number) => `tcp.dstport in {${Array.from({ length: n }, (_, i) => `${10 * i}..${10 * i + 2}`).join(' ')}}`;
    const shown = (n: number) => Array.from({ length: Math.min(n, 16) }, (_, i) => `${10 * i}..${10 * i + 2}`).join(' ');
    expect(plan(set(16))).toEqual([`${set(16)} -> int set: 16 items -> 16 merged ranges [${shown(16)}], binary search`]);
    expect(plan(set(17))).toEqual([`${set(17)} -> int set: 17 items -> 17 merged ranges [${shown(17)} …], binary search`]);
  });

  it('lists a line per comparison, in the order they are written', () => {
    expect(plan('tcp.dstport == 22 and (ip.ttl < 5 or not tcp.flags.ack)')).toEqual([
      'tcp.dstport == 22 -> int eq 22',
      'ip.ttl < 5 -> int lt 5',
      'tcp.flags.ack -> bool field',
    ]);
  });
});

describe('the plan of what does not compile to a primitive test', () => {
  const sBinding = objectBinding(S);
  const sPlan = (expr: string): string[] => compileWithPlan(parse(expr, S), sBinding).plan.map((e) => `${e.expr} -> ${e.compiled}`);

  it('a comparison on an element of an array or map is run by the reference evaluator, and the plan says so', () => {
    expect(sPlan('http.cookies[0] == "a"')).toEqual(['http.cookies[0] == "a" -> reference evaluator (compound values)']);
    expect(sPlan('http.headers["x"] != "a"')).toEqual(['http.headers["x"] != "a" -> reference evaluator (compound values)']);
  });

  it('a quantifier over a vector is run by the reference evaluator, and the plan says so', () => {
    expect(sPlan('any(http.cookies[*] == "a")')).toEqual(['any(http.cookies[*] == "a") -> reference evaluator (vectors)']);
    const { predicate } = compileWithPlan(parse('any(http.cookies[*] == "a") and tcp.dstport == 80', S), sBinding);
    expect(predicate(packet(S, { 'http.cookies': ['b', 'a'], 'tcp.dstport': 80 }))).toBe(true);
    expect(predicate(packet(S, { 'http.cookies': ['b'], 'tcp.dstport': 80 }))).toBe(false);
  });
});

describe('an indexed field of a scheme whose names overlap, compiled as the parser and the interpreter read it', () => {
  // `ports` is a field and a compilable function (the parser takes the field); `hosts` stands for
  // two others, which only its bare comparisons read (indexed, it is the field itself)
  const X = new Scheme({
    fields: { ports: ArrayOf('Int'), hosts: { type: ArrayOf('Bytes'), anyOf: ['a.hosts', 'b.hosts'] }, 'a.hosts': ArrayOf('Bytes'), 'b.hosts': ArrayOf('Bytes') },
    functions: [{ ...bitSlice, name: 'ports' }],
  });
  const xBinding = objectBinding(X);
  const packets = [
    packet(X, { ports: [80, 443], hosts: ['a'], 'a.hosts': ['b'], 'b.hosts': ['c'] }),
    packet(X, { ports: [22], hosts: ['b'], 'a.hosts': ['a'], 'b.hosts': ['a'] }),
    packet(X, {}),
  ];

  it.each([
    ['ports[0] == 80', [true, false, false]],
    ['ports[1] != 443', [false, true, true]],
    ['hosts[0] == "a"', [true, false, false]],
    ['hosts[0] != "a"', [false, true, true]],
  ])('%s', (expr, expected) => {
    const ast = parse(expr, X);
    const { predicate, plan } = compileWithPlan(ast, xBinding);
    expect(plan.map((e) => e.compiled)).toEqual(['reference evaluator (compound values)']);
    expect(packets.map(predicate)).toEqual(expected);
    expect(packets.map((p) => interpret(ast, xBinding, p))).toEqual(expected);
  });
});

describe('a binding that lacks a field the expression reads', () => {
  it('is refused when compiling, naming the field', () => {
    const { 'tcp.dstport': _, ...rest } = binding;
    const ast = parse('ip.ttl > 1 and tcp.dstport == 80', FIREWALL_SCHEME);
    expect(() => compile(ast, rest)).toThrow('the binding has no accessor for field tcp.dstport');
    expect(() => compileWithPlan(ast, rest)).toThrow('the binding has no accessor for field tcp.dstport');
  });
});

describe('and, or and xor of two, three and four operands', () => {
  it('compile to the answers of the reference evaluator on every combination of their operands', () => {
    const names = ['tcp.flags.syn', 'tcp.flags.ack', 'tcp.flags.fin', 'tcp.flags.reset'];
    for (const op of ['and', 'or', 'xor']) {
      for (const n of [2, 3, 4]) {
        const ast = parse(names.slice(0, n).join(` ${op} `), FIREWALL_SCHEME);
        const predicate = compile(ast, binding);
        for (let bits = 0; bits < 1 << n; bits++) {
          const p = Object.fromEntries(names.slice(0, n).map((name, i) => [name, (bits & (1 << i)) !== 0]));
          expect(predicate(p), `${op} of ${n}: ${bits}`).toBe(interpret(ast, binding, p));
        }
      }
    }
  });
});
