// The packet classifier (src/fastpath/classifier.ts). First on its own: for random required values
// (conjuncts.ts) and random packets, the candidate masks it leaves are exactly the rules whose every
// required value the packet has — no rule that can match is left out, and none that cannot is kept
// (the key index it replaces kept them: it filed a rule under one field only). Then end to end: random
// rulesets of many overlapping CIDR, range, port and protocol rules, skip, block and log mixed,
// over packets whose addresses and ports sit on and beside the rules' bounds, decide exactly as the
// reference path (decoder + evaluator) and as testing every rule in order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_WORDS, planClassifier } from '../../src/fastpath/classifier.js';
import { FastFirewall } from '../../src/fastpath/fast-firewall.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { type Admitted, SORTED_FIELDS, type SortedField } from '../../src/fastpath/conjuncts.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { ethernet, icmp, ipv4, ipv6, pcapFile, tcp, udp } from '../capture/helpers/build.js';
import { type Rule, rulesets, run } from './helpers.js';

const GROUP_RULES = 32;

/** the candidate masks the classifier's source leaves for one packet (0 for a group it does not visit; without a classifier, every rule) */
function classify(required: ReadonlyArray<ReadonlyMap<SortedField, Admitted>>, packet: Packet): number[] {
  const groups = Math.ceil(required.length / GROUP_RULES);
  const groupOf = Int32Array.from(required, (_, i) => Math.floor(i / GROUP_RULES));
  const bitOf = Int32Array.from(required, (_, i) => i % GROUP_RULES);
  const plan = planClassifier(required, groupOf, bitOf, groups);
  if (plan === null) return Array.from({ length: groups }, (_, g) => (g === groups - 1 && required.length % GROUP_RULES !== 0 ? (1 << required.length % GROUP_RULES) - 1 : -1));
  const names = Object.keys(plan.helpers);
  const locals = ['fam', 's4', 'd4', 'tcp', 'udp', 'sport', 'dport'];
  const masks = Array.from({ length: groups }, (_, g) => `((${plan.groupsIn(String(g >>> 5))}) & ${1 << (g & 31)}) === 0 ? 0 : ${plan.maskOf(String(g))}`);
  const fill = new Function(...names, ...locals, `${plan.source}\nreturn [${masks.join(', ')}];`) as (...args: unknown[]) => number[];
  return fill(...names.map((n) => plan.helpers[n]), packet.v4 ? 4 : 6, packet.src, packet.dst, packet.proto === 'tcp' ? 1 : 0, packet.proto === 'udp' ? 1 : 0, packet.sport, packet.dport);
}

interface Packet {
  v4: boolean;
  src: number;
  dst: number;
  proto: 'tcp' | 'udp' | 'icmp';
  sport: number;
  dport: number;
}

/** the packet's value of a sorted field, or null where it has none (IPv6 addresses, another transport) */
function valueOf(p: Packet, field: SortedField): number | null {
  if (field === 'ip.src') return p.v4 ? p.src : null;
  if (field === 'ip.dst') return p.v4 ? p.dst : null;
  if (!field.startsWith(p.proto)) return null;
  return field.endsWith('srcport') ? p.sport : p.dport;
}

/** the masks of the rules whose every required value the packet has */
function expected(required: ReadonlyArray<ReadonlyMap<SortedField, Admitted>>, p: Packet): number[] {
  const masks = new Array<number>(Math.ceil(required.length / GROUP_RULES)).fill(0);
  required.forEach((r, i) => {
    const meets = [...r].every(([field, admitted]) => {
      const v = valueOf(p, field);
      return v === null ? admitted.other : admitted.spans.some(([lo, hi]) => lo <= v && v <= hi);
    });
    if (meets) masks[Math.floor(i / GROUP_RULES)] |= 1 << (i % GROUP_RULES);
  });
  return masks;
}

