// lint on hand-made rulesets: each finding kind, blocked_by minimality, what log and disabled rules
// do, the packet-model contradictions, warnings, indeterminate parts and ATP filters.
import { describe, expect, it } from 'vitest';
import { AnalysisBudget, explain, lint, lintModel, type Finding } from '../../src/analysis/index.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { firstOutside } from '../../src/analysis/space.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { replayer, snapshotOf, type RuleSpec } from './replay.js';

const rules = (...specs: Array<[RuleSpec['action'], string, boolean?]>): Snapshot =>
  snapshotOf(specs.map(([action, expression, enabled]) => ({ action, expression, enabled: enabled ?? true })));

const kinds = (fs: Finding[]): string[] => fs.map((f) => `${f.rule}:${f.kind}`);

describe('unreachable', () => {
  it('names the earlier rule that covers it, with a witness it would match', () => {
    const s = rules(['block', 'tcp.dstport in {22 23}'], ['block', 'tcp.dstport == 22 and ip.src in {10.0.0.0/8}']);
    const [f] = lint(s);
    expect(f).toMatchObject({ rule: 'r2', kind: 'unreachable', blocked_by: ['r1'], different_action: false });
    expect(f!.witness).toMatchObject({ 'tcp.dstport': 22 });
    expect(replayer(s)(f!.witness!).rule).toBe('r1');
  });

  it('needs several rules together and reports different_action when one of them acts otherwise', () => {
    const s = rules(['block', 'ip.src in {10.0.0.0/9}'], ['skip', 'ip.src in {10.128.0.0/9}'], ['block', 'ip.src in {10.0.0.0/8} and udp.dstport >= 0']);
    expect(lint(s)).toEqual([expect.objectContaining({ rule: 'r3', kind: 'unreachable', blocked_by: ['r1', 'r2'], different_action: true })]);
  });

  // r6 is decided by r1..r3 (which the proof finds) and by r4, r5 alone (which only the search finds)
  const minimumCoverRules: Array<[RuleSpec['action'], string]> = [
    ['block', 'tcp.dstport in {1 4}'],
    ['block', 'tcp.dstport in {2 5}'],
    ['block', 'tcp.dstport in {3 6}'],
    ['block', 'tcp.dstport in {1..3}'],
    ['block', 'tcp.dstport in {4..6}'],
    ['block', 'tcp.dstport in {1..6}'],
  ];
  const minimumCover = rules(...minimumCoverRules);

  it('returns a minimum set where an inclusion-minimal one would be larger', () => {
    expect(lint(minimumCover).find((f) => f.rule === 'r6')).toMatchObject({ kind: 'unreachable', blocked_by: ['r4', 'r5'] });
  });

  // r1..r3 and r4, r5 as above, after `filler` rules that each overlap the last rule without covering any of it
  const pastExactLimit = (filler: number): Snapshot =>
    rules(...Array.from({ length: filler }, (_, k): [RuleSpec['action'], string] => ['block', `tcp.dstport in {1..6} and ip.src == 10.0.0.${k + 1}`]), ...minimumCoverRules);

  it('searches for the fewest rules among at most 12 overlapping earlier rules; past 12, names each rule its proof needed', () => {
    // 12 earlier rules overlap r13: the fewest, r4 and r5 (here r11, r12)
    expect(lint(pastExactLimit(7)).at(-1)).toMatchObject({ rule: 'r13', kind: 'unreachable', blocked_by: ['r11', 'r12'] });
    // 13 overlap r14: the search of every smaller subset is exponential, so blocked_by is the proof's
    // three rules, none of them to spare (the message says nothing of a work limit: none was hit)
    expect(lint(pastExactLimit(8)).at(-1)).toMatchObject({
      rule: 'r14',
      kind: 'unreachable',
      blocked_by: ['r9', 'r10', 'r11'],
      message: 'r14 (block) is never reached: every packet it matches is decided earlier by r9, r10, r11',
    });
  });

  it("counts each box it compares against the work limit: 40 earlier rules of 16 boxes each, near the last rule, cut a 400-step search for fewer rules short", () => {
    // a `not` of 15 conditions is a region of 16 boxes; each skip rule's region is near r43's (their
    // hulls meet) without meeting it, and the search for fewer rules compares r43's region with each
    const conditions = (ttl: number): string =>
      `ip.src == 9.9.9.9 and ip.dst == 8.8.8.8 and tcp.srcport == 7 and tcp.flags == 2 and ip.ttl == ${ttl} and ip.len == 100 and ip.hdr_len == 5 and ip.opt.type == 1 and ip.src.asnum == 5 and ip.dst.asnum == 6 and ip.src.country == "US" and ip.dst.country == "FR" and cf.colo.name == "sfo06" and cf.colo.region == "WNAM" and sip`;
    const snapshot = rules(
      ...Array.from({ length: 40 }, (_, k): [RuleSpec['action'], string] => ['skip', `tcp.dstport in {149 151} and not (${conditions(k + 1)})`]),
      ['block', 'tcp.dstport == 150 and ip.src in {2.0.0.0/25}'],
      ['block', 'tcp.dstport == 150 and ip.src in {2.0.0.128/25}'],
      ['block', 'tcp.dstport == 150 and ip.src in {2.0.0.0/24}'],
    );
    expect(lint(snapshot, { workLimit: 400 }).find((f) => f.rule === 'r43')).toMatchObject({
      kind: 'unreachable',
      blocked_by: ['r41', 'r42'],
      message: 'r43 (block) is never reached: every packet it matches is decided earlier by r41, r42 (the work limit stopped the search for fewer rules)',
    });
    // with the default limit the search ends: the same two rules, and no note
    expect(lint(snapshot).find((f) => f.rule === 'r43')!.message).toBe('r43 (block) is never reached: every packet it matches is decided earlier by r41, r42');
  });

  it('counts each box an `or` of 64 entries compares against the work limit: with 2,500 steps the rule is left unmodelled', () => {
    // an allowlist of 64 subnets and hosts: building its packet classes compares each entry's
    // complement with the boxes of the entries before it, found through their index (about 5,000
    // steps); a limit of half that leaves r1 unbuilt and r2 undecided, the default decides both
    const entry = (k: number) => (k % 4 === 3 ? `(ip.src == 10.0.${k}.1 and tcp.dstport == 443)` : `(ip.src in {10.0.${k}.0/24} and tcp.dstport == 443)`);
    const snapshot = rules(['skip', Array.from({ length: 64 }, (_, k) => entry(k)).join(' or ')], ['block', 'tcp.dstport == 443 and ip.src in {10.0.0.0/24}']);
    expect(lint(snapshot, { workLimit: 2500 }).map((f) => [f.rule, f.kind, f.message])).toEqual([
      ['r1', 'indeterminate', 'r1: the analysis reached its work limit (2,500 steps) building the packet classes of its expression'],
      ['r2', 'indeterminate', expect.stringContaining('the packet classes of r1, which the work limit left unbuilt')],
    ]);
    expect(kinds(lint(snapshot))).toEqual(['r2:unreachable']);
  });

  // six subnets on 443, one `or` entry each: about 4,500 steps to build
  const sixSubnets = (o: number) => Array.from({ length: 6 }, (_, k) => `(ip.src in {10.${o}.${k}.0/24} and tcp.dstport == 443)`).join(' or ');

  it('an allowlist of six subnets with a mistyped port 65536 on either side is built within 6,000 steps: the empty side adds no complement to record', () => {
    // `x or (nothing)` is x, whose complement is already recorded; recording it again would
    // compare its 512 boxes with the mistyped comparison's complement
    const snapshot = rules(['block', `(${sixSubnets(0)}) or tcp.dstport == 65536`], ['block', `tcp.dstport == 65536 or (${sixSubnets(1)})`]);
    expect(lint(snapshot, { workLimit: 6000 }).map((f) => [f.rule, f.kind])).toEqual([
      ['r1', 'impossible_comparison'],
      ['r2', 'impossible_comparison'],
    ]);
  });

  it('names the rules it has, and says so, when the work limit cut the search for fewer rules short', () => {
    const { space, firewalls } = modelFirewalls([{ snapshot: minimumCover }]);
    const r6 = (limit?: number) => lintModel(firewalls[0]!, space, limit).find((f) => f.rule === 'r6')!;
    expect(r6().message).toBe('r6 (block) is never reached: every packet it matches is decided earlier by r4, r5');
    // the smallest limit that proves r6 unreachable leaves no steps for the search for fewer rules
    let limit = 1;
    while (r6(limit).kind === 'indeterminate') limit++;
    expect(r6(limit)).toMatchObject({
      kind: 'unreachable',
      blocked_by: ['r1', 'r2', 'r3'],
      message: 'r6 (block) is never reached: every packet it matches is decided earlier by r1, r2, r3 (the work limit stopped the search for fewer rules)',
    });
  });

  // rulesets written at random (a seeded probe; kept as found, up to the rule looked at), each with more than 12
  // earlier rules overlapping that rule, so lint returns the rules its proof needed without searching every subset
  const pastLimitFound: Array<{ rules: Array<[RuleSpec['action'], string]>; rule: string }> = [
    {
      rule: 'r16',
      rules: [
        ['skip', '((tcp.dstport in {1..3 1 6} or not ip.src in {10.0.2.0/23}) and not ip.src in {10.0.2.0/24})'],
        ['skip', '(not (ip.src in {10.0.0.0/23 10.0.2.0/24} and tcp.dstport in {7 3}) or ip.src in {10.0.0.0/23})'],
        ['block', 'tcp.dstport in {6 3..3 2..5}'],
        ['block', '((not ip.src in {10.0.2.0/23} and not ip.src in {10.0.0.0/23}) and (tcp.dstport in {5 2} or tcp.dstport in {6 2..3}))'],
        ['block', 'tcp.dstport in {4..4}'],
        ['skip', 'tcp.dstport in {3..3 3..5}'],
        ['skip', '(tcp.dstport in {5..6} or (tcp.dstport in {2..3} or tcp.dstport in {3..3 1..3}))'],
        ['skip', '((tcp.dstport in {4 6 3..6} and tcp.dstport in {8 3..3 1}) or (ip.src in {10.0.2.0/23} and tcp.dstport in {6}))'],
        ['block', '(tcp.dstport in {7 3..5 4} or tcp.dstport in {2 5..8 7})'],
        ['block', 'tcp.srcport in {3 3}'],
        ['block', '((tcp.dstport in {3} and tcp.dstport in {4 4}) or (ip.src in {10.0.2.0/23 10.0.0.0/23} or ip.src in {10.0.2.0/23 10.0.2.0/23}))'],
        ['block', '((ip.src in {10.0.3.0/24 10.0.2.0/23} and tcp.srcport in {4 5..6 3}) and (not ip.src in {10.0.2.0/24 10.0.3.0/24} or tcp.dstport in {5 7..7}))'],
        ['skip', 'not (not tcp.dstport in {7..9 4 4} and (tcp.dstport in {3 5} and ip.src in {10.0.3.0/24}))'],
        ['block', '(tcp.dstport in {3 7 3..6} and (tcp.srcport in {1..4 1} and not ip.src in {10.0.0.0/24 10.0.2.0/24}))'],
        ['skip', '(ip.src in {10.0.3.0/24 10.0.2.0/24} or (not ip.src in {10.0.0.0/23} and ip.src in {10.0.2.0/23 10.0.2.0/24}))'],
        ['block', 'tcp.dstport in {7 3..6}'],
      ],
    },
    {
      rule: 'r16',
      rules: [
        ['skip', 'tcp.dstport in {3..4 7..10 3..3}'],
        ['block', 'tcp.srcport in {4..5 4..4 1}'],
        ['block', 'tcp.dstport in {1 1..4}'],
        ['block', '((not ip.src in {10.0.0.0/23 10.0.2.0/24} and ip.src in {10.0.1.0/24 10.0.3.0/24}) and (tcp.dstport in {5} and tcp.dstport in {2}))'],
        ['skip', 'tcp.dstport in {4..5}'],
        ['block', '((tcp.dstport in {7..10} or tcp.dstport in {5 6 2..2}) and (not tcp.dstport in {1..1 3} and tcp.dstport in {7..10}))'],
        ['block', 'tcp.srcport in {2}'],
        ['block', '(not (ip.src in {10.0.1.0/24 10.0.0.0/24} and tcp.dstport in {3..6}) and (ip.src in {10.0.2.0/23} or not ip.src in {10.0.0.0/24 10.0.0.0/24}))'],
        ['skip', '((ip.src in {10.0.2.0/23} or tcp.dstport in {2 7}) and ip.src in {10.0.2.0/24 10.0.3.0/24})'],
        ['block', '(not tcp.dstport in {7..7} and (ip.src in {10.0.2.0/23} or ip.src in {10.0.1.0/24 10.0.0.0/23}))'],
        ['block', '(not (tcp.dstport in {7..10} and not ip.src in {10.0.3.0/24}) or (tcp.dstport in {4 3 2..2} or not ip.src in {10.0.0.0/24 10.0.3.0/24}))'],
        ['skip', 'not ip.src in {10.0.0.0/23}'],
        ['block', '(not ip.src in {10.0.3.0/24 10.0.2.0/24} and (not tcp.dstport in {3 8 3..4} and tcp.dstport in {6..8 2 1..2}))'],
        ['skip', '(not tcp.dstport in {7..8} and (not ip.src in {10.0.1.0/24} or tcp.srcport in {6 3..3}))'],
        ['block', 'not ((not tcp.dstport in {7 6} or ip.src in {10.0.0.0/23}) and tcp.dstport in {5..8 6})'],
        ['block', '(not (ip.src in {10.0.2.0/24} and tcp.srcport in {7..7 2}) and (tcp.dstport in {6 2..3 4..5} or tcp.dstport in {6..6 2..4 6..8}))'],
      ],
    },
    {
      rule: 'r14',
      rules: [
        ['block', 'not tcp.dstport in {3}'],
        ['block', 'tcp.dstport in {2 4..7}'],
        ['block', '(not (not ip.src in {10.0.0.0/23 10.0.2.0/23} and tcp.dstport in {8 3 2..3}) and (not ip.src in {10.0.0.0/23 10.0.1.0/24} and tcp.dstport in {8..8}))'],
        ['block', '((not ip.src in {10.0.2.0/23} or tcp.dstport in {3}) and not (not ip.src in {10.0.0.0/23 10.0.2.0/23} and not tcp.dstport in {1}))'],
        ['block', '((tcp.dstport in {2..3 2..4 2..2} or not tcp.dstport in {7 2 3}) and not (tcp.srcport in {1 2} and ip.src in {10.0.0.0/23 10.0.3.0/24}))'],
        ['block', 'tcp.srcport in {3..6 2..5 1}'],
        ['skip', 'not ip.src in {10.0.1.0/24 10.0.0.0/23}'],
        ['skip', '((not ip.src in {10.0.0.0/24 10.0.2.0/23} and tcp.dstport in {6..9 3}) or (ip.src in {10.0.1.0/24} and tcp.dstport in {1..1 4}))'],
        ['skip', '(ip.src in {10.0.0.0/23} and (tcp.dstport in {2..5 4} and not ip.src in {10.0.3.0/24 10.0.0.0/24}))'],
        ['skip', 'ip.src in {10.0.2.0/23 10.0.0.0/24}'],
        ['skip', '((not tcp.dstport in {5} or ip.src in {10.0.0.0/24 10.0.2.0/23}) and (ip.src in {10.0.0.0/23} and not ip.src in {10.0.3.0/24 10.0.2.0/23}))'],
        ['block', '(not ip.src in {10.0.2.0/23} and tcp.dstport in {8 8 4})'],
        ['skip', 'tcp.srcport in {8}'],
        ['block', 'tcp.dstport in {1..8} and ip.src in {10.0.0.0/22}'],
      ],
    },
    // 14 earlier rules overlap r16; r2 alone decides it (an `or` with an empty side in r1, r2 and r13)
    {
      rule: 'r16',
      rules: [
        ['block', '((tcp.dstport in {1..2} and tcp.dstport in {4..4 7}) or tcp.dstport in {4})'],
        ['block', '(((tcp.dstport in {7} and tcp.dstport in {10}) or ip.src in {10.0.3.0/24}) or (ip.src in {10.0.0.0/23} or ip.src in {10.0.3.0/24 10.0.2.0/23}))'],
        ['skip', '((tcp.dstport in {2 3 2} and ip.src in {10.0.1.0/24 10.0.2.0/23}) and not tcp.dstport in {7 3})'],
        ['block', 'tcp.srcport in {3}'],
        ['block', '(not ip.src in {10.0.1.0/24} and tcp.dstport in {4..5})'],
        ['skip', 'tcp.dstport in {3}'],
        ['skip', 'ip.src in {10.0.1.0/24}'],
        ['block', 'not (tcp.dstport in {4 2})'],
        ['block', 'tcp.dstport in {2..3}'],
        ['skip', '(not tcp.dstport in {7 8} and (tcp.dstport in {2..3} or tcp.dstport in {8 6 5}))'],
        ['skip', '(not ip.src in {10.0.0.0/23 10.0.2.0/24} or not tcp.dstport in {8..10 3..3 2})'],
        ['block', '(tcp.dstport in {7..8 2} and ((tcp.dstport in {3} and tcp.dstport in {5}) and ip.src in {10.0.3.0/24}))'],
        ['block', '((ip.src in {10.0.0.0/23} or (tcp.dstport in {8} and tcp.dstport in {11})) and tcp.srcport in {8..10})'],
        ['skip', 'ip.src in {10.0.0.0/24 10.0.1.0/24}'],
        ['block', '(not tcp.dstport in {7 2} and (tcp.dstport in {5..8 8..9} or tcp.dstport in {1..3}))'],
        ['block', 'tcp.dstport in {1..6} and ip.src in {10.0.0.0/22}'],
      ],
    },
    // 13 earlier rules overlap r14 (which also gets a warning for its `not`); r7 and r10 together decide it
    {
      rule: 'r14',
      rules: [
        ['skip', '(((tcp.dstport in {2} and tcp.dstport in {5}) and (tcp.dstport in {3} and tcp.dstport in {6})) or (ip.src in {10.0.3.0/24} or ip.src in {10.0.2.0/23 10.0.0.0/24}))'],
        ['skip', 'ip.src in {10.0.3.0/24}'],
        ['block', 'tcp.dstport in {2}'],
        ['block', 'not (not tcp.dstport in {2..4})'],
        ['block', '((tcp.dstport in {2} or ip.src in {10.0.3.0/24}) and (tcp.dstport in {1 1..2} or tcp.dstport in {8..9 5..8 1..1}))'],
        ['skip', '(tcp.dstport in {5 2..5} and tcp.dstport in {6..9 4..7 7..10})'],
        ['block', '((ip.src in {10.0.2.0/23} and ip.src in {10.0.0.0/23 10.0.2.0/23}) or not tcp.dstport in {8 5..8})'],
        ['skip', 'ip.src in {10.0.1.0/24}'],
        ['block', '((tcp.dstport in {5} and tcp.dstport in {8}) or ip.src in {10.0.2.0/23})'],
        ['skip', '(ip.src in {10.0.1.0/24 10.0.0.0/23} or ip.src in {10.0.1.0/24})'],
        ['skip', 'not (not tcp.dstport in {3..5 1..3 4})'],
        ['skip', 'ip.src in {10.0.2.0/24}'],
        ['block', '((tcp.dstport in {3..5 2..4 1} or (tcp.dstport in {4} and tcp.dstport in {5})) or tcp.dstport in {8..10 7 3..3})'],
        ['block', '(not tcp.dstport in {8..8 5..8} or (ip.src in {10.0.3.0/24 10.0.0.0/23} and tcp.dstport in {1..1 4..7}))'],
      ],
    },
  ];
  it('past 12 overlapping rules, still names no more rules than needed where the proof finds a smallest set (rulesets written at random)', () => {
    for (const { rules: specs, rule } of pastLimitFound) {
      const earlier = specs.slice(0, -1);
      // whether the earlier rules at these indexes decide every packet of the rule (it is the last of a ruleset of them)
      const decide = (indexes: number[]): boolean =>
        lint(rules(...indexes.map((i) => earlier[i]!), specs.at(-1)!)).some((f) => f.rule === `r${indexes.length + 1}` && f.kind === 'unreachable');
      // (a rule's warnings, such as a `not` over a transport field, come before its reachability)
      const f = lint(rules(...specs)).find((x) => x.rule === rule && x.kind !== 'negated_protocol_field');
      expect(f?.kind, rule).toBe('unreachable');
      const named = f!.blocked_by.map((ref) => Number(ref.slice(1)) - 1);
      expect(decide(named), `${rule}: ${f!.blocked_by.join(', ')} decide it`).toBe(true);
      // no set of fewer earlier rules decides it (every one tried)
      const fewer: number[][] = [];
      const pick = (from: number, chosen: number[]): void => {
        if (chosen.length === named.length - 1) {
          if (chosen.length > 0 && decide(chosen)) fewer.push(chosen);
          return;
        }
        for (let i = from; i < earlier.length; i++) pick(i + 1, [...chosen, i]);
      };
      pick(0, []);
      expect(fewer.map((c) => c.map((i) => `r${i + 1}`).join(', ')), `${rule}: ${f!.blocked_by.join(', ')}`).toEqual([]);
    }
  });

  it('ignores log and disabled rules on both sides', () => {
    const s = rules(['log', 'tcp.dstport == 22'], ['block', 'tcp.dstport >= 0', false], ['block', 'tcp.dstport == 22 and tcp.flags.syn']);
    expect(lint(s)).toEqual([]);
    const t = rules(['block', 'tcp.dstport == 22'], ['log', 'tcp.dstport == 22'], ['block', 'tcp.dstport == 22', false]);
    expect(kinds(lint(t))).toEqual(['r2:unreachable']);
  });

  it('follows the absent-field semantics: `!=` covers every packet without the field', () => {
    const s = rules(['block', 'tcp.dstport != 22'], ['block', 'udp.dstport == 53']);
    expect(kinds(lint(s))).toEqual(['r1:negated_protocol_field', 'r2:unreachable']);
  });

  it('is not claimed when an earlier rule covers only part', () => {
    const s = rules(['block', 'tcp.dstport == 22'], ['block', 'tcp.dstport in {22 23}']);
    expect(lint(s)).toEqual([]);
    const e = explain(s, 'r2');
    expect(e.status).toBe('reachable');
    expect(e.witness).toMatchObject({ 'tcp.dstport': 23 });
    expect(e.overlaps).toEqual([expect.objectContaining({ rule: 'r1', covers: false, certain: true, witness: expect.objectContaining({ 'tcp.dstport': 22 }) })]);
  });
});

