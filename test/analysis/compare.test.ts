// compareRulesets and proveSpace on hand-made cases, and proveSpace replayed: a space that holds is
// decided as expected for sampled packets of it; a refutation's witness replays as stated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnalysisBudget, compareRulesets, proveSpace, spaceExpression } from '../../src/analysis/index.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { expressionMeaning } from '../../src/analysis/expression.js';
import { parseAt } from '../../src/analysis/model.js';
import { createListRegistry } from '../../src/data/lists.js';
import { ConfigItemError } from '../../src/errors.js';
import { randomSource, replayer, ruleSpecs, samples, snapshotOf } from './replay.js';

const one = (action: 'block' | 'skip' | 'log', expression: string) => ({ action, expression, enabled: true });

describe('compareRulesets', () => {
  it('proves reordered independent rules equivalent', () => {
    const a = snapshotOf([one('block', 'tcp.dstport == 22'), one('block', 'udp.dstport == 53')]);
    const b = snapshotOf([one('block', 'udp.dstport == 53'), one('block', 'tcp.dstport == 22')]);
    const cmp = compareRulesets(a, b);
    expect(cmp.same_verdicts).toBe(true);
    expect(cmp.same_deciding_rules).toBe(false);
    // the refs moved (r1 <-> r2): the same packets are decided by differently named rules, with
    // the same verdict
    expect(cmp.differences).toEqual([
      expect.objectContaining({ before: { verdict: 'drop', rule: 'r1' }, after: { verdict: 'drop', rule: 'r2' }, verdict_changed: false, witness: expect.objectContaining({ 'tcp.dstport': 22 }) }),
      expect.objectContaining({ before: { verdict: 'drop', rule: 'r2' }, after: { verdict: 'drop', rule: 'r1' }, verdict_changed: false, witness: expect.objectContaining({ 'udp.dstport': 53 }) }),
    ]);
  });

  it('finds the class a narrowed rule lets through, with the rules on each side', () => {
    const a = snapshotOf([one('block', 'tcp.dstport in {22 23}')]);
    const b = snapshotOf([one('block', 'tcp.dstport == 22')]);
    const cmp = compareRulesets(a, b);
    expect(cmp.same_verdicts).toBe(false);
    expect(cmp.differences).toEqual([
      expect.objectContaining({ before: { verdict: 'drop', rule: 'r1' }, after: { verdict: 'pass', rule: null }, verdict_changed: true, certain: true }),
    ]);
    expect(cmp.differences[0]!.witness).toMatchObject({ 'tcp.dstport': 23 });
  });

  it('proves the same deciding rules only when no class differs and none is left open', () => {
    const a = snapshotOf([one('block', 'tcp.dstport in {22 23}'), one('skip', 'ip.src in {10.0.0.0/8}')]);
    // the same rules written otherwise: every packet decided by the same rule
    const b = snapshotOf([one('block', 'tcp.dstport == 22 or tcp.dstport == 23'), one('skip', 'ip.src in {10.0.0.0/8 10.0.0.0/9}')]);
    expect(compareRulesets(a, b)).toEqual({ same_verdicts: true, same_deciding_rules: true, differences: [], indeterminate: [] });
    // a class left open by the work limit is no proof: neither of the two is claimed
    const narrowed = snapshotOf([one('block', 'tcp.dstport == 22'), one('skip', 'ip.src in {10.0.0.0/8}')]);
    const open = compareRulesets(a, narrowed, { workLimit: 0 });
    expect(open.differences).toEqual([]);
    expect(open.indeterminate).not.toEqual([]);
    expect([open.same_verdicts, open.same_deciding_rules]).toEqual([false, false]);
    expect(compareRulesets(a, narrowed).same_deciding_rules).toBe(false);
  });

  it('settles a pair from a rule\'s decided region without a search: a shadowed rule decides no packet, even under a pair limit of 0 steps', () => {
    // before, r2 is shadowed by r1; after, it is the only rule
    const a = snapshotOf([one('block', 'tcp.dstport in {22 80}'), one('block', 'tcp.dstport == 22 and ip.ttl < 10')]);
    const b = snapshotOf([one('block', 'tcp.dstport == 22 and ip.ttl < 10')]);
    const pairs = (items: ReadonlyArray<{ before: { rule: string | null }; after: { rule: string | null } }>) => items.map((d) => [d.before.rule, d.after.rule]);
    expect(pairs(compareRulesets(a, b).differences)).toEqual([['r1', null]]);
    // no packet goes from r2 (before) to r1 (after): known from r2's empty class, built under the question's limit, not the pair's
    const searchless = compareRulesets(a, b, { workLimit: 0 });
    expect(searchless.differences).toEqual([]);
    expect(pairs(searchless.indeterminate)).toEqual([['r1', null]]);
  });

  it('settles every pair by a search when the run\'s questions are too small to build the rules\' decided regions', () => {
    const a = snapshotOf([one('block', 'tcp.dstport in {22 80}'), one('skip', 'ip.src in {10.0.0.0/8}'), one('block', 'ip.ttl < 10'), one('block', 'tcp.dstport >= 1024')]);
    const b = snapshotOf([one('skip', 'ip.src in {10.0.0.0/8}'), one('block', 'tcp.dstport in {22 80}'), one('block', 'tcp.dstport >= 1024')]);
    const shape = (c: ReturnType<typeof compareRulesets>) => ({ ...c, differences: c.differences.map(({ witness: _, ...d }) => d) });
    const exact = compareRulesets(a, b);
    expect(exact.differences.length).toBeGreaterThan(1);
    const unbuilt = compareRulesets(a, b, { budget: new AnalysisBudget({ perQuestion: 1 }), workLimit: Infinity });
    expect(shape(unbuilt)).toEqual(shape(exact));
    const replay = replayer(a);
    const replayAfter = replayer(b);
    for (const d of unbuilt.differences) expect([replay(d.witness), replayAfter(d.witness)]).toMatchObject([d.before, d.after]);
  });

  it('lists the classes whose verdict changes first, each kind in the rules\' order', () => {
    const a = snapshotOf([one('block', 'tcp.dstport == 22'), one('block', 'udp.dstport == 53'), one('block', 'ip.ttl < 10'), one('block', 'ip.len > 1000')]);
    const b = snapshotOf([one('block', 'udp.dstport == 53'), one('block', 'tcp.dstport == 22')]);
    const cmp = compareRulesets(a, b);
    expect(cmp.differences.map((d) => [d.before.rule, d.after.rule, d.verdict_changed])).toEqual([
      ['r3', null, true],
      ['r4', null, true],
      ['r1', 'r2', false],
      ['r2', 'r1', false],
    ]);
  });

  it('resolves each side\'s lists with that side\'s options (diff --static --lists)', () => {
    const listed = (cidr: string) => {
      const registry = createListRegistry({ accountLists: [{ name: 'blocklist', kind: 'ip', items: [{ ip: cidr }] }] });
      return { lists: (name: string) => registry.resolve(name) };
    };
    // the same rule on both sides; its list differs, and neither side's is the snapshot's own
    const s = snapshotOf([one('block', 'ip.src in $blocklist')]);
    const cmp = compareRulesets(s, s, { a: listed('203.0.113.0/24'), b: listed('192.0.2.0/24') });
    expect(cmp.differences).toEqual([
      expect.objectContaining({ before: { verdict: 'drop', rule: 'r1' }, after: { verdict: 'pass', rule: null }, certain: true, witness: expect.objectContaining({ 'ip.src': expect.stringMatching(/^203\.0\.113\./) }) }),
      expect.objectContaining({ before: { verdict: 'pass', rule: null }, after: { verdict: 'drop', rule: 'r1' }, certain: true, witness: expect.objectContaining({ 'ip.src': expect.stringMatching(/^192\.0\.2\./) }) }),
    ]);
  });

  it('a skip placed before a block changes verdicts', () => {
    const a = snapshotOf([one('block', 'ip.src in {10.0.0.0/8}'), one('skip', 'ip.src == 10.0.0.1')]);
    const b = snapshotOf([one('skip', 'ip.src == 10.0.0.1'), one('block', 'ip.src in {10.0.0.0/8}')]);
    const cmp = compareRulesets(a, b);
    expect(cmp.differences.filter((d) => d.verdict_changed)).toEqual([
      expect.objectContaining({ before: { verdict: 'drop', rule: 'r1' }, after: { verdict: 'pass', rule: 'r1' }, witness: expect.objectContaining({ 'ip.src': '10.0.0.1' }) }),
    ]);
  });
});

