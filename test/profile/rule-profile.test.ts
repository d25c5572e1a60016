// The profiler's counts against a plain reference loop (and against the production firewall's own
// hit counters), on random rulesets and random packets: evaluations, matches and decisions per rule
// must be exact, whatever the actions, the disabled rules and the order. The conservative overlap
// check and the reordering advice are held to what they promise: a swap or move they allow never
// changes any packet's verdict, and the evaluations a move saves are the ones counted in the new order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRecordExpression } from '../../src/fields/compile.js';
import type { PacketRecord } from '../../src/capture/record.js';
import type { RulesetRule } from '../../src/config/snapshot.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { analysisCanSwap } from '../../src/profile/analysis-overlap.js';
import { conservativeCanSwap, provablyDisjoint } from '../../src/profile/overlap.js';
import { reorderAdvice } from '../../src/profile/reorder.js';
import { countRules, profileRules, type ProfiledRule } from '../../src/profile/rule-profile.js';
import { record } from '../helpers/records.js';

const port = fc.constantFrom(22, 53, 80, 123, 443, 8080);
const comparison = fc.oneof(
  port.map((p) => `tcp.dstport == ${p}`),
  port.map((p) => `udp.dstport == ${p}`),
  fc.tuple(port, port).map(([a, b]) => `tcp.dstport in { ${a} ${b} }`),
  port.map((p) => `tcp.dstport > ${p}`),
  port.map((p) => `udp.srcport <= ${p}`),
  port.map((p) => `tcp.dstport != ${p}`),
  fc.constantFrom('ip.proto == "icmp"', 'ip.proto == "udp"', 'tcp.flags.syn', 'icmp.type == 8', 'ip.ttl < 10', 'ip.src in { 10.0.0.0/8 }'),
);
const expression = fc.oneof(
  { arbitrary: comparison, weight: 3 },
  fc.tuple(comparison, comparison).map(([a, b]) => `${a} and ${b}`),
  fc.tuple(comparison, comparison).map(([a, b]) => `${a} or ${b}`),
  comparison.map((a) => `not ${a}`),
);
const rule = fc.record({ action: fc.constantFrom('block', 'skip', 'log') as fc.Arbitrary<'block' | 'skip' | 'log'>, enabled: fc.boolean(), expression });
const rules = fc.array(rule, { minLength: 1, maxLength: 8 });
// two rules, often a block and a skip that both match some packets (the pairs a swap would change)
const pair = fc.oneof(
  fc.tuple(rule, rule),
  fc.tuple(expression, fc.oneof(expression, fc.constant('')), fc.boolean()).map(([x, y, blockFirst]): [Rule, Rule] => {
    const block: Rule = { action: 'block', enabled: true, expression: x };
    const skip: Rule = { action: 'skip', enabled: true, expression: y === '' ? x : y };
    return blockFirst ? [block, skip] : [skip, block];
  }),
);
const packet = fc.record({
  src: fc.constantFrom('10.1.2.3', '198.51.100.7'),
  dst: fc.constant('203.0.113.10'),
  proto: fc.constantFrom('tcp', 'udp', 'icmp') as fc.Arbitrary<'tcp' | 'udp' | 'icmp'>,
  sport: port,
  dport: port,
  flags: fc.constantFrom(0x02, 0x10, 0x12),
  ttl: fc.constantFrom(5, 64),
});
const packets = fc.array(packet, { minLength: 0, maxLength: 40, size: 'max' }).map((ps) => ps.map((p, i) => record({ ...p, frame: i + 1 })));

type Rule = { action: 'block' | 'skip' | 'log'; enabled: boolean; expression: string };

function profiled(rs: Rule[]): Array<ProfiledRule & Rule> {
  return rs.map((r, i) => ({ ...r, ref: `r${i}`, terminating: r.action !== 'log', predicate: compileRecordExpression('rule', r.expression).predicate }));
}

function snapshotOf(rs: Rule[]) {
  const list: RulesetRule[] = rs.map((r, i) => ({ ref: `r${i}`, action: r.action, enabled: r.enabled, expression: r.expression, ...(r.action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) }));
  return { rulesets: [{ name: 'rs', kind: 'root' as const, phase: 'edge_transit' as const, rules: list }] };
}

function firewallOf(rs: Rule[]): Firewall {
  const list: RulesetRule[] = rs.map((r, i) => ({ ref: `r${i}`, action: r.action, enabled: r.enabled, expression: r.expression, ...(r.action === 'skip' ? { action_parameters: { ruleset: 'current' as const } } : {}) }));
  return Firewall.compile([{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: list }]);
}

