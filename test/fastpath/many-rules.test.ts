// Large rulesets of the shapes the key index files beyond ports and addresses (rule-keys.ts: ip.len,
// ip.ttl, tcp.flags, ICMP type and code, each side of an `or`) and of many payload tests on one field
// (payload-filter.ts: one search for every rule's bytes), through the key index and the classifier:
// the same per-packet NDJSON and rule counters as the reference path (decoder + evaluator), over
// random rulesets of each shape mixed and random packets whose payloads are drawn from a few bytes, so
// that the rules' patterns, lengths, flags and ports match often.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { containsView } from '../../src/lang/eval/bytes.js';
import { FIREWALL_SCHEME, parse } from '../../src/lang/index.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { containsRequirement, PatternScanner } from '../../src/fastpath/payload-filter.js';
import { fileRules, filingChoices } from '../../src/fastpath/rule-keys.js';
import { bytes, ethernet, icmp, ipv4, ipv6, pcapFile, tcp, udp } from '../capture/helpers/build.js';
import { type Rule, run } from './helpers.js';

const V4 = ['10.0.0.1', '10.1.2.3', '192.168.1.1', '203.0.113.10'];
const V6 = ['2001:db8::1', 'fe80::1'];
const PORTS = [22, 53, 80, 443, 40000];
const BYTES = [0x00, 0x01, 0xff, 0x41];
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const hex = (b: number[]) => b.map((x) => x.toString(16).padStart(2, '0')).join(':');

const bad = new IpSetBuilder().addPrefix4(parseIPv4('10.0.0.0'), 8).build();
const lists = (name: string) => (name === 'bad' ? bad : undefined);

const payload = fc.array(pick(BYTES), { maxLength: 24 }).map((b) => Uint8Array.from(b));
const frame = fc.record({
  v6: fc.boolean(),
  src: fc.nat(),
  dst: fc.nat(),
  ttl: pick([1, 2, 64, 200]),
  kind: pick(['tcp', 'udp', 'icmp'] as const),
  sport: pick(PORTS),
  dport: pick(PORTS),
  flags: fc.integer({ min: 0, max: 31 }),
  type: pick([0, 3, 8]),
  code: pick([0, 1]),
  data: payload,
  cut: pick([0, 0, 0, 0, 0, 30]),
}).map((f) => {
  const body = f.kind === 'tcp' ? tcp(f.sport, f.dport, f.flags, f.data) : f.kind === 'udp' ? udp(f.sport, f.dport, f.data) : bytes(icmp(f.type, f.code), f.data);
  const proto = f.kind === 'tcp' ? 6 : f.kind === 'udp' ? 17 : f.v6 ? 58 : 1;
  const ip = f.v6 ? ipv6({ src: V6[f.src % V6.length], dst: V6[f.dst % V6.length], next: proto, hopLimit: f.ttl }, body)
    : ipv4({ src: V4[f.src % V4.length], dst: V4[f.dst % V4.length], proto, ttl: f.ttl }, body);
  const data = ethernet(f.v6 ? 0x86dd : 0x0800, ip);
  return { data: f.cut > 0 && f.cut < data.length ? data.subarray(0, f.cut) : data, origLen: data.length };
});