describe('unmatchable', () => {
  it('knows a packet carries one transport and one address family', () => {
    const s = rules(
      ['block', 'tcp.dstport == 80 and udp.dstport == 53'],
      ['block', 'ip.src in {10.0.0.0/8} and ip.dst in {2001:db8::/32}'],
      ['block', 'ip.proto == "udp" and tcp.flags.syn'],
      ['block', 'ip.ttl > 255'],
      ['block', 'ip.hdr_len == 5 and ip.src == 2001:db8::1'],
    );
    expect(kinds(lint(s)).filter((k) => k.endsWith('unmatchable'))).toEqual(['r1:unmatchable', 'r2:unmatchable', 'r3:unmatchable', 'r4:unmatchable', 'r5:unmatchable']);
  });

  it('does not claim a TCP-numbered packet without a TCP header impossible (fragments)', () => {
    const s = rules(['block', 'ip.proto == "tcp" and not tcp.dstport >= 0']);
    expect(lint(s)).toEqual([expect.objectContaining({ kind: 'negated_protocol_field' })]);
    const e = explain(s, 'r1');
    expect(e.status).toBe('reachable');
    expect(e.witness).toMatchObject({ 'ip.proto': 'tcp' });
    expect(e.witness).not.toHaveProperty('tcp.dstport');
    expect(replayer(s)(e.witness!).rule).toBe('r1');
  });
});

