// src/analysis figures: lint and diff --static on a realistic 200-rule ruleset — service allows
// (skip) with CIDR sets and port sets, amplification-port and ICMP blocks, country blocks, TCP-flag
// rules, IPv6 rules, five rules shadowed by earlier ones, a 10,000-entry account list — against the target (under 1 s), and
// next to compiling the same ruleset for replay (Firewall.compile) measured in the same run. Then
// the whole `edgesim` process, wall time and peak memory, on the four shapes that once ran for
// minutes or out of memory (analysis-shapes.ts), against the targets of 2 s and 500 MB each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRulesets, lint } from '../src/analysis/index.js';
import type { RulesetRule, Snapshot } from '../src/config/snapshot.js';
import { createListRegistry } from '../src/data/lists.js';
import { Firewall } from '../src/firewall/firewall.js';
import { notAndTerms, perCustomer, sharedList, withActionChanged } from './analysis-shapes.js';
import type { BenchRow, BenchSuite } from './types.js';

const EDGESIM = path.join(path.dirname(fileURLToPath(import.meta.url)), '../bin/edgesim.js');

function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
}

const SERVICE_PORTS = [[80, 443], [22], [25, 465, 587], [53], [3306], [5432], [8080, 8443], [6379], [9000, 9090], [1194], [3389]];
const AMPLIFICATION = [19, 53, 111, 123, 137, 161, 389, 1900, 3702, 5353, 11211];

