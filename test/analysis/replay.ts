// Shared by the analysis property tests: random rulesets from a vocabulary dense in overlaps
// (ports, CIDRs of both families, protocol, flags, countries, a list, unmodelled parts), packets
// sampled from a region of the header space, and replay of a witness through the real firewall.
import { verdictName } from '../../src/verdict.js';
import fc from 'fast-check';
import type { Ruleset, Snapshot } from '../../src/config/snapshot.js';
import { createListRegistry } from '../../src/data/lists.js';
import { Firewall, FirewallResult } from '../../src/firewall/firewall.js';
import { witnessRecord, type Witness } from '../../src/analysis/index.js';
import type { Intervals } from '../../src/analysis/intervals.js';
import type { NameTables } from '../../src/analysis/names.js';
import type { Region } from '../../src/analysis/space.js';
import { witnessOf } from '../../src/analysis/witness.js';

export const ATOMS = [
  'tcp.dstport in {22 80}',
  'tcp.dstport == 443',
  'tcp.dstport >= 1024',
  'tcp.dstport != 22',
  'tcp.srcport in {1024..65535}',
  'udp.dstport == 53',
  'udp.srcport in {53 123}',
  'udp.dstport != 53',
  'ip.src in {10.0.0.0/8}',
  'ip.src in {10.1.0.0/16 192.0.2.0/24}',
  'ip.dst in {192.0.2.0/24}',
  'ip.src == 2001:db8::1',
  'ip.dst in {2001:db8::/32}',
  'ip.src in $blocklist',
  'ip.src != 10.0.0.1',
  'ip.proto == "tcp"',
  'ip.proto in {"udp" "icmp"}',
  'tcp.flags.syn',
  'tcp.flags & 0x12',
  'tcp.flags == 0x02',
  'icmp.type == 8',
  'ip.ttl < 10',
  'ip.len > 1000',
  'ip.hdr_len == 5',
  'ip.src.country == "US"',
  'ip.geoip.country in {"US" "CN"}',
  'ip.geoip.country != "US"',
  'sip',
  'cf.colo.name == "sfo06"',
  'cf.colo.region in {"WNAM" "WEUR"}',
  'tcp contains "abc"',
  'ip.src.country matches "^U"',
];

const atom = fc.constantFrom(...ATOMS);

export const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    atom,
    tie('e').map((x) => `not (${x})`),
    fc.tuple(tie('e'), fc.constantFrom('and', 'or', 'xor'), tie('e')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
  ),
})).e;

export interface RuleSpec {
  action: 'block' | 'skip' | 'log';
  expression: string;
  enabled: boolean;
}

export const ruleSpec: fc.Arbitrary<RuleSpec> = fc.record({
  action: fc.constantFrom('block', 'skip', 'log', 'block'),
  expression,
  enabled: fc.nat(9).map((n) => n > 1),
});

export const ruleSpecs = fc.array(ruleSpec, { minLength: 1, maxLength: 8 });

export function snapshotOf(rules: readonly RuleSpec[]): Snapshot {
  const ruleset: Ruleset = {
    name: 'rs',
    kind: 'root',
    phase: 'edge_transit',
    rules: rules.map((r, i) => ({
      ref: `r${i + 1}`,
      action: r.action,
      action_parameters: r.action === 'skip' ? { ruleset: 'current' } : undefined,
      expression: r.expression,
      enabled: r.enabled,
    })),
  };
  return {
    rulesets: [ruleset],
    lists: [{ name: 'blocklist', kind: 'ip', items: [{ ip: '10.1.2.0/24' }, { ip: '198.51.100.7' }, { ip: '2001:db8::/64' }] }],
  };
}

export interface Replayed {
  verdict: 'pass' | 'drop';
  /** the deciding rule's ref or null */
  rule: string | null;
  matched: string[];
}

/** The real firewall of a snapshot, as a function of witness packets. */
export function replayer(snapshot: Snapshot): (w: Witness) => Replayed {
  const lists = createListRegistry({ accountLists: snapshot.lists });
  const fw = Firewall.compile(snapshot.rulesets ?? [], { lists: (n) => lists.resolve(n) });
  const out = new FirewallResult(fw.newCounts());
  return (w) => {
    fw.evaluate(witnessRecord(w), out);
    return {
      verdict: verdictName(out.drop),
      rule: out.decidingRule < 0 ? null : fw.rules[out.decidingRule]!.ref,
      matched: Array.from(out.matched.subarray(0, out.matchedCount), (i) => fw.rules[i]!.ref),
    };
  };
}

/** A deterministic random source (mulberry32) seeded by fast-check. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomIn(set: Intervals, rnd: () => number): bigint {
  const k = Math.floor(rnd() * (set.length / 2)) * 2;
  const lo = set[k]!;
  const hi = set[k + 1]!;
  const r = rnd();
  if (r < 0.25) return lo;
  if (r < 0.5) return hi;
  const span = hi - lo + 1n;
  const big = (BigInt(Math.floor(rnd() * 2 ** 32)) << 96n) | (BigInt(Math.floor(rnd() * 2 ** 32)) << 64n) | (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32));
  return lo + (big % span);
}

/** `count` random packets of a (non-empty) region. */
export function samples(region: Region, names: NameTables, rnd: () => number, count: number): Witness[] {
  const out: Witness[] = [];
  for (let i = 0; i < count; i++) {
    const box = region[Math.floor(rnd() * region.length)]!;
    out.push(witnessOf(box, names, (set) => randomIn(set, rnd)));
  }
  return out;
}
