// Properties over random well-typed firewall expressions (every spelling the grammar allows:
// word and C-like operators, hex/octal/negative ints, short IPv4 and ranges in sets, quoted/raw/hex
// byte strings, wildcards, regexes, bit_slice, lists, nesting) and random packets (fields absent
// at random, IPv4 and IPv6, byte strings as offset views):
// - the compiled predicate and the reference interpreter always agree;
// - printing and re-parsing gives the same tree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIPv4 } from '../../src/net/ipv4.js';
import { formatIPv6 } from '../../src/net/ipv6.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { compile, FIREWALL_SCHEME, interpret, parse, printExpr } from '../../src/lang/index.js';
import { ip, objectBinding, view, type ObjPacket } from './packets.js';

const INT_FIELDS = ['ip.len', 'ip.ttl', 'ip.hdr_len', 'ip.opt.type', 'ip.src.asnum', 'ip.dst.asnum', 'tcp.srcport', 'tcp.dstport', 'tcp.flags', 'udp.srcport', 'udp.dstport', 'icmp.type', 'icmp.code'];
const IP_FIELDS = ['ip.src', 'ip.dst'];
const BYTES_FIELDS = ['ip.proto', 'ip.src.country', 'ip.dst.country', 'ip.geoip.country', 'cf.colo.name', 'cf.colo.region'];
const RAW_FIELDS = ['ip', 'tcp', 'udp', 'icmp'];
const BOOL_FIELDS = ['tcp.flags.ack', 'tcp.flags.cwr', 'tcp.flags.ecn', 'tcp.flags.fin', 'tcp.flags.push', 'tcp.flags.reset', 'tcp.flags.syn', 'tcp.flags.urg', 'sip'];

const INT_POOL = [0, 1, 2, 3, 5, 18, 53, 64, 80, 255, 443, 1000, 13335, 65535, 70000];
const V4_POOL = ['10.0.0.1', '10.0.0.0', '10.255.255.255', '192.0.2.1', '198.51.100.7', '0.0.0.0', '255.255.255.255', '172.16.5.4'];
const V6_POOL = ['::', '::1', '2001:db8::1', '2001:db8::', '::ffff:10.0.0.1', 'fe80::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'];
const STRING_POOL = ['tcp', 'udp', 'icmp', 'US', 'DE', 'BR', 'sfo06', 'WNAM', 'wnam', '', 'a"b', 'tc', 'tcpx'];
const WILDCARDS = ['*', 't*', '*p', 'W*M', 's?o*', '*a*b*', 'tcp', '\\\\*', 'u*p', '*N*'];
const REGEXES = ['^t', 'p$', '[a-z]+\\d', '^(tcp|udp)$', '.', '^$', 'W.AM', '(?i)wnam', 'c.?p', '[[:upper:]]{2}'];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const sp = fc.constantFrom(' ', '  ', '\n', ' \r\n ');

const intText = fc.oneof(
  fc.integer({ min: -5, max: 70001 }).map(String),
  { arbitrary: pick(INT_POOL).map(String), weight: 4 },
  fc.integer({ min: 0, max: 65535 }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 0, max: 4095 }).map((n) => `0${n.toString(8)}`),
);
const intRange = fc.tuple(fc.integer({ min: -3, max: 70000 }), fc.integer({ min: 0, max: 3000 })).map(([a, w]) => (w === 0 ? `${a}` : `${a}..${a + w}`));

const v4 = fc.oneof({ arbitrary: pick(V4_POOL), weight: 3 }, fc.integer({ min: 0, max: 0xffffffff }).map(formatIPv4));
const v6 = fc.oneof({ arbitrary: pick(V6_POOL), weight: 3 }, fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 4, maxLength: 4 }).map((w) => formatIPv6(Uint32Array.from(w))));
const addr = fc.oneof(v4, v6);

