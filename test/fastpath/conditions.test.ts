// Each comparison the fast path writes as source (conditions.ts) against the firewall's own
// predicate, one rule at a time, frame by frame in memory (no capture file), so that many rules run
// in seconds: every field the fast path reads, in every kind of comparison it writes (orderings,
// bit tests with masks wider than 32 bits, integer and address sets on both sides of the in-line
// limits, lists of either family or both, bytes orderings, contains, matches, wildcards, bytes sets,
// bit_slice in line and through readBits), combined with and, or, xor and not. Rule values are drawn
// from the frames' own values and their neighbours, so comparisons fall on both sides and on the
// bound itself. One rule per ruleset: a condition that forgets a local it reads fails here rather
// than being covered by another rule's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PacketRecord } from '../../src/capture/record.js';
import { decodeFrame } from '../../src/capture/reader.js';
import { FastFirewall, FALLBACK, ProgramResult } from '../../src/fastpath/fast-firewall.js';
import { Firewall, FirewallResult } from '../../src/firewall/firewall.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { ascii, ethernet, icmp, ipv4, ipv6, tcp, udp } from '../capture/helpers/build.js';
import { expressionOf, rulesets } from './helpers.js';

const ETHERNET = 1;
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

// ---- values shared by frames and rules ----

/** IPv4 addresses on both sides of the sign bit (the fast path holds them as 32-bit integers) */
const V4 = ['10.0.0.1', '10.0.0.2', '10.255.255.255', '11.0.0.0', '127.255.255.255', '128.0.0.0', '192.168.1.1', '255.255.255.255', '0.0.0.0'];
const V6 = ['::', '::1', '::2', '2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::', 'fe80::1', 'ffff::'];
const PORTS = [0, 1, 23, 53, 80, 443, 1023, 5060, 65535];
const NUMBERS = [0, 1, 2, 4, 5, 6, 7, 8, 16, 17, 18, 20, 23, 40, 53, 60, 63, 64, 65, 80, 84, 100, 128, 148, 255, 443, 1023, 5060, 65535];
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(':');

const list = (v4: string[], v6: string[]) => {
  const b = new IpSetBuilder();
  for (const c of v4) b.addPrefix4(parseIPv4(c.split('/')[0]!), Number(c.split('/')[1]));
  for (const c of v6) b.addPrefix6(parseIPv6(c.split('/')[0]!)!, Number(c.split('/')[1]));
  return b.build();
};
const LISTS: Record<string, ReturnType<typeof list>> = {
  few: list(['10.0.0.0/8', '192.168.1.1/32'], []),
  many: list(['10.0.0.2/31', '11.0.0.0/32', '127.0.0.0/8', '128.0.0.0/30', '192.168.0.0/16', '255.255.255.255/32'], []),
  six: list([], ['2001:db8::/32', '::1/128']),
  both: list(['10.0.0.0/8'], ['fe80::/10']),
  unread: list(['192.168.0.0/16'], ['2001:db8::/32']),
};
const lists = (name: string) => LISTS[name];
/** the fast path is compiled without `$unread`: a rule on it is read on the decoded frame */
const fastLists = (name: string) => (name === 'unread' ? undefined : LISTS[name]);

// ---- frames ----

const payload = fc.oneof(fc.uint8Array({ maxLength: 24 }), pick(['INVITE sip:bob@example.com SIP/2.0\r\n', 'GET / HTTP/1.1\r\n', 'hello']).map(ascii));
const transport = fc.oneof(
  fc.record({ kind: fc.constant('tcp' as const), sport: pick(PORTS), dport: pick(PORTS), flags: fc.integer({ min: 0, max: 255 }), payload }),
  fc.record({ kind: fc.constant('udp' as const), sport: pick(PORTS), dport: pick(PORTS), payload }),
  fc.record({ kind: fc.constant('icmp' as const), type: pick([0, 3, 8, 11, 128, 255]), code: pick([0, 1, 255]) }),
  fc.record({ kind: fc.constant('other' as const), payload }),
);
const frame = fc.record({
  v6: fc.boolean(),
  src: fc.nat(),
  dst: fc.nat(),
  ttl: pick([0, 1, 2, 63, 64, 65, 255]),
  t: transport,
  options: pick<number[]>([[], [], [148, 4, 0, 0], [7, 3, 4], [68, 4, 5, 0, 1]]),
  fragOffset: pick([0, 0, 0, 8]),
}).map((f) => {
  const body = f.t.kind === 'tcp' ? tcp(f.t.sport, f.t.dport, f.t.flags, f.t.payload)
    : f.t.kind === 'udp' ? udp(f.t.sport, f.t.dport, f.t.payload)
      : f.t.kind === 'icmp' ? icmp(f.t.type, f.t.code) : f.t.payload;
  const proto = { tcp: 6, udp: 17, icmp: f.v6 ? 58 : 1, other: 47 }[f.t.kind];
  const ip = f.v6
    ? ipv6({ src: V6[f.src % V6.length], dst: V6[f.dst % V6.length], next: proto, hopLimit: f.ttl }, body)
    : ipv4({ src: V4[f.src % V4.length], dst: V4[f.dst % V4.length], proto, ttl: f.ttl, options: f.options, fragOffset: f.fragOffset }, body);
  return ethernet(f.v6 ? 0x86dd : 0x0800, ip);
});