describe('warnings', () => {
  it('comparisons that cannot be true', () => {
    const s = rules(['block', 'ip.proto == "TCP"'], ['block', 'ip.src.country in {"us" "CA"}'], ['block', 'tcp.dstport in {22 70000}'], ['block', 'cf.colo.name == "SFO06"']);
    const fs = lint(s);
    expect(kinds(fs)).toEqual(['r1:impossible_comparison', 'r1:unmatchable', 'r2:impossible_comparison', 'r3:impossible_comparison', 'r4:impossible_comparison', 'r4:unmatchable']);
    expect(fs[0]!.message).toContain('"tcp"');
    expect(fs[2]!.message).toContain('"US"');
    expect(fs[3]!.message).toContain('70000');
  });

  it('integers below a field\'s lowest value (the parser takes negative integers)', () => {
    const s = rules(['block', 'ip.ttl == -1'], ['block', 'tcp.dstport in {-3 22}'], ['block', 'tcp.dstport in {-9..-2 80}'], ['block', 'ip.ttl != -1']);
    expect(lint(s).map((f) => `${f.rule}:${f.kind}: ${f.message}`)).toEqual([
      'r1:impossible_comparison: ip.ttl: -1 is outside 0–255; `==` is never true',
      'r1:unmatchable: r1 matches no packet',
      'r2:impossible_comparison: tcp.dstport: -3 outside 0–65535 never match',
      'r3:impossible_comparison: tcp.dstport: -9..-2 outside 0–65535 never match',
      'r4:impossible_comparison: ip.ttl: -1 is outside 0–255; `!=` is always true',
    ]);
  });

  it('a negative integer meets no packet that lacks the field: `==`, `>` and `>=` false there, `!=` true (the real firewall agrees)', () => {
    // fields a packet may lack (ip.hdr_len: IPv4's only; ip.opt.type: only with options; ip.src.asnum: only with an AS number)
    for (const field of ['ip.hdr_len', 'ip.opt.type', 'ip.src.asnum']) {
      expect(kinds(lint(rules(['block', `${field} == -1`])))).toEqual(['r1:impossible_comparison', 'r1:unmatchable']);
      // every packet with the field is above -2, none without it: a later rule still decides those
      for (const [cut, later] of [[`${field} > -2`, 'ip.dst == ::1'], [`${field} >= -1`, 'ip.ttl == 64']] as const) {
        const s = rules(['block', cut], ['skip', later]);
        expect(lint(s), `${cut}, then ${later}`).toEqual([]);
        const e = explain(s, 'r2');
        expect(e.status).toBe('reachable');
        expect(replayer(s)(e.witness!).rule).toBe('r2');
      }
    }
    // `!=` on a packet without the field is true: every packet reaches r1 or is decided by it
    const ne = rules(['block', 'ip.hdr_len != -1'], ['skip', 'ip.dst == ::1']);
    expect(kinds(lint(ne))).toEqual(['r1:impossible_comparison', 'r2:unreachable']);
    expect(replayer(ne)({ 'ip.dst': '::1', 'ip.src': '::2', 'ip.proto': 'udp' }).rule).toBe('r1');
  });

  it('empty and unknown lists', () => {
    const s: Snapshot = { ...rules(['block', 'ip.src in $empty'], ['block', 'ip.src in $nosuch']), lists: [{ name: 'empty', kind: 'ip', items: [] }] };
    expect(kinds(lint(s))).toEqual(['r1:empty_list', 'r1:unmatchable', 'r2:unknown_list', 'r2:indeterminate']);
  });

  it('`not` on a transport field only when the rule then matches other transports', () => {
    expect(kinds(lint(rules(['block', 'not tcp.flags.syn'])))).toEqual(['r1:negated_protocol_field']);
    expect(lint(rules(['block', 'tcp.flags.ack and not tcp.flags.syn']))).toEqual([]);
    expect(lint(rules(['block', 'tcp.dstport == 22 and not tcp.flags.syn']))).toEqual([]);
  });
});