function masked(text: string, len: number): string {
  const a = ip(text);
  if (a.family === 4) return formatIPv4(len === 0 ? 0 : (a.v4 & (0xffffffff << (32 - len))) >>> 0);
  const w = Uint32Array.from(a.v6);
  for (let i = 0; i < 4; i++) {
    const keep = Math.max(0, Math.min(32, len - 32 * i));
    w[i] = keep === 0 ? 0 : (w[i] & (0xffffffff << (32 - keep))) >>> 0;
  }
  return formatIPv6(w);
}
const ipItem = fc.oneof(
  addr,
  fc.tuple(v4, fc.integer({ min: 0, max: 32 })).map(([a, l]) => `${masked(a, l)}/${l}`),
  fc.tuple(v6, fc.integer({ min: 0, max: 128 })).map(([a, l]) => `${masked(a, l)}/${l}`),
  fc.tuple(v4, v4).map(([a, b]) => (ip(a).family === 4 && (ip(a) as { v4: number }).v4 <= (ip(b) as { v4: number }).v4 ? `${a}..${b}` : `${b}..${a}`)),
  pick(['10', '10.1', '192.168', '1.1.1.01', '010.0.0.0/8']),
);

const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const bytesLit = fc.oneof(
  pick(STRING_POOL).map(quoted),
  pick(STRING_POOL).map((s) => `r#"${s}"#`),
  pick(['74:63:70', '55-53', '44.45', '57:4e:41:4d']),
  pick(STRING_POOL).map((s) => `"${[...s].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}"`),
);

const ORDER_OPS = ['==', 'eq', '!=', 'ne', '<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge'];
const set = (item: fc.Arbitrary<string>) => fc.array(item, { maxLength: 5 }).map((xs) => `{${xs.join(' ')}}`);

const intCmp = fc.tuple(pick(INT_FIELDS), fc.oneof(
  fc.tuple(pick(ORDER_OPS), intText).map(([op, v]) => `${op} ${v}`),
  intText.map((v) => `& ${v}`),
  set(intRange).map((s) => `in ${s}`),
)).map(([f, rest]) => `${f} ${rest}`);
const ipCmp = fc.tuple(pick(IP_FIELDS), fc.oneof(
  fc.tuple(pick(ORDER_OPS), addr).map(([op, v]) => `${op} ${v}`),
  set(ipItem).map((s) => `in ${s}`),
  pick(['in $bad', 'in $blocked']),
)).map(([f, rest]) => `${f} ${rest}`);
const bytesCmp = fc.tuple(pick(BYTES_FIELDS), fc.oneof(
  fc.tuple(pick(ORDER_OPS), bytesLit).map(([op, v]) => `${op} ${v}`),
  bytesLit.map((v) => `contains ${v}`),
  set(bytesLit).map((s) => `in ${s}`),
  pick(WILDCARDS).map((w) => `wildcard "${w}"`),
  pick(WILDCARDS).map((w) => `strict wildcard "${w}"`),
  pick(REGEXES).map((r) => `matches r"${r}"`),
  pick(REGEXES).map((r) => `~ "${r.replace(/\\/g, '\\\\')}"`),
)).map(([f, rest]) => `${f} ${rest}`);
const rawCmp = fc.oneof(
  fc.tuple(pick(RAW_FIELDS), pick(['45:00', '00:50', '01:bb-c3', '08.00'])).map(([f, h]) => `${f} contains ${h}`),
  fc.tuple(pick(RAW_FIELDS), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 32 }), pick(ORDER_OPS), intText).map(
    ([f, s, w, op, v]) => `bit_slice(${f}, ${s}, ${s + w}) ${op} ${v}`,
  ),
);
const comparison = fc.oneof(intCmp, ipCmp, bytesCmp, rawCmp, pick(BOOL_FIELDS));

const { expr } = fc.letrec<{ expr: string; leaf: string }>((tie) => ({
  leaf: comparison,
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.tuple(pick(['not ', '! ', '!']), tie('expr')).map(([n, e]) => `${n}(${e})`),
    fc.tuple(pick(['not ', '!']), tie('leaf')).map(([n, e]) => `${n}${e}`),
    fc.tuple(tie('expr'), sp, pick(['and', 'or', 'xor', '&&', '||', '^^']), sp, tie('expr')).map(([a, s1, op, s2, b]) => `${a}${s1}${op}${s2}${b}`),
    tie('expr').map((e) => `(${e})`),
  ),
}));

