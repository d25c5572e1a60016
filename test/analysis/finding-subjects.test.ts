// What a finding is about (src/analysis/finding-subjects.ts): the ruleset's and rule's indexes in
// the configuration and the expression, for lint's findings (withSubjects) and for the
// deploy-time problems (deployFindings), named as every report names rulesets and rules.
import { describe, expect, it } from 'vitest';
import { deployFindings, withSubjects, type Finding } from '../../src/analysis/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';

const finding = (ruleset: string, rule: string | null): Finding => ({
  ruleset, rule, kind: 'unreachable', blocked_by: [], different_action: false, witness: null, message: 'm',
});

const snapshot: Snapshot = {
  rulesets: [
    { name: 'first', rules: [{ action: 'block', expression: 'tcp.dstport == 1', ref: 'a' }, { action: 'block', expression: 'tcp.dstport == 2' }] },
    { rules: [{ action: 'skip', expression: 'tcp.dstport == 3', id: 'x' }, { action: 'block', expression: 'tcp.dstport == 4', id: 'x' }] },
  ],
  syn_protection: { filters: [{ id: 'f', expression: 'tcp.dstport == 5', mode: 'enabled' }, { expression: 'tcp.dstport == 6', mode: 'enabled' }] },
  tcp_flow_protection: { filters: [{ expression: 'tcp.dstport == 7', mode: 'enabled' }] },
} as Snapshot;

describe('withSubjects', () => {
  it('finds each rule by its ruleset name and ref (id, or position), the first of a repeated ref', () => {
    const fs = [finding('first', 'a'), finding('first', 'first#2'), finding('rulesets[1]', 'x')];
    expect(withSubjects(snapshot, fs).map((s) => s.subject)).toEqual([
      { ruleset: 0, rule: 0, expression: 'tcp.dstport == 1' },
      { ruleset: 0, rule: 1, expression: 'tcp.dstport == 2' },
      { ruleset: 1, rule: 0, expression: 'tcp.dstport == 3' },
    ]);
    expect(withSubjects(snapshot, fs).map((s) => s.finding)).toEqual(fs);
  });

  it("finds an ATP filter by its id or place in its own component, and gives '' for what it cannot find", () => {
    const fs = [
      finding('syn_protection', 'f'),
      finding('syn_protection', 'syn_protection.filters[1]'),
      finding('tcp_flow_protection', 'tcp_flow_protection.filters[0]'),
      finding('tcp_flow_protection', 'syn_protection.filters[1]'),
      finding('first', null),
      finding('other', 'a'),
    ];
    expect(withSubjects(snapshot, fs).map((s) => s.subject)).toEqual([
      { expression: 'tcp.dstport == 5' },
      { expression: 'tcp.dstport == 6' },
      { expression: 'tcp.dstport == 7' },
      { expression: '' },
      { expression: '' },
      { expression: '' },
    ]);
  });

  it('finds no rule in a ruleset without rules', () => {
    const s = { rulesets: [{ name: 'empty' }] } as Snapshot;
    expect(withSubjects(s, [finding('empty', 'empty#1')]).map((x) => x.subject)).toEqual([{ expression: '' }]);
  });

  it('takes a configuration without rulesets or filters', () => {
    expect(withSubjects({} as Snapshot, [finding('syn_protection', 'f')])).toEqual([{ finding: finding('syn_protection', 'f'), subject: { expression: '' } }]);
  });
});

describe('deployFindings', () => {
  const document = {
    rulesets: [
      { name: 'edge', rules: [{ action: 'allow', expression: 'ip.ttl == 1' }, { ref: 'r', action: 'block', expression: 'ip.ttl == 2', logging: {} }] },
      { id: 'z', zone_id: 'q', rules: [{ action: 'block' }] },
    ],
  };

  it('names the rule and ruleset as reports do and points at them in the document', () => {
    const out = deployFindings(
      [
        { code: 'allow_action', ruleset: 0, rule: 0, message: 'allow is refused' },
        { code: 'logging_not_on_skip', ruleset: 0, rule: 1, message: 'logging' },
        { code: 'ruleset_at_zone_level', ruleset: 1, message: 'zone level' },
        { code: 'allow_action', ruleset: 1, rule: 0, message: 'no expression' },
      ],
      document,
    );
    expect(out).toEqual([
      {
        finding: { ruleset: 'edge', rule: 'edge#1', kind: 'allow_action', blocked_by: [], different_action: false, witness: null, message: 'edge#1: allow is refused' },
        subject: { ruleset: 0, rule: 0, expression: 'ip.ttl == 1' },
      },
      {
        finding: { ruleset: 'edge', rule: 'r', kind: 'logging_not_on_skip', blocked_by: [], different_action: false, witness: null, message: 'r: logging' },
        subject: { ruleset: 0, rule: 1, expression: 'ip.ttl == 2' },
      },
      {
        finding: { ruleset: 'z', rule: null, kind: 'ruleset_at_zone_level', blocked_by: [], different_action: false, witness: null, message: 'z: zone level' },
        subject: { ruleset: 1, rule: undefined, expression: '' },
      },
      {
        finding: { ruleset: 'z', rule: 'z#1', kind: 'allow_action', blocked_by: [], different_action: false, witness: null, message: 'z#1: no expression' },
        subject: { ruleset: 1, rule: 0, expression: '' },
      },
    ]);
  });

  it('names a rule that is not an object by its place, with no expression', () => {
    const out = deployFindings([{ code: 'allow_action', ruleset: 0, rule: 1, message: 'm' }], { rulesets: [{ name: 'edge', rules: [{}, null] }] });
    expect(out.map((x) => [x.finding.rule, x.subject])).toEqual([['edge#2', { ruleset: 0, rule: 1, expression: '' }]]);
  });

  it('takes no problems of any document', () => {
    expect(deployFindings([], document)).toEqual([]);
  });
});