describe('indeterminate', () => {
  it('is said where unmodelled parts decide reachability, never a wrong claim', () => {
    const s = rules(['block', 'tcp.dstport == 443 and ip.src.country matches "^U"'], ['block', 'tcp.dstport == 443 and ip.src.country == "US"'], ['block', 'tcp.dstport == 443']);
    expect(kinds(lint(s))).toEqual(['r1:indeterminate', 'r2:indeterminate']);
  });

  it('claims unreachable through an unmodelled rule when a modelled earlier one covers it', () => {
    const s = rules(['block', 'tcp.dstport >= 0'], ['block', 'tcp.dstport == 22 and tcp contains "SSH"']);
    expect(lint(s)).toEqual([expect.objectContaining({ rule: 'r2', kind: 'unreachable', blocked_by: ['r1'] })]);
  });

  it('is not said of a rule whose packet classes are exact once the limit allows the one search past the earlier rules', () => {
    // every bound exact: the packet outside the earlier rules' certain matches is the witness, no second search
    for (const s of [
      rules(['block', 'tcp.dstport in {1..3}'], ['block', 'tcp.dstport in {2..6}']),
      rules(['block', 'tcp.dstport == 1 or ip.ttl < 5'], ['skip', 'udp.dstport == 53 and not ip.src in {10.0.0.0/8}'], ['block', 'ip.ttl < 10']),
    ]) {
      const { space, firewalls } = modelFirewalls([{ snapshot: s }]);
      const model = firewalls[0]!;
      const last = model.rules.at(-1)!;
      expect(model.rules.every((r) => r.meaning.must === r.meaning.may)).toBe(true);
      // the steps of that one search
      const run = new AnalysisBudget();
      firstOutside(last.meaning.may, model.rules.slice(0, -1).map((r) => r.meaning.must), run.question());
      const steps = run.spent;
      expect(steps).toBeGreaterThan(1);
      expect(lintModel(model, space, steps).filter((f) => f.rule === last.ref)).toEqual([]);
      expect(lintModel(model, space, steps - 1).find((f) => f.rule === last.ref)).toMatchObject({
        kind: 'indeterminate',
        message: expect.stringMatching(new RegExp(`^${last.ref}: the analysis reached its work limit \\(${steps - 1} steps?\\) before deciding whether it is reached$`)),
      });
    }
  });
});

