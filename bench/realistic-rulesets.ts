// Rulesets of the kind production rulesets hold, for the replay bench (replay.ts), over the `mixed`
// synthetic capture (web, SSH and QUIC to 203.0.113.10 and 2001:db8:ffff::10 from every country's
// address blocks, DNS to 198.51.100.53, pings, floods from anywhere): a partner list skip, managed
// lists, a country block, a data-center region, a DNS payload test, a bit_slice, flags, lengths,
// ICMP types, then per-customer port and CIDR rules. The 1,000-rule set is per-customer rules over
// overlapping CIDR sets and the ports the capture really uses, skip and block mixed, generated from a
// fixed seed so every run measures the same rules.
import type { Snapshot } from '../src/config/snapshot.js';

export type BenchRule = [ref: string, action: 'block' | 'skip' | 'log', expression: string];

/** the account list the partner rule reads */
export const PARTNER_LISTS: NonNullable<Snapshot['lists']> = [
  { name: 'partners', kind: 'ip', description: 'partner ranges', items: [{ ip: '192.0.2.0/24' }, { ip: '100.64.0.0/10' }, { ip: '2001:db8:aaaa::/48' }] },
];

/** the first 15 rules: lists, lookups, payload and header checks */
const HEAD: BenchRule[] = [
  ['partners', 'skip', 'ip.src in $partners'],
  ['botnet-cc', 'block', 'ip.src in $svc.botnetcc'],
  ['anonymizers', 'block', 'ip.src in $svc.anonymizer and tcp.dstport in { 22 3389 }'],
  ['embargo', 'block', 'ip.src.country in { "KP" "IR" "SY" "CU" }'],
  ['apac-ssh', 'block', 'cf.colo.region == "APAC" and tcp.dstport == 22'],
  ['dns-any', 'block', 'udp.dstport == 53 and udp contains 00:00:ff:00:01'],
  ['ip-reserved-flag', 'block', 'bit_slice(ip, 48, 49) == 1'],
  ['xmas', 'block', 'tcp.flags.fin and tcp.flags.push and tcp.flags.urg'],
  ['null-scan', 'block', 'ip.proto == "tcp" and tcp.flags == 0'],
  ['syn-fin', 'block', 'tcp.flags.syn and tcp.flags.fin'],
  ['big-udp', 'block', 'ip.proto == "udp" and ip.len > 1400'],
  ['runt', 'block', 'ip.len < 28'],
  ['icmp-unusual', 'block', 'icmp.type in { 5 13 15 17 }'],
  ['ping', 'log', 'icmp.type in { 8 128 }'],
  ['low-ttl', 'block', 'ip.ttl < 2'],
];

/** A deterministic pseudo-random sequence (a 32-bit LCG), so generated rulesets are the same on every run. */
function sequence(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

const PORTS = ['80', '443', '22', '53', '80 443', '443 8443', '22 2222', '80 443 22'];

/**
 * One customer's rule: its CIDRs (among them, now and then, a range holding the capture's servers,
 * and wide source ranges the capture's sources fall in) and ports the capture uses.
 */
function customerRule(k: number, next: () => number): BenchRule {
  const r = next();
  const ports = PORTS[r % PORTS.length]!;
  const action = r % 3 === 0 ? 'block' : 'skip';
  const servers = (r >>> 4) % 50 === 0 ? ' 203.0.113.0/28' : '';
  const dst = `ip.dst in { 203.0.${(r >>> 8) % 256}.0/24 198.51.${(r >>> 16) % 256}.0/24${servers} }`;
  const port = (r >>> 3) % 2 === 0 ? `tcp.dstport in { ${ports} }` : `udp.dstport in { ${ports} }`;
  const src = (r >>> 12) % 4 === 0 ? ` and ip.src in { ${(r >>> 20) % 224}.0.0.0/8 ${(r >>> 24) % 224}.${r % 256}.0.0/16 }` : '';
  return [`customer-${k}`, action, `${dst} and ${port}${src}`];
}

/** The realistic ruleset: the 15 head rules, then `customers` per-customer rules. */
export function realisticRuleset(customers: number): BenchRule[] {
  const next = sequence(25);
  return [...HEAD, ...Array.from({ length: customers }, (_, k) => customerRule(k, next))];
}