/** The reference: each packet through the rules in order, one at a time. */
function reference(rs: Array<ProfiledRule>, recs: PacketRecord[]) {
  const out = rs.map(() => ({ evaluations: 0, matches: 0, decided: 0 }));
  for (const p of recs) {
    for (let i = 0; i < rs.length; i++) {
      if (!rs[i]!.enabled) continue;
      out[i]!.evaluations++;
      if (!rs[i]!.predicate(p)) continue;
      out[i]!.matches++;
      if (rs[i]!.terminating) {
        out[i]!.decided++;
        break;
      }
    }
  }
  return out;
}

function verdicts(fw: Firewall, recs: PacketRecord[]): boolean[] {
  const out = fw.newResult();
  return recs.map((p) => {
    fw.evaluate(p, out);
    return out.drop;
  });
}

describe('per-rule counts', () => {
  it('equal a plain reference loop and the production firewall counters, on random rulesets and packets', () => {
    fc.assert(
      fc.property(rules, packets, (rs, recs) => {
        const pr = profiled(rs);
        const counts = countRules(pr, recs);
        expect(counts.map(({ evaluations, matches, decided }) => ({ evaluations, matches, decided }))).toEqual(reference(pr, recs));
        const fw = firewallOf(rs);
        verdicts(fw, recs);
        expect(counts.map((c) => c.matches)).toEqual(Array.from(fw.hits));
        expect(counts.map((c) => c.decided)).toEqual(Array.from(fw.decided));
        rs.forEach((r, i) => {
          if (!r.enabled) expect(counts[i]!.evaluations).toBe(0);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('are the same when timed, and the times are non-negative and zero for disabled rules', () => {
    const recs = Array.from({ length: 500 }, (_, i) => record({ src: '198.51.100.7', dst: '203.0.113.10', proto: i % 3 === 0 ? 'udp' : 'tcp', dport: i % 5 === 0 ? 22 : 443, frame: i + 1 }));
    const pr = profiled([
      { action: 'log', enabled: true, expression: 'tcp.dstport == 443' },
      { action: 'block', enabled: false, expression: 'ip.ttl < 100' },
      { action: 'block', enabled: true, expression: 'tcp.dstport == 22' },
      { action: 'skip', enabled: true, expression: 'ip.src in { 198.51.100.0/24 }' },
      { action: 'block', enabled: true, expression: 'udp.dstport == 9' },
    ]);
    const timed = profileRules(pr, recs, { runs: 2, minNs: 0 });
    expect(timed.map((c) => c.samples_ns_total.length)).toEqual([2, 0, 2, 2, 0]);
    for (const c of timed) c.samples_batch_ns.forEach((ns, i) => expect(ns).toBeGreaterThanOrEqual(c.samples_ns_total[i]!));
    expect(timed.map((c) => [c.evaluations, c.matches, c.decided])).toEqual(countRules(pr, recs).map((c) => [c.evaluations, c.matches, c.decided]));
    // 200 of 500 go to port 22 over UDP or TCP: tcp ones (i%5==0 and i%3!=0) are decided by rule 2
    expect(timed[2]!.decided).toBe(recs.filter((_, i) => i % 5 === 0 && i % 3 !== 0).length);
    // every packet left is from 198.51.100.0/24, so the skip decides all of them and the last rule is never reached
    expect(timed[4]!.evaluations).toBe(0);
    for (const c of timed) expect(c.ns_total).toBeGreaterThanOrEqual(0);
    expect(timed[1]!.ns_total).toBe(0);
  });
});

describe('the conservative overlap check', () => {
  it('proves disjointness only where no packet can match both', () => {
    expect(provablyDisjoint('tcp.dstport == 22', 'udp.dstport == 22')).toBe(true);
    expect(provablyDisjoint('tcp.dstport in { 80 443 }', 'tcp.dstport == 22 and ip.ttl < 5')).toBe(true);
    expect(provablyDisjoint('tcp.dstport > 1024', 'tcp.dstport <= 1024')).toBe(true);
    expect(provablyDisjoint('ip.proto == "icmp"', 'tcp.flags.syn')).toBe(true);
    // != is true when the field is absent: a UDP packet matches both
    expect(provablyDisjoint('tcp.dstport != 22', 'udp.dstport == 53')).toBe(false);
    expect(provablyDisjoint('tcp.dstport == 22 or udp.dstport == 22', 'udp.dstport == 22')).toBe(false);
    expect(provablyDisjoint('not tcp.flags.syn', 'tcp.flags.syn')).toBe(false);
  });

  it('never allows a swap of adjacent rules that changes a verdict (random rules and packets)', () => {
    // how often each side of the property was really tested: pairs proved disjoint and tried on
    // packets, swaps allowed and replayed, and swaps that would change a verdict (all refused)
    let disjoint = 0;
    let allowed = 0;
    let changing = 0;
    fc.assert(
      fc.property(pair, packets, ([a, b], recs) => {
        if (provablyDisjoint(a.expression, b.expression)) {
          const [pa, pb] = profiled([a, b]);
          for (const p of recs) expect(pa!.predicate(p) && pb!.predicate(p)).toBe(false);
          if (recs.length > 0) disjoint++;
        }
        const same = JSON.stringify(verdicts(firewallOf([b, a]), recs)) === JSON.stringify(verdicts(firewallOf([a, b]), recs));
        if (!same) changing++;
        if (!conservativeCanSwap({ ...a, ref: "a" }, { ...b, ref: "b" })) return;
        if (recs.length > 0) allowed++;
        expect(same).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect([disjoint, allowed, changing].every((n) => n >= 20), `too few cases: disjoint ${disjoint}, allowed ${allowed}, changing ${changing}`).toBe(true);
  });
});

describe('reordering advice', () => {
  it('offers only moves that keep every verdict, and the evaluations saved are those counted in the new order', () => {
    let moves = 0;
    fc.assert(
      fc.property(rules, packets, (rs, recs) => {
        const pr = profiled(rs);
        const costs = countRules(pr, recs);
        const total = (cs: typeof costs) => cs.reduce((s, c) => s + c.evaluations, 0);
        for (const move of reorderAdvice(pr, costs, recs, conservativeCanSwap)) {
          const order = rs.map((_, i) => i).filter((i) => i !== move.from);
          order.splice(move.to, 0, move.from);
          const moved = order.map((i) => rs[i]!);
          expect(verdicts(firewallOf(moved), recs)).toEqual(verdicts(firewallOf(rs), recs));
          expect(move.evaluations_saved).toBe(total(costs) - total(countRules(profiled(moved), recs)));
          expect(move.evaluations_saved).toBeGreaterThan(0);
          moves++;
        }
      }),
      { numRuns: 300 },
    );
    expect(moves).toBeGreaterThanOrEqual(20);
  });

  it('with the ruleset analysis as the overlap check, offers only moves that keep every verdict', () => {
    let moves = 0;
    fc.assert(
      fc.property(rules, packets, (rs, recs) => {
        const pr = profiled(rs);
        const canSwap = analysisCanSwap(snapshotOf(rs), pr.map((r) => r.ref));
        for (const move of reorderAdvice(pr, countRules(pr, recs), recs, canSwap)) {
          moves++;
          const order = rs.map((_, i) => i).filter((i) => i !== move.from);
          order.splice(move.to, 0, move.from);
          expect(verdicts(firewallOf(order.map((i) => rs[i]!)), recs)).toEqual(verdicts(firewallOf(rs), recs));
        }
      }),
      { numRuns: 500 },
    );
    expect(moves).toBeGreaterThanOrEqual(20);
  });

  it('moves a busy block rule above unrelated rules', () => {
    const recs = Array.from({ length: 100 }, (_, i) => record({ src: '198.51.100.7', dst: '203.0.113.10', proto: i < 90 ? 'udp' : 'tcp', dport: i < 90 ? 53 : i < 95 ? 80 : 22, frame: i + 1 }));
    const pr = profiled([
      { action: 'block', enabled: true, expression: 'tcp.dstport == 22' },
      { action: 'log', enabled: true, expression: 'tcp.dstport == 80' },
      { action: 'block', enabled: true, expression: 'udp.dstport == 53' },
    ]);
    expect(reorderAdvice(pr, countRules(pr, recs), recs, conservativeCanSwap)).toEqual([
      // the 90 DNS packets no longer evaluate rules 0 and 1 (180 saved); the 5 SSH packets, decided
      // by rule 0, now evaluate rule 2 first (5 more); the 5 web packets reached all three before and still do
      { rule: 'r2', before: 'r0', from: 2, to: 0, evaluations_saved: 175 },
    ]);
  });
});