const lists = new Map([
  ['blocked', new IpSetBuilder().build()],
  ['bad', new IpSetBuilder().addPrefix4((ip('10.0.0.0') as { v4: number }).v4, 8).addPrefix6((ip('2001:db8::') as { v6: Uint32Array }).v6, 32).build()],
]);
const opts = { lists: (name: string) => lists.get(name) };

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { freq: 5, nil: undefined });
const bytesValue = fc.oneof(pick(STRING_POOL).map((s) => view(s, 2)), fc.uint8Array({ maxLength: 40 }).map((b) => view(b, 5)));
const packetArb: fc.Arbitrary<ObjPacket> = fc.record({
  ...Object.fromEntries(INT_FIELDS.map((f) => [f, maybe(fc.oneof({ arbitrary: pick(INT_POOL), weight: 5 }, fc.integer({ min: 0, max: 2 ** 33 })))])),
  ...Object.fromEntries(IP_FIELDS.map((f) => [f, maybe(addr.map(ip))])),
  ...Object.fromEntries(['ip.proto', 'ip.src.country', 'ip.dst.country', 'cf.colo.name', 'cf.colo.region'].map((f) => [f, maybe(bytesValue)])),
  ...Object.fromEntries(RAW_FIELDS.map((f) => [f, maybe(fc.uint8Array({ maxLength: 40 }).map((b) => view(b, 1)))])),
  ...Object.fromEntries(BOOL_FIELDS.map((f) => [f, maybe(fc.boolean())])),
}) as fc.Arbitrary<ObjPacket>;

function withoutSpans(x: unknown): unknown {
  if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x)) return x;
  if (Array.isArray(x)) return x.map(withoutSpans);
  return Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'span').map(([k, v]) => [k, withoutSpans(v)]));
}

const binding = objectBinding(FIREWALL_SCHEME);

describe('properties over random firewall expressions', () => {
  it('the generator only produces valid expressions', () => {
    fc.assert(fc.property(expr, (e) => {
      parse(e, FIREWALL_SCHEME);
    }), { numRuns: 300 });
  });

  it('compiled ≡ interpreted on random packets', () => {
    fc.assert(
      fc.property(expr, fc.array(packetArb, { minLength: 8, maxLength: 16 }), (e, packets) => {
        const ast = parse(e, FIREWALL_SCHEME);
        const predicate = compile(ast, binding, opts);
        for (const p of packets) expect(predicate(p), `${e} on ${JSON.stringify(p)}`).toBe(interpret(ast, binding, p, opts));
      }),
      { numRuns: 500 },
    );
  });

  it('parse(printExpr(ast)) has the same tree as ast', () => {
    fc.assert(
      fc.property(expr, (e) => {
        const ast = parse(e, FIREWALL_SCHEME);
        const printed = printExpr(ast);
        expect(withoutSpans(parse(printed, FIREWALL_SCHEME).expr), printed).toEqual(withoutSpans(ast.expr));
        expect(printExpr(parse(printed, FIREWALL_SCHEME))).toBe(printed);
      }),
      { numRuns: 300 },
    );
  });

  it('both sides of a field that is absent: every comparison false except != (and not inverts)', () => {
    fc.assert(
      fc.property(fc.oneof(intCmp, ipCmp, bytesCmp), (c) => {
        const ast = parse(c, FIREWALL_SCHEME);
        const expected = /^\S+ (!=|ne) /.test(c);
        expect(compile(ast, binding, opts)({})).toBe(expected);
        expect(compile(parse(`not ${c}`, FIREWALL_SCHEME), binding, opts)({})).toBe(!expected);
      }),
      { numRuns: 200 },
    );
  });
});
