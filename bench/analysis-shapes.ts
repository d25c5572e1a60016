// Rulesets of the four shapes that once blew up the static analysis (the issue's item 3), written
// as a user writes them and within the vendor's limits (200 rules a ruleset, 4,096 characters and
// 256 DNF conjunctions an expression, 100,000 items a list):
// - perCustomer: per-customer rules (CIDR sets, port sets, country sets, a list reference), for
//   diff --static with one rule's action changed;
// - notAndTerms('or' | 'and'): rules each an `or` (or an `and`) of `not (… and …)` terms;
// - sharedList: plain rules that all use one large account list;
// - prefixPortTerms: rules each an `or` of 26 `(ip.src in {10.R.T.0/24} and tcp.dstport in {P Q})`
//   terms, for pin (issue 34's item 1), and overlappingPrefixPortTerms, the same with overlapping
//   prefixes and ports;
// - portPairTerms: rules each an `and` of eight `not (tcp.dstport in {…} and tcp.srcport in {…})`
//   terms, for diff --static against the same rules in reverse order (issue 34's item 2).
// Used by bench/analysis.ts and by the tests that run the CLI on them.
import type { RulesetRule, Snapshot } from '../src/config/snapshot.js';

export function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
}

function cidr(rnd: () => number, len: number): string {
  const a = (Math.floor(rnd() * 2 ** 32) >>> (32 - len)) << (32 - len);
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${len}`;
}

const SERVICE_PORTS = ['80 443', '22', '25 465 587', '53', '3306', '5432', '8080 8443', '6379', '3389', '1194', '9000..9100'];
const COUNTRIES = ['CN', 'RU', 'KP', 'IR', 'BR', 'IN', 'VN', 'NG', 'UA', 'TR', 'ID', 'PK'];

function snapshot(rules: RulesetRule[], lists: Snapshot['lists'] = []): Snapshot {
  return { rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules }], lists };
}

function rule(ref: string, action: RulesetRule['action'], expression: string): RulesetRule {
  return { ref, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) };
}

/** `n` distinct entries: single addresses and some /24s, none inside another. */
function listItems(rnd: () => number, n: number): Array<{ ip: string }> {
  const seen = new Set<string>();
  while (seen.size < n) seen.add(rnd() < 0.8 ? cidr(rnd, 32).replace('/32', '') : cidr(rnd, 24));
  return [...seen].map((ip) => ({ ip }));
}

/** `count` per-customer rules: each customer's prefixes, its services allowed, the rest of its traffic from some countries or a blocklist dropped. */
export function perCustomer(count = 100, seed = 11): Snapshot {
  const rnd = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const rules: RulesetRule[] = [];
  for (let c = 0; rules.length < count; c++) {
    const prefixes = Array.from({ length: 2 + Math.floor(rnd() * 4) }, () => cidr(rnd, 20 + Math.floor(rnd() * 9))).join(' ');
    const kind = c % 5;
    if (kind === 0) rules.push(rule(`c${c}-allow`, 'skip', `ip.dst in {${prefixes}} and tcp.dstport in {${pick(SERVICE_PORTS)}}`));
    else if (kind === 1) rules.push(rule(`c${c}-geo`, 'block', `ip.dst in {${prefixes}} and ip.src.country in {${COUNTRIES.filter(() => rnd() < 0.3).map((x) => `"${x}"`).join(' ') || '"CN"'}}`));
    else if (kind === 2) rules.push(rule(`c${c}-list`, 'block', `ip.src in $blocklist and ip.dst in {${prefixes}}`));
    else if (kind === 3) rules.push(rule(`c${c}-admin`, 'block', `ip.dst in {${prefixes}} and not (ip.src in {${cidr(rnd, 16)} ${cidr(rnd, 24)}} and tcp.dstport in {22 3389}) and tcp.dstport in {22 3389 5900}`));
    else rules.push(rule(`c${c}-udp`, 'block', `ip.dst in {${prefixes}} and udp.dstport in {${pick(SERVICE_PORTS)}} and not ip.src in {${cidr(rnd, 16)}}`));
  }
  return snapshot(rules, [{ name: 'blocklist', kind: 'ip', items: listItems(rnd, 1000) }]);
}

/** The same snapshot with rule `index`'s action changed (block ↔ skip). */
export function withActionChanged(s: Snapshot, index: number): Snapshot {
  const out = structuredClone(s);
  const rules = out.rulesets![0]!.rules!;
  const r = rules[index]!;
  rules[index] = rule(r.ref!, r.action === 'block' ? 'skip' : 'block', r.expression);
  return out;
}

function notAndTerm(rnd: () => number, k: number): string {
  const countries = COUNTRIES.filter(() => rnd() < 0.25).map((x) => `"${x}"`).join(' ') || '"CN"';
  switch (k % 4) {
    case 0:
      return `not (ip.src.country in {${countries}} and tcp.dstport in {${SERVICE_PORTS[Math.floor(rnd() * SERVICE_PORTS.length)]}})`;
    case 1:
      return `not (ip.src in {${cidr(rnd, 8 + Math.floor(rnd() * 8))}} and tcp.srcport >= ${1024 * Math.floor(1 + rnd() * 8)})`;
    case 2:
      return `not (tcp.flags.syn and ip.dst in {${cidr(rnd, 4 + Math.floor(rnd() * 4))} ${cidr(rnd, 8)}})`;
    default:
      return `not (ip.ttl < ${32 + Math.floor(rnd() * 96)} and ip.len > ${100 + Math.floor(rnd() * 900)})`;
  }
}

/**
 * `count` rules, each an `op` of `terms` `not (… and …)` terms (an `and` of 8 has 2^8 = 256 DNF
 * conjunctions, the vendor's limit; an `or` of n has 2n).
 */
export function notAndTerms(op: 'or' | 'and', count = 200, terms = op === 'and' ? 8 : 6, seed = 13): Snapshot {
  const rnd = lcg(seed);
  const rules: RulesetRule[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: terms }, (_, k) => notAndTerm(rnd, i + k));
    rules.push(rule(`r${i + 1}`, i % 3 === 0 ? 'skip' : 'block', parts.map((p) => `(${p})`).join(` ${op} `)));
  }
  return snapshot(rules);
}

/** `count` plain rules that all test one `entries`-entry account list. */
export function sharedList(count = 200, entries = 100_000, seed = 17): Snapshot {
  const rnd = lcg(seed);
  const rules: RulesetRule[] = [];
  for (let i = 0; i < count; i++) {
    const port = SERVICE_PORTS[i % SERVICE_PORTS.length]!;
    const expression = i % 2 === 0 ? `ip.src in $blocklist and tcp.dstport in {${port}}` : `ip.src in $blocklist and ip.dst in {${cidr(rnd, 24)}} and udp.dstport in {${port}}`;
    rules.push(rule(`r${i + 1}`, 'block', expression));
  }
  return snapshot(rules, [{ name: 'blocklist', kind: 'ip', items: listItems(rnd, entries) }]);
}

/** `count` rules, each an `or` of `terms` terms `(ip.src in {10.R.T.0/24} and tcp.dstport in {P Q})`, skip and block in turns. */
export function prefixPortTerms(count = 200, terms = 26): Snapshot {
  const rules: RulesetRule[] = [];
  for (let r = 0; r < count; r++) {
    const parts = Array.from({ length: terms }, (_, t) => `(ip.src in {10.${r}.${t}.0/24} and tcp.dstport in {${1000 + 2 * t} ${1001 + 2 * t + r}})`);
    rules.push(rule(`r${r + 1}`, r % 2 === 0 ? 'skip' : 'block', parts.join(' or ')));
  }
  return snapshot(rules);
}

const COMMON_PORTS = [22, 23, 25, 53, 80, 110, 143, 443, 445, 993, 995, 1433, 3306, 3389, 5432, 5900, 6379, 8080, 8443, 9200];

/**
 * The same shape as prefixPortTerms with the rules overlapping: each term's prefix
 * `10.{0..3}.{0..255}.0/24` and its two ports drawn from 20 common ports, every third rule a skip
 * (docs/bounds.md's `overlap200.json`: `overlappingPrefixPortTerms(200)`).
 */
export function overlappingPrefixPortTerms(count = 200, terms = 26, seed = 7): Snapshot {
  const rnd = lcg(seed);
  const rules: RulesetRule[] = [];
  for (let r = 0; r < count; r++) {
    const parts = Array.from({ length: terms }, () => {
      const [a, b] = [Math.floor(rnd() * 4), Math.floor(rnd() * 256)];
      const [p, q] = [COMMON_PORTS[Math.floor(rnd() * 20)]!, COMMON_PORTS[Math.floor(rnd() * 20)]!];
      return `(ip.src in {10.${a}.${b}.0/24} and tcp.dstport in {${p} ${q}})`;
    });
    rules.push(rule(`o${r}`, r % 3 === 0 ? 'skip' : 'block', parts.join(' or ')));
  }
  return snapshot(rules);
}

/** `count` rules, each an `and` of `terms` terms `not (tcp.dstport in {3 ports} and tcp.srcport in {3 ports})`. */
export function portPairTerms(count = 100, terms = 8, seed = 7): Snapshot {
  const rnd = lcg(seed);
  const ports = (): string => Array.from({ length: 3 }, () => 1 + Math.floor(rnd() * 65000)).join(' ');
  const rules: RulesetRule[] = [];
  for (let r = 0; r < count; r++) {
    const parts = Array.from({ length: terms }, () => `(not (tcp.dstport in {${ports()}} and tcp.srcport in {${ports()}}))`);
    rules.push(rule(`r${r + 1}`, r % 3 === 0 ? 'skip' : 'block', parts.join(' and ')));
  }
  return snapshot(rules);
}

/** The same snapshot with its first ruleset's rules in reverse order. */
export function reversed(s: Snapshot): Snapshot {
  const out = structuredClone(s);
  out.rulesets![0]!.rules!.reverse();
  return out;
}
