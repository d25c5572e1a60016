// lint's findings whole, as a user reads them: every field of each finding and its message
// (what is wrong, which rules, why the analysis could not decide); ruleStatuses' kinds; and the
// reason an indeterminate rule gives when earlier rules' packet classes were left unbuilt by the
// work limit.
import { describe, expect, it } from 'vitest';
import { lint, lintModel, ruleStatuses } from '../../src/analysis/index.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { replayer, snapshotOf, type RuleSpec } from './replay.js';

const rules = (...specs: Array<[RuleSpec['action'], string, boolean?]>): Snapshot =>
  snapshotOf(specs.map(([action, expression, enabled]) => ({ action, expression, enabled: enabled ?? true })));

const UNMODELLED = 'parts the analysis does not model (regular expressions, byte strings, functions, unknown lists) decide whether it is reached';
const base = { ruleset: 'rs', blocked_by: [], different_action: false, witness: null };

describe('lint findings, whole', () => {
  it('unreachable: the rules that decide its packets, with a different action or not, and a packet they decide', () => {
    const s = rules(['block', 'tcp.dstport in {22 23}'], ['block', 'tcp.dstport == 22'], ['skip', 'tcp.dstport == 23']);
    const found = lint(s);
    expect(found).toEqual([
      { ...base, rule: 'r2', kind: 'unreachable', blocked_by: ['r1'], witness: expect.any(Object), message: 'r2 (block) is never reached: every packet it matches is decided earlier by r1' },
      {
        ...base,
        rule: 'r3',
        kind: 'unreachable',
        blocked_by: ['r1'],
        different_action: true,
        witness: expect.any(Object),
        message: 'r3 (skip) is never reached: every packet it matches is decided earlier by r1, with a different action',
      },
    ]);
    for (const f of found) expect(replayer(s)(f.witness!).rule).toBe('r1');
    const two = rules(['block', 'ip.src in {10.0.0.0/9}'], ['skip', 'ip.src in {10.128.0.0/9}'], ['block', 'ip.src in {10.0.0.0/8} and udp.dstport >= 0']);
    expect(lint(two).map((f) => f.message)).toEqual(['r3 (block) is never reached: every packet it matches is decided earlier by r1, r2, with a different action']);
  });

  it('unmatchable, indeterminate and a warning, each with its message and no witness or blockers', () => {
    const s = rules(['block', 'tcp.dstport == 22 and udp.dstport == 53'], ['block', 'tcp contains "x"'], ['block', 'ip.ttl > 300']);
    expect(lint(s)).toEqual([
      { ...base, rule: 'r1', kind: 'unmatchable', message: 'r1 matches no packet' },
      { ...base, rule: 'r2', kind: 'indeterminate', message: `r2: ${UNMODELLED}` },
      { ...base, rule: 'r3', kind: 'impossible_comparison', message: expect.stringMatching(/^ip\.ttl: /) },
      { ...base, rule: 'r3', kind: 'unmatchable', message: 'r3 matches no packet' },
    ]);
  });

  it('a `not` over a transport field, with a packet of another transport it matches; each distinct warning once; none for a disabled rule', () => {
    const s = rules(['block', 'not tcp.dstport == 22 and not tcp.dstport == 23 and not (ip.ttl > 300)'], ['block', 'not tcp.dstport == 80', false]);
    const found = lint(s);
    expect(found).toEqual([
      {
        ...base,
        rule: 'r1',
        kind: 'negated_protocol_field',
        witness: expect.any(Object),
        message: '`not` over tcp.dstport also matches every packet without a TCP header (other protocols, fragments); the rule matches such packets',
      },
      { ...base, rule: 'r1', kind: 'impossible_comparison', message: expect.stringMatching(/^ip\.ttl: /) },
    ]);
    expect(found[0]!.witness!['ip.proto']).not.toBe('tcp');
  });

  it('an indeterminate rule names the earlier rules whose packet classes the work limit left unbuilt, or gives its own limit', () => {
    const big = Array.from({ length: 5 }, (_, i) => `(tcp.dstport == ${i} or ip.ttl == ${i})`).join(' and ');
    const s = rules(['block', big], ['block', 'udp.dstport == 53'], ['block', big.replaceAll('ip.ttl', 'ip.len')], ['block', 'tcp.dstport == 9']);
    const { space, firewalls } = modelFirewalls([{ snapshot: s, options: { workLimit: 10 } }]);
    const model = firewalls[0]!;
    expect(model.rules.map((r) => r.limit !== undefined)).toEqual([true, false, true, false]);
    const found = lintModel(model, space);
    // r1 may decide every packet (its classes unbuilt), so nothing after it is certain; r2 is built
    expect(found.map((f) => [f.rule, f.kind, f.message])).toEqual([
      ['r1', 'indeterminate', `r1: ${model.rules[0]!.limit}`],
      ['r2', 'indeterminate', `r2: ${UNMODELLED}, or the packet classes of r1, which the work limit left unbuilt`],
      ['r3', 'indeterminate', `r3: ${model.rules[2]!.limit}`],
      ['r4', 'indeterminate', `r4: ${UNMODELLED}, or the packet classes of r1, r3, which the work limit left unbuilt`],
    ]);
    expect(model.rules[0]!.limit).toMatch(/work limit/);
  });
});

describe('ruleStatuses', () => {
  it('gives each rule its kind, in order', () => {
    const s = rules(['block', 'tcp.dstport == 22'], ['block', 'tcp.dstport == 22'], ['block', 'udp.dstport == 53', false], ['block', 'tcp.dstport == 1 and udp.dstport == 1'], ['block', 'tcp contains "x"']);
    const statuses = ruleStatuses(s);
    expect(statuses.map((r) => [r.ref, r.status.kind])).toEqual([
      ['r1', 'reachable'],
      ['r2', 'unreachable'],
      ['r3', 'disabled'],
      ['r4', 'unmatchable'],
      ['r5', 'indeterminate'],
    ]);
    expect(statuses[2]!.status).toEqual({ kind: 'disabled' });
    expect(statuses[4]!.status).toEqual({ kind: 'indeterminate', reason: UNMODELLED });
  });
});