// ---- rules ----

const ORDERINGS = ['==', '!=', '<', '<=', '>', '>='];
const INT_FIELDS = ['ip.len', 'ip.ttl', 'ip.hdr_len', 'ip.opt.type', 'tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport', 'tcp.flags', 'icmp.type', 'icmp.code'];
const number = fc.oneof(pick(NUMBERS), pick(NUMBERS).map((n) => n + 1), pick(NUMBERS).map((n) => n - 1));
const intRange = fc.tuple(number, fc.nat({ max: 70 })).map(([lo, w]) => (w < 30 ? String(lo) : `${lo}..${lo + w}`));
const intLeaf = fc.oneof(
  fc.tuple(pick(INT_FIELDS), pick(ORDERINGS), number).map(([f, op, n]) => `${f} ${op} ${n}`),
  // masks above 32 bits: the fast path tests their high word apart
  fc.tuple(pick(INT_FIELDS), number, pick([0, 0, 1, 3, 2 ** 20])).map(([f, n, hi]) => `${f} & ${hi * 2 ** 32 + Math.max(n, 0)}`),
  fc.tuple(pick(INT_FIELDS), fc.array(intRange, { maxLength: 7 })).map(([f, rs]) => `${f} in {${rs.join(' ')}}`),
);
const address = fc.oneof(pick(V4), pick(V6));
const CIDRS = ['10.0.0.0/8', '10.0.0.0/31', '10.0.0.2/32', '11.0.0.0/32', '128.0.0.0/1', '0.0.0.0/1', '192.168.1.0/24', '255.255.255.254/31', '0.0.0.0/0',
  '2001:db8::/32', 'fe80::/10', '::/127', 'ffff::/16', '::/0'];