// values near a few bases, so spans overlap and packets land on their bounds
const ADDRESS_BASES = [0x0a000000, 0x0a420000, 0xcb007100, 0xffffff00];
const PORT_BASES = [0, 22, 80, 443, 1024, 65535];
const address = fc.tuple(fc.constantFrom(...ADDRESS_BASES), fc.integer({ min: -2, max: 300 })).map(([b, d]) => Math.min(0xffffffff, Math.max(0, b + d)));
const port = fc.tuple(fc.constantFrom(...PORT_BASES), fc.integer({ min: -2, max: 40 })).map(([b, d]) => Math.min(0xffff, Math.max(0, b + d)));

const spansOf = (value: fc.Arbitrary<number>) =>
  fc.array(fc.tuple(value, value), { maxLength: 4 }).map((pairs) => {
    const sorted = pairs.map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const).sort((x, y) => x[0] - y[0]);
    const disjoint: Array<[number, number]> = [];
    for (const [lo, hi] of sorted) {
      const last = disjoint[disjoint.length - 1];
      if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else disjoint.push([lo, hi]);
    }
    return disjoint;
  });
const admitted = (field: SortedField) => fc.record({ spans: spansOf(field.startsWith('ip.') ? address : port), other: fc.boolean() });
const requiredValues = fc.subarray([...SORTED_FIELDS], { maxLength: 3 }).chain((fields) =>
  fc.tuple(...fields.map((f) => admitted(f))).map((values) => new Map<SortedField, Admitted>(fields.map((f, i) => [f, values[i]!]))),
);
const packet = fc.record({ v4: fc.boolean(), src: address, dst: address, proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const), sport: port, dport: port });

describe('classifier candidate masks', () => {
  it('keep exactly the rules whose every required value the packet has', () => {
    fc.assert(
      fc.property(fc.array(requiredValues, { minLength: 1, maxLength: 100 }), fc.array(packet, { minLength: 1, maxLength: 20 }), (required, packets) => {
        for (const p of packets) expect(classify(required, p)).toEqual(expected(required, p));
      }),
      { numRuns: 300 },
    );
  });

  it('is not built past its memory bound', () => {
    // n rules, one address each: 2n + 1 intervals and an interval for other packets, each a vector of n / 32 words
    const plan = (n: number) => {
      const required = Array.from({ length: n }, (_, i) => new Map<SortedField, Admitted>([['ip.dst', { spans: [[2 * i + 1, 2 * i + 1]], other: false }]]));
      return planClassifier(required, Int32Array.from(required, (_, i) => Math.floor(i / GROUP_RULES)), Int32Array.from(required, (_, i) => i % GROUP_RULES), Math.ceil(n / GROUP_RULES));
    };
    const words = (n: number) => (2 * n + 2) * Math.ceil(n / GROUP_RULES);
    expect(words(8192)).toBeGreaterThan(MAX_WORDS);
    expect(plan(8192)).toBeNull();
    expect(words(8100)).toBeLessThanOrEqual(MAX_WORDS);
    expect(plan(8100)).not.toBeNull();
  });
});

describe('how a large ruleset picks rules', () => {
  const picking = (expression: (i: number) => string, index?: 'classifier' | 'keys' | 'none') =>
    FastFirewall.compile(Firewall.compile(rulesets(Array.from({ length: 200 }, (_, i): Rule => [`r${i}`, 'block', expression(i)]))), { index }).picking;

  it('keeps the key index where its keys file few rules, and classifies where one key files many', () => {
    expect(picking((i) => `tcp.dstport == ${1000 + i}`)).toBe('keys');
    expect(picking((i) => `ip.dst in { 203.0.113.0/24 } and tcp.dstport == ${1000 + i}`)).toBe('classifier');
    expect(picking((i) => `tcp.dstport == ${1000 + i}`, 'classifier')).toBe('classifier');
    expect(picking((i) => `ip.ttl == ${i}`)).toBe('keys');
  });
});

// ---- end to end ----