const len = fc.integer({ min: 20, max: 90 });
const pattern = fc.oneof(fc.array(pick(BYTES), { minLength: 2, maxLength: 4 }).map(hex), pick(['"A"', '"AA"']));
const raw = pick(['udp', 'tcp', 'ip', 'icmp']);
/** one rule of each shape the index files (or filters) */
const shaped = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 31 }), len).map(([f, l]) => `tcp.flags == ${f} and ip.len == ${l}`),
  fc.tuple(pick(PORTS), len).map(([p, l]) => `(tcp.dstport == ${p} or udp.srcport == ${p}) and ip.len > ${l}`),
  fc.tuple(pick([1, 2, 64, 200, 300]), pick([0, 3, 8])).map(([t, i]) => `ip.ttl == ${t} or icmp.type == ${i}`),
  fc.tuple(pick([0, 3, 8]), pick([0, 1])).map(([t, c]) => `icmp.type in { ${t} 8 } and icmp.code == ${c}`),
  fc.tuple(len, len).map(([a, b]) => `ip.len in { ${Math.min(a, b)}..${Math.max(a, b)} 100 } and not tcp.flags == 2`),
  fc.tuple(pick([1, 2, 64]), pick(PORTS)).map(([t, p]) => `not ip.src in { 10.0.0.0/8 } and ip.ttl < ${t + 1} and not tcp.dstport in { ${p} }`),
  fc.tuple(len).map(([l]) => `ip.src in $bad and (ip.len == ${l} or tcp.flags == 16)`),
  pick(['ip.len > 65000', 'ip.len >= 0', 'tcp.flags & 0x02 and ip.ttl == 64', 'ip.ttl == 999']),
  fc.tuple(raw, pattern).map(([f, p]) => `${f} contains ${p}`),
  fc.tuple(raw, pattern, pick(PORTS)).map(([f, p, port]) => `udp.dstport == ${port} and ${f} contains ${p}`),
  fc.tuple(raw, pattern, pattern).map(([f, p, q]) => `${f} contains ${p} and ${f} contains ${q}`),
  fc.tuple(raw, pattern).map(([f, p]) => `not ${f} contains ${p} and ip.ttl == 200`),
  fc.tuple(pattern, pattern).map(([p, q]) => `udp contains ${p} or tcp contains ${q}`),
);
const ruleset = fc.array(fc.tuple(pick(['log', 'log', 'log', 'log', 'block', 'skip'] as const), shaped), { minLength: 150, maxLength: 260 })
  .map((rs) => rs.map(([action, e], i): Rule => [`r${i}`, action, e]));

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-many-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('many rules of every shape: key index and classifier vs decoder + evaluator', () => {
  it('decides every packet identically', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(ruleset, fc.array(frame, { minLength: 20, maxLength: 60 }), async (rules, frames) => {
        const file = path.join(dir, `${n++}.pcap`);
        writeFileSync(file, pcapFile({}, frames.map(({ data, origLen }, i) => ({ sec: 1_700_000_000 + i, frac: i, data, origLen }))));
        const reference = await run(file, rules, { lists, mode: 'reference' });
        for (const mode of ['keys', 'classifier'] as const) {
          const got = await run(file, rules, { lists, mode });
          expect(got.ndjson).toBe(reference.ndjson);
          expect(got.hits).toEqual(reference.hits);
          expect(got.decided).toEqual(reference.decided);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('PatternScanner', () => {
  it('finds exactly the patterns containsView finds, each in its rule group and bit', () => {
    fc.assert(
      fc.property(fc.array(fc.array(pick(BYTES), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 70 }), fc.array(pick(BYTES), { maxLength: 40 }), fc.nat(3), (pats, text, cut) => {
        const patterns = pats.map((p, i) => ({ bytes: Uint8Array.from(p), group: i >> 5, bit: i & 31 }));
        const groups = (pats.length >> 5) + 1;
        const scanner = new PatternScanner(patterns, groups);
        const d = Uint8Array.from([9, 9, ...text, 9]);
        // a first scan over other bytes: the second must not keep what it found
        scanner.scan(Uint8Array.from(pats.flat()), 0, pats.flat().length);
        const to = Math.max(2, d.length - 1 - cut);
        scanner.scan(d, 2, to);
        const want = new Int32Array(groups);
        for (const p of patterns) if (containsView(d, 2, to, p.bytes)) want[p.group] |= 1 << p.bit;
        expect(Array.from(scanner.found)).toEqual(Array.from(want));
      }),
      { numRuns: 500 },
    );
  });
});

describe('what a rule is filed under', () => {
  const ast = (e: string) => parse(e, FIREWALL_SCHEME);
  const filed = (exprs: string[]) => fileRules(exprs.map((e) => filingChoices(ast(e), lists)));

  it('files a flags and length rule under the value fewer rules share', () => {
    const exprs = Array.from({ length: 40 }, (_, k) => `tcp.flags == ${k % 4} and ip.len == ${100 + k}`);
    expect(filed(exprs)[7]).toEqual([{ field: 'ip.len', keys: [107] }]);
  });

  it('files an or across fields under each side, and a rule with a side it cannot file under none', () => {
    expect(filed(['(tcp.dstport == 9 or udp.srcport == 9) and ip.len > 60'])[0]).toEqual([{ field: 'tcp.dstport', keys: [9] }, { field: 'udp.srcport', keys: [9] }]);
    expect(filed(['tcp.dstport == 9 or not udp.srcport == 9'])[0]).toBeNull();
  });

  it('files no rule under values past what the key tables hold, and a rule no packet can match under a key no packet has', () => {
    expect(filed(['ip.len > 65000'])[0]).toBeNull();
    expect(filed(['ip.len == 70000'])[0]).toBeNull();
    expect(filed(['ip.ttl == 999'])[0]).toEqual([{ field: 'ip.ttl', keys: [999] }]);
    expect(filed(['ip.ttl < 0 and tcp.dstport in { 1..900 }'])[0]).toEqual([{ field: 'ip.ttl', keys: [] }]);
  });

  it('reads the longest contains among a rule conjuncts, not one under an or or a not', () => {
    expect(containsRequirement(ast('udp contains 01:02 and udp contains 01:02:03 and tcp.dstport == 1'))).toEqual({ field: 'udp', bytes: Uint8Array.from([1, 2, 3]) });
    expect(containsRequirement(ast('udp contains 01:02 or tcp contains 02:03'))).toBeNull();
    expect(containsRequirement(ast('not udp contains 01:02'))).toBeNull();
  });
});
