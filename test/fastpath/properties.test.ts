// Random rulesets over random packets: the fast path, linear, through the classifier and through the key index,
// decides exactly as the reference path (decoder + evaluator) — the same per-packet NDJSON and the
// same rule counters. Packets are IPv4/IPv6 TCP/UDP/ICMP frames with random addresses, ports, flags,
// TTLs, IPv4 options and fragments, SIP payloads, IPv6 payload lengths of 0 (length from the frame), and sometimes VLAN tags (one or two), IPv6
// extension headers of each kind (a non-first fragment among them), a cut-off capture or a wrong length field (the fast path must hand those with a
// decode note back). Rules draw on
// the same pools of ports and addresses, so they match often; a few read a looked-up field; some rules are disabled.
// Some rules read `$unread`, a list the fast path is compiled without, so it does not write their
// conditions: it reads them on the decoded frame, amid rules it does write.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { ascii, authHeader, bytes, ethernet, extension, fragmentHeader, icmp, ipv4, ipv6, pcapFile, tcp, udp } from '../capture/helpers/build.js';
import { expressionOf, type Rule, run } from './helpers.js';

const V4 = ['10.0.0.1', '10.1.2.3', '192.168.1.1', '203.0.113.10', '198.51.100.7', '10.66.4.4'];
const V6 = ['2001:db8::1', 'fe80::1', '::1', '2001:db8:ffff::9'];
const PORTS = [22, 23, 53, 80, 123, 443, 1900, 5060, 8080, 40000];
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

const bad = new IpSetBuilder().addPrefix4(parseIPv4('10.0.0.0'), 8).build();
const unread = new IpSetBuilder().addPrefix4(parseIPv4('192.168.0.0'), 16).addPrefix6(parseIPv6('2001:db8::')!, 32).build();
const lists = (name: string) => (name === 'bad' ? bad : name === 'unread' ? unread : undefined);
const fastLists = (name: string) => (name === 'bad' ? bad : undefined);

// ---- packets ----

const transport = fc.oneof(
  fc.record({ kind: fc.constant('tcp' as const), sport: pick(PORTS), dport: pick(PORTS), flags: fc.integer({ min: 0, max: 255 }), dataOffset: fc.constantFrom(5, 5, 5, 6, 3), sip: fc.boolean() }),
  fc.record({ kind: fc.constant('udp' as const), sport: pick(PORTS), dport: pick(PORTS), sip: fc.boolean() }),
  fc.record({ kind: fc.constant('icmp' as const), type: fc.constantFrom(0, 3, 8, 11), code: fc.constantFrom(0, 1) }),
  fc.record({ kind: fc.constant('other' as const) }),
);

const frame = fc.record({
  v6: fc.boolean(),
  src: fc.nat(),
  dst: fc.nat(),
  ttl: fc.constantFrom(1, 2, 64, 255),
  t: transport,
  options: fc.constantFrom<number[]>([], [], [148, 4, 0, 0], [7]),
  fragOffset: fc.constantFrom(0, 0, 0, 8),
  vlan: fc.constantFrom<Array<[number, number]>>([], [], [], [[0x8100, 5]], [[0x88a8, 9], [0x8100, 5]]),
  ext: fc.constantFrom('none', 'none', 'none', 'hop-by-hop', 'routing', 'fragment', 'later fragment', 'AH'),
  cut: fc.constantFrom(0, 0, 0, 0, 10, 30, 50),
  badLength: fc.constantFrom(false, false, false, false, true),
}).map((f) => {
  const sip = 'sip' in f.t && f.t.sip ? ascii('INVITE sip:bob@example.com SIP/2.0\r\n') : ascii('hello');
  const payload = f.t.kind === 'tcp' ? tcp(f.t.sport, f.t.dport, f.t.flags, sip, f.t.dataOffset)
    : f.t.kind === 'udp' ? udp(f.t.sport, f.t.dport, sip)
      : f.t.kind === 'icmp' ? icmp(f.t.type, f.t.code) : ascii('opaque');
  const proto = { tcp: 6, udp: 17, icmp: f.v6 ? 58 : 1, other: 47 }[f.t.kind];
  let ip: Uint8Array;
  if (f.v6) {
    const [next, ext] = {
      'none': [proto, []],
      'hop-by-hop': [0, extension(proto)],
      'routing': [43, bytes(extension(60, 2), extension(proto))],
      'fragment': [44, fragmentHeader(proto, 0, true)],
      'later fragment': [44, fragmentHeader(proto, 1448, false)],
      'AH': [51, authHeader(proto)],
    }[f.ext] as [number, Uint8Array | []];
    ip = ipv6({ src: V6[f.src % V6.length], dst: V6[f.dst % V6.length], next, hopLimit: f.ttl, payloadLength: f.badLength ? (f.src % 2 === 0 ? 3 : 0) : undefined }, bytes(ext, payload));
  } else {
    ip = ipv4({ src: V4[f.src % V4.length], dst: V4[f.dst % V4.length], proto, ttl: f.ttl, options: f.options, fragOffset: f.fragOffset, totalLength: f.badLength ? 12 : undefined }, payload);
  }
  const data = ethernet(f.v6 ? 0x86dd : 0x0800, ip, f.vlan);
  // a cut frame keeps its length on the wire (origLen), as a snap length leaves it
  return { data: f.cut > 0 && f.cut < data.length ? data.subarray(0, f.cut) : data, origLen: data.length };
});

// ---- rules ----