describe('proveSpace', () => {
  const s = snapshotOf([one('skip', 'ip.src in {192.0.2.0/24}'), one('block', 'ip.dst in {203.0.113.0/24} and tcp.dstport in {22 2222}')]);

  it('holds for every packet of the space', () => {
    expect(proveSpace(s, { 'ip.dst': ['203.0.113.0/25'], 'ip.src': ['198.51.100.0/24'], 'tcp.dstport': [22] }, { verdict: 'drop', rule: 'r2' })).toEqual({ status: 'holds' });
  });

  it('fails with a witness the firewall decides otherwise', () => {
    const proof = proveSpace(s, { 'ip.dst': ['203.0.113.0/24'], 'ip.proto': 'TCP', 'tcp.dstport': [22] }, { verdict: 'drop' });
    expect(proof).toMatchObject({ status: 'fails', verdict: 'pass', rule: 'r1' });
    if (proof.status !== 'fails') return;
    expect(replayer(s)(proof.witness)).toMatchObject({ verdict: 'pass', rule: 'r1' });
  });

  it('counts packets with protocol number 6 but no TCP header (fragments) in ip.proto: tcp', () => {
    const proof = proveSpace(s, { 'ip.dst': ['203.0.113.7'], 'ip.src': ['198.51.100.1'], 'ip.proto': 'tcp' }, { verdict: 'drop' });
    expect(proof).toMatchObject({ status: 'fails', verdict: 'pass', rule: null });
  });

  it('rejects a space it cannot read, naming the field', () => {
    expect(() => spaceExpression({ 'tcp.dstport': ['22; drop'] })).toThrow(ConfigItemError);
    expect(() => spaceExpression({ 'ip.dst': ['203.0.113.0/33'] })).toThrow(/space\.ip\.dst/);
    expect(() => spaceExpression({ 'tcp.nope': [1] })).toThrow(/no field named tcp.nope/);
    expect(spaceExpression({ 'tcp.dstport': [22, '8000-8080'], 'tcp.flags.syn': true })).toBe('tcp.dstport in {22 8000..8080} and tcp.flags.syn');
  });

  it('agrees with replaying packets of the space', () => {
    const spaces = fc.record(
      {
        'ip.src': fc.constantFrom(['10.0.0.0/8'], ['192.0.2.0/25', '2001:db8::/64'], ['10.1.2.3']),
        'ip.proto': fc.constantFrom('tcp', 'udp'),
        'tcp.dstport': fc.constantFrom([22], [80, '1000-2000']),
        'udp.dstport': fc.constantFrom([53], [123]),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(ruleSpecs, spaces, fc.constantFrom('pass', 'drop'), fc.integer(), (specs, space, verdict, seed) => {
        const snap = snapshotOf(specs);
        const proof = proveSpace(snap, space, { verdict });
        const replay = replayer(snap);
        if (proof.status === 'fails') expect(replay(proof.witness)).toMatchObject({ verdict: proof.verdict, rule: proof.rule });
        if (proof.status !== 'holds') return;
        const { space: hs } = modelFirewalls([{ snapshot: snap }]);
        const text = spaceExpression(space);
        if (text === '') return;
        const region = expressionMeaning(parseAt(text, 'rule', 'space').expr, { universe: hs.universe, names: hs.names, lists: () => undefined, notes: [] }).must;
        if (region.length === 0) return;
        for (const w of samples(region, hs.names, randomSource(seed), 20)) expect(replay(w).verdict, JSON.stringify(w)).toBe(verdict);
      }),
      { numRuns: 150 },
    );
  });
});