const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const bad = new IpSetBuilder().addPrefix4(parseIPv4('10.66.0.0'), 16).build();
const lists = (name: string) => (name === 'bad' ? bad : undefined);

const cidr = fc.tuple(address, fc.constantFrom(8, 16, 23, 24, 30, 31, 32)).map(([a, len]) => `${v4(len === 32 ? a : (a & ~(2 ** (32 - len) - 1)) >>> 0)}/${len}`);
const range = fc.tuple(address, address).map(([a, b]) => `${v4(Math.min(a, b))}..${v4(Math.max(a, b))}`);
const addressItem = fc.oneof(cidr, cidr, range, fc.constantFrom('2001:db8::/32', '::1'));
const portItem = fc.oneof(port.map(String), fc.tuple(port, port).map(([a, b]) => `${Math.min(a, b)}..${Math.max(a, b)}`));
const portField = fc.constantFrom('tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport');
const conjunct = fc.oneof(
  fc.tuple(fc.constantFrom('ip.src', 'ip.dst'), fc.array(addressItem, { minLength: 1, maxLength: 4 })).map(([f, items]) => `${f} in { ${items.join(' ')} }`),
  fc.tuple(fc.constantFrom('ip.src', 'ip.dst'), address).map(([f, a]) => `${f} == ${v4(a)}`),
  fc.tuple(portField, fc.array(portItem, { minLength: 1, maxLength: 3 })).map(([f, items]) => `${f} in { ${items.join(' ')} }`),
  fc.tuple(portField, fc.constantFrom('==', '<', '<=', '>', '>=', '!='), port).map(([f, op, p]) => `${f} ${op} ${p}`),
  fc.constantFrom('ip.src in $bad', 'ip.proto == "tcp"', 'ip.proto == "udp"', 'not ip.dst in { 10.0.0.0/8 }', 'tcp.flags.syn', 'ip.ttl < 64'),
);
const rule = fc.tuple(fc.constantFrom('block' as const, 'skip' as const, 'log' as const), fc.array(conjunct, { minLength: 1, maxLength: 3 }), fc.boolean()).map(
  ([action, items, or]) => [action, or && items.length > 1 ? `${items[0]} or (${items.slice(1).join(' and ')})` : items.join(' and ')] as const,
);
const ruleset = fc.array(rule, { minLength: 1, maxLength: 120 }).map((rs) => rs.map(([action, e], i): Rule => [`r${i}`, action, e]));

function frame(p: Packet): Uint8Array {
  const payload = p.proto === 'tcp' ? tcp(p.sport, p.dport, p.sport & 0x12) : p.proto === 'udp' ? udp(p.sport, p.dport) : icmp(8, 0);
  const proto = { tcp: 6, udp: 17, icmp: p.v4 ? 1 : 58 }[p.proto];
  const ip = p.v4 ? ipv4({ src: v4(p.src), dst: v4(p.dst), proto, ttl: 1 + (p.dst % 128) }, payload) : ipv6({ src: '2001:db8::1', dst: '::1', next: proto, hopLimit: 64 }, payload);
  return ethernet(p.v4 ? 0x0800 : 0x86dd, ip);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-classifier-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('classified rulesets vs decoder + evaluator', () => {
  it('decide every packet as the reference path and as testing every rule', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(ruleset, fc.array(packet, { minLength: 1, maxLength: 80 }), async (rules, packets) => {
        const file = path.join(dir, `${n++}.pcap`);
        writeFileSync(file, pcapFile({}, packets.map((p, i) => ({ sec: 1_700_000_000 + i, frac: i, data: frame(p) }))));
        const reference = await run(file, rules, { lists, mode: 'reference' });
        for (const mode of ['classifier', 'none'] as const) {
          const got = await run(file, rules, { lists, mode });
          expect(got.fast).toBe(packets.length);
          expect(got.ndjson).toBe(reference.ndjson);
          expect(got.hits).toEqual(reference.hits);
          expect(got.decided).toEqual(reference.decided);
        }
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