const addr = fc.oneof(pick(V4), pick(V6));
const cidr = fc.oneof(pick(V4).map((a) => `${a}/${a.startsWith('10.') ? 8 : 24}`.replace(/\.\d+\/24$/, '.0/24').replace(/^10\.\d+\.\d+\.\d+\/8$/, '10.0.0.0/8')), pick(['2001:db8::/32', 'fe80::/10']), pick(V4));
const portField = pick(['tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport']);
/** conditions the classifier and the key index sort rules by */
const indexable = fc.oneof(
  fc.tuple(portField, pick(PORTS)).map(([f, p]) => `${f} == ${p}`),
  fc.tuple(portField, fc.array(pick(PORTS), { minLength: 1, maxLength: 3 })).map(([f, ps]) => `${f} in {${ps.join(' ')}}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), pick(V4)).map(([f, a]) => `${f} == ${a}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), fc.array(cidr, { minLength: 1, maxLength: 3 })).map(([f, cs]) => `${f} in {${cs.join(' ')}}`),
);
const leaf = fc.oneof(
  indexable,
  fc.tuple(pick(['ip.len', 'ip.ttl', 'ip.hdr_len', 'tcp.flags', 'icmp.type']), pick(['<', '>', '==', '!=']), fc.integer({ min: 0, max: 100 })).map(([f, op, v]) => `${f} ${op} ${v}`),
  fc.tuple(portField, pick(['!=', '<', '>=']), pick(PORTS)).map(([f, op, p]) => `${f} ${op} ${p}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), pick(['==', '!=', '<', '>']), addr).map(([f, op, a]) => `${f} ${op} ${a}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), fc.array(cidr, { minLength: 1, maxLength: 3 })).map(([f, cs]) => `${f} in {${cs.join(' ')}}`),
  pick(['ip.src in $bad', 'ip.src in $unread', 'ip.dst in $unread', 'ip.proto == "tcp"', 'ip.proto in {"udp" "icmp"}', 'ip.ttl < 2', 'ip.len > 60', 'ip.hdr_len > 5', 'ip.opt.type == 148',
    'tcp.flags.syn', 'tcp.flags & 0x12', 'tcp.flags == 2', 'icmp.type == 8', 'icmp.code != 0', 'sip', 'tcp contains "SIP"', 'udp contains 13:c4', 'tcp matches "SIP/2\\.0"', 'udp matches "^..\\x13"',
    'bit_slice(ip, 0, 4) == 6', 'bit_slice(tcp, 104, 112) > 16', 'ip.src.country == "US"', 'ip.geoip.country != "DE"']),
);
const expr = expressionOf(leaf);

const ruleExpr = fc.oneof(expr, indexable, fc.tuple(indexable, expr).map(([a, b]) => `${a} and ${b}`));
const ruleset = fc.array(fc.tuple(pick(['block', 'skip', 'log', 'log', 'log'] as const), ruleExpr, fc.constantFrom(true, true, true, false)), { maxLength: 80 })
  .map((rs) => rs.map(([action, e, enabled], i): Rule => [`r${i}`, action, e, enabled]));

const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-fastpath-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fast path vs decoder + evaluator on random rulesets and packets', () => {
  it('decides every packet identically, linear, classified and through the key index', async () => {
    let n = 0;
    let decoded = 0;
    await fc.assert(
      fc.asyncProperty(ruleset, fc.array(frame, { minLength: 1, maxLength: 60 }), async (rules, frames) => {
        const file = path.join(dir, `${n++}.pcap`);
        writeFileSync(file, pcapFile({}, frames.map(({ data, origLen }, i) => ({ sec: 1_700_000_000 + i, frac: i, data, origLen }))));
        const reference = await run(file, rules, { lists, mode: 'reference' });
        for (const mode of ['none', 'classifier', 'keys'] as const) {
          const got = await run(file, rules, { lists, fastLists, mode });
          expect(got.ndjson).toBe(reference.ndjson);
          expect(got.hits).toEqual(reference.hits);
          expect(got.decided).toEqual(reference.decided);
          decoded += got.decoded;
        }
      }),
      { numRuns: 150 },
    );
    // the fast path really read rules on decoded frames rather than handing the frames back
    expect(decoded).toBeGreaterThan(0);
  }, 60_000);
});

// A large ruleset (more than 32 groups of 32 rules, so the classifier's group bits span two words):
// 1,050 random log rules, which match the packets' ports and addresses often, then 50 random rules
// of any action, so every packet reaches candidate groups in both words before a rule decides. No
// rule reads a looked-up field (absent here, without lookups; lookup-diff.test.ts has them).
const fastRuleExpr = ruleExpr.filter((e) => !e.includes('country'));
const largeRuleset = fc.tuple(
  fc.array(fastRuleExpr, { minLength: 1050, maxLength: 1050 }),
  fc.array(fc.tuple(pick(['block', 'skip', 'log'] as const), fastRuleExpr), { minLength: 50, maxLength: 50 }),
).map(([logs, tail]) => [...logs.map((e): [Rule[1], string] => ['log', e]), ...tail].map(([action, e], i): Rule => [`r${i}`, action, e]));

describe('fast path vs decoder + evaluator on large random rulesets', () => {
  it('decides every packet identically through the classifier', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(largeRuleset, fc.array(frame, { minLength: 20, maxLength: 60 }), async (rules, frames) => {
        const file = path.join(dir, `large-${n++}.pcap`);
        writeFileSync(file, pcapFile({}, frames.map(({ data, origLen }, i) => ({ sec: 1_700_000_000 + i, frac: i, data, origLen }))));
        const reference = await run(file, rules, { lists, mode: 'reference' });
        const got = await run(file, rules, { lists, fastLists, mode: 'classifier' });
        expect(got.ndjson).toBe(reference.ndjson);
        expect(got.hits).toEqual(reference.hits);
        expect(got.decided).toEqual(reference.decided);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