describe('ATP filters', () => {
  it('never applies: outside protected space, or shadowed by a stronger mode', () => {
    const s: Snapshot = {
      prefixes: [{ prefix: '203.0.113.0/24' }],
      syn_protection: {
        filters: [
          { id: 'f1', expression: 'ip.dst in {203.0.113.0/25}', mode: 'enabled' },
          { id: 'f2', expression: 'ip.dst in {203.0.113.0/26} and tcp.dstport == 22', mode: 'monitoring' },
          { id: 'f3', expression: 'ip.dst in {198.51.100.0/24} and ip.src in {198.51.100.0/24}', mode: 'enabled' },
          { id: 'f4', expression: 'ip.dst in {203.0.113.0/24}', mode: 'disabled' },
        ],
      },
    };
    expect(kinds(lint(s))).toEqual(['f2:atp_filter_never_applies', 'f3:atp_filter_never_applies']);
  });
});

describe('field domains', () => {
  it('an IPv4 ordering covers IPv4 addresses only: IPv6 rules after it stay reachable', () => {
    const s = rules(['block', 'ip.src >= 10.0.0.0'], ['block', 'ip.src <= 255.255.255.255'], ['block', 'ip.src == ::'], ['block', 'ip.src == ::1'], ['block', 'ip.src == 255.255.255.255']);
    expect(kinds(lint(s))).toEqual(['r5:unreachable']);
    for (const [rule, address] of [['r3', '::'], ['r4', '::1']] as const) {
      const e = explain(s, rule);
      expect(e.status).toBe('reachable');
      expect(e.witness).toMatchObject({ 'ip.src': address });
      expect(replayer(s)(e.witness!).rule).toBe(rule);
    }
  });

  it('IPv6 ip.len (payload length + 40) can exceed 65535', () => {
    expect(lint(rules(['block', 'ip.len > 65535']))).toEqual([]);
    expect(kinds(lint(rules(['block', 'ip.len > 65535 and ip.src in {10.0.0.0/8}'])))).toEqual(['r1:unmatchable']);
  });
});