function cidr(rnd: () => number, len: number): string {
  const a = (Math.floor(rnd() * 2 ** 32) >>> (32 - len)) << (32 - len);
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${len}`;
}

function cidrSet(rnd: () => number, n: number): string {
  return Array.from({ length: n }, () => cidr(rnd, 16 + Math.floor(rnd() * 13))).join(' ');
}

/** The benchmark snapshot: 200 rules, one list of 10,000 entries. */
export function benchSnapshot(seed = 7): Snapshot {
  const rnd = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const rules: RulesetRule[] = [];
  const add = (action: RulesetRule['action'], expression: string): void => {
    rules.push({ ref: `r${rules.length + 1}`, action, expression, ...(action === 'skip' ? { action_parameters: { ruleset: 'current' } } : {}) });
  };
  add('block', 'ip.src in $blocklist');
  add('block', 'ip.src.country in {"KP" "IR" "SY"}');
  while (rules.length < 190) {
    const kind = rnd();
    if (kind < 0.45) add('skip', `ip.dst in {${cidrSet(rnd, 3 + Math.floor(rnd() * 15))}} and tcp.dstport in {${pick(SERVICE_PORTS).join(' ')}}`);
    else if (kind < 0.6) add('block', `udp.srcport in {${AMPLIFICATION.filter(() => rnd() < 0.5).join(' ') || '53'}} and ip.dst in {${cidrSet(rnd, 5)}}`);
    else if (kind < 0.7) add('block', `ip.src in {${cidrSet(rnd, 10)}} and not tcp.flags.ack and tcp.dstport >= ${1024 + Math.floor(rnd() * 30000)}`);
    else if (kind < 0.78) add('log', `ip.dst in {${cidrSet(rnd, 4)}} and ip.ttl < ${2 + Math.floor(rnd() * 30)}`);
    else if (kind < 0.86) add('skip', `ip.dst in {2001:db8:${Math.floor(rnd() * 65535).toString(16)}::/48} and tcp.dstport in {${pick(SERVICE_PORTS).join(' ')}}`);
    else if (kind < 0.93) add('block', `icmp.type in {${[0, 3, 5, 8, 11, 13].filter(() => rnd() < 0.5).join(' ') || '8'}} and ip.dst in {${cidrSet(rnd, 3)}}`);
    else add('block', `tcp.dstport in {${pick(SERVICE_PORTS).join(' ')}} and ip.dst in {${cidrSet(rnd, 6)}} and ip.len > ${500 + Math.floor(rnd() * 900)}`);
  }
  add('block', 'udp.dstport in {0..1023} and not udp.dstport in {53 123}');
  add('block', 'tcp.flags.syn and tcp.flags.fin');
  add('block', 'ip.proto in {"gre" "esp"} and not ip.src in {10.0.0.0/8}');
  for (const k of [10, 50, 90, 130, 170]) add('block', `(${rules[k]!.expression}) and ip.ttl > 10`);
  while (rules.length < 199) add('block', `tcp.dstport in {${pick(SERVICE_PORTS).join(' ')}} and ip.dst in {${cidrSet(rnd, 2)}}`);
  add('block', 'tcp.dstport in {0..65535}');
  const items = Array.from({ length: 10_000 }, () => ({ ip: rnd() < 0.8 ? cidr(rnd, 32).replace('/32', '') : cidr(rnd, 24) }));
  return {
    rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules }],
    lists: [{ name: 'blocklist', kind: 'ip', items }],
  };
}

function ms(run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}

export const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const snapshot = benchSnapshot();
  let findings = 0;
  const lintMs = median([0, 1, 2].map(() => ms(() => (findings = lint(snapshot).length))));
  const compileMs = median(
    [0, 1, 2].map(() =>
      ms(() => {
        const lists = createListRegistry({ accountLists: snapshot.lists });
        Firewall.compile(snapshot.rulesets!, { lists: (n) => lists.resolve(n) });
      }),
    ),
  );
  rows.push({ suite: 'analysis', name: 'lint, 200 rules + 10,000-entry list', value: lintMs, unit: 'ms', note: `median of 3, ${findings} findings, target < 1000 ms` });
  rows.push({ suite: 'analysis', name: 'lint time / Firewall.compile time, same ruleset', value: lintMs / compileMs, unit: 'x', note: `compile ${compileMs.toFixed(1)} ms` });
  const changed = structuredClone(snapshot);
  changed.rulesets![0]!.rules!.splice(40, 1);
  let diffs = 0;
  const diffMs = median([0, 1, 2].map(() => ms(() => (diffs = compareRulesets(snapshot, changed).differences.length))));
  rows.push({ suite: 'analysis', name: 'diff --static, 200 rules vs the same minus one', value: diffMs, unit: 'ms', note: `median of 3, ${diffs} differing classes` });
  rows.push(...shapeRows());
  return rows;
};

/** Wall seconds and peak resident MB of one `edgesim` run (GNU time), with its stdout. */
function measured(args: string[]): { seconds: number; mb: number; stdout: string } {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, EDGESIM, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const [seconds, kb] = (r.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  if (r.status === null || r.status > 1 || !Number.isFinite(seconds) || !Number.isFinite(kb)) throw new Error(`edgesim ${args.join(' ')} failed: ${r.stderr}`);
  return { seconds: seconds!, mb: kb! / 1024, stdout: r.stdout };
}

function shapeRows(): BenchRow[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edgesim-bench-analysis-'));
  const file = (name: string, s: Snapshot): string => {
    const f = path.join(dir, `${name}.json`);
    writeFileSync(f, JSON.stringify(s));
    return f;
  };
  const lintCounts = (stdout: string): string => {
    const { findings } = JSON.parse(stdout) as { findings: Array<{ kind: string }> };
    const count = (kind: string): number => findings.filter((f) => f.kind === kind).length;
    return `${count('unreachable')} unreachable, ${count('indeterminate')} indeterminate`;
  };
  const diffCounts = (stdout: string): string => {
    const c = JSON.parse(stdout) as { differences: unknown[]; indeterminate: unknown[] };
    return `${c.differences.length} differing classes, ${c.indeterminate.length} indeterminate pairs`;
  };
  const customers = perCustomer(100);
  const andTerms = notAndTerms('and', 100);
  const cases: Array<[string, string[], (stdout: string) => string]> = [
    ['diff --static, 100 per-customer rules, one action changed', ['diff', '--static', file('customers', customers), file('customers-changed', withActionChanged(customers, 50)), '--format', 'json'], diffCounts],
    ['diff --static, 100 and-of-not(… and …) rules, one action changed', ['diff', '--static', file('and-100', andTerms), file('and-100-changed', withActionChanged(andTerms, 50)), '--format', 'json'], diffCounts],
    ['lint, 200 rules each an or of not(… and …) terms', ['lint', file('or-200', notAndTerms('or', 200)), '--json'], lintCounts],
    ['lint, 200 rules each an and of not(… and …) terms', ['lint', file('and-200', notAndTerms('and', 200)), '--json'], lintCounts],
    ['lint, 200 plain rules on one 100,000-entry list', ['lint', file('list', sharedList(200, 100_000)), '--json'], lintCounts],
  ];
  return cases.flatMap(([name, args, counts]): BenchRow[] => {
    const m = measured(args);
    return [
      { suite: 'analysis', name: `${name}: whole process`, value: m.seconds, unit: 's', note: `target < 2 s; ${counts(m.stdout)}` },
      { suite: 'analysis', name: `${name}: peak memory`, value: m.mb, unit: 'MB', note: 'target < 500 MB (peak resident)' },
    ];
  });
}