const addressLeaf = fc.oneof(
  fc.tuple(pick(['ip.src', 'ip.dst']), pick(ORDERINGS), address).map(([f, op, a]) => `${f} ${op} ${a}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), fc.array(fc.oneof(pick(CIDRS), address), { maxLength: 7 })).map(([f, cs]) => `${f} in {${cs.join(' ')}}`),
  fc.tuple(pick(['ip.src', 'ip.dst']), pick(Object.keys(LISTS))).map(([f, l]) => `${f} in $${l}`),
);
const RAW = ['ip', 'tcp', 'udp', 'icmp'];
/** bytes the frames hold: whole ICMP messages, an IPv4 header's start, ports, SIP text */
const BYTES = [hex(icmp(8, 0)), hex(icmp(0, 0)), hex(icmp(3, 1)), '45:00', '60:00', '00:50', '13:c4', '00:00', 'ff:ff', '"SIP"', '"INVITE"', '"HTTP"', '"hello"'];
const rawLeaf = fc.oneof(
  fc.tuple(pick(RAW), pick(ORDERINGS), pick(BYTES)).map(([f, op, b]) => `${f} ${op} ${b}`),
  fc.tuple(pick(RAW), pick(BYTES)).map(([f, b]) => `${f} contains ${b}`),
  fc.tuple(pick(RAW), pick(['SIP/2\\.0', '^\\x00\\x50', '^.{8}\\x00', 'HTTP', '^E'])).map(([f, re]) => `${f} matches "${re}"`),
  fc.tuple(pick(RAW), pick(['', 'strict ']), pick(['*sip*', '*SIP*', '*invite*', '*', '*http/1.1*'])).map(([f, s, w]) => `${f} ${s}wildcard "${w}"`),
  fc.tuple(pick(RAW), fc.array(pick(BYTES), { minLength: 1, maxLength: 3 })).map(([f, bs]) => `${f} in {${bs.join(' ')}}`),
);
const sliceLeaf = fc.tuple(pick(RAW), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 32 }), fc.nat(), pick([...ORDERINGS, '&', 'in']))
  .map(([f, from, width, v, op]) => {
    const n = v % 2 ** Math.min(width, 10);
    const rhs = op === 'in' ? `{${n} ${n + 2}..${n + 9}}` : String(n);
    return `bit_slice(${f}, ${from}, ${from + width}) ${op} ${rhs}`;
  });
const otherLeaf = pick(['ip.proto == "tcp"', 'ip.proto != "udp"', 'ip.proto in {"udp" "icmp" "ipv6-icmp"}', 'ip.proto matches "^i"', 'sip',
  'tcp.flags.ack', 'tcp.flags.cwr', 'tcp.flags.ecn', 'tcp.flags.fin', 'tcp.flags.push', 'tcp.flags.reset', 'tcp.flags.syn', 'tcp.flags.urg',
  'ip.src.country != "US"', 'ip.dst.asnum == 5']);
const leaf = fc.oneof(intLeaf, addressLeaf, rawLeaf, sliceLeaf, otherLeaf);
const expr = expressionOf(leaf);

/**
 * Whether the fast path and the firewall's predicate agree on `expr` for each frame the fast path
 * decides, with the rule tested in the frame function itself (every rule tested) and in a function
 * of its own that is given only the locals the condition names (rules picked by the classifier).
 * Returns how many frames the fast path decided.
 */
function agree(expression: string, frames: readonly Uint8Array[]): number {
  const firewall = Firewall.compile(rulesets([['rule', 'log', expression]]), { lists });
  const rec = new PacketRecord();
  let decided = 0;
  for (const index of ['none', 'classifier'] as const) {
    const fast = FastFirewall.compile(firewall, { lists: fastLists, index });
    for (const data of frames) {
      const got = new ProgramResult(firewall.newCounts(), fast);
      if (fast.decide(data, 0, data.length, data.length, ETHERNET, got) === FALLBACK) continue;
      decided++;
      decodeFrame(rec, ETHERNET, data, data.length);
      const want = new FirewallResult(firewall.newCounts());
      firewall.evaluate(rec, want);
      expect(got.matchedCount, `${expression} on ${hex(data)} (${index})`).toBe(want.matchedCount);
      // the fast path writes every comparison but those on a list it is not given: only those are read on the decoded frame
      if (index === 'none') expect(got.frame.decodedRules(), `${expression} decoded`).toBe(expression.includes('$unread') ? 1 : 0);
    }
  }
  return decided;
}

describe('each condition the fast path writes vs the firewall predicate', () => {
  it('matches a frame exactly when the predicate does, for every kind of comparison and combination', () => {
    let decided = 0;
    fc.assert(fc.property(expr, fc.array(frame, { minLength: 1, maxLength: 16 }), (e, frames) => {
      decided += agree(e, frames);
    }), { numRuns: 1000 });
    // the frames are all ones the fast path reads itself
    expect(decided).toBeGreaterThan(1000 * 8);
  });

  it('agrees on each leaf alone, on the frames of every kind', () => {
    fc.assert(fc.property(leaf, fc.array(frame, { minLength: 8, maxLength: 24 }), (e, frames) => {
      agree(e, frames);
    }), { numRuns: 1000 });
  });

  it('reads a rule on a list on the decoded frame when compiled without the lists, and names the list', () => {
    const firewall = Firewall.compile(rulesets([['few', 'log', 'ip.src in $few'], ['port', 'log', 'tcp.dstport == 80']]), { lists });
    const fast = FastFirewall.compile(firewall);
    const data = ethernet(0x0800, ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: 6 }, tcp(1, 80, 2)));
    const got = new ProgramResult(firewall.newCounts(), fast);
    expect(fast.decide(data, 0, data.length, data.length, ETHERNET, got)).toBe(4);
    expect(Array.from(got.matched.subarray(0, got.matchedCount))).toEqual([0, 1]);
    expect(got.frame.decodedRules()).toBe(1);
    expect(fast.decodedReason(got.frame.decodedRule(0))).toBe('rule few: field ip.src: list $few not compiled');
  });
});
