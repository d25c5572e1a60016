// proveSpace and spaceExpression (test-suite `space:` cases): how a space is written as a
// Rules-language expression, what it refuses and where, and the three answers of a proof — holds,
// fails with a packet the firewall certainly decides otherwise, indeterminate with a packet it may
// decide otherwise — each witness replayed through the real firewall.
import { describe, expect, it } from 'vitest';
import { AnalysisBudget, proveSpace, SpaceProver, spaceExpression } from '../../src/analysis/index.js';
import { proveInModel, spaceModel } from '../../src/analysis/prove.js';
import { ConfigItemError } from '../../src/errors.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { replayer, snapshotOf } from './replay.js';

const one = (action: 'block' | 'skip' | 'log', expression: string, enabled = true) => ({ action, expression, enabled });

/** The error spaceExpression throws, as its path and message. */
function refusal(space: Parameters<typeof spaceExpression>[0], path?: string): { path: string; message: string } {
  try {
    spaceExpression(space, path);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigItemError);
    return { path: (err as ConfigItemError).path, message: (err as Error).message };
  }
  throw new Error('not refused');
}

describe('spaceExpression', () => {
  it('writes each field as `in {…}` of its values, and-ed; a Bool as the field or its negation; {} as the whole space', () => {
    expect(spaceExpression({})).toBe('');
    expect(spaceExpression({ 'ip.src': '10.0.0.0/8' })).toBe('ip.src in {10.0.0.0/8}');
    expect(spaceExpression({ 'ip.dst': ['192.0.2.1', '2001:db8::/32'], 'tcp.dstport': 22 })).toBe('ip.dst in {192.0.2.1 2001:db8::/32} and tcp.dstport in {22}');
    expect(spaceExpression({ 'tcp.dstport': ['8000-8080', '9000..9001', '10 - 20', '30 .. 40'] })).toBe('tcp.dstport in {8000..8080 9000..9001 10..20 30..40}');
    expect(spaceExpression({ 'tcp.flags.syn': false, sip: true })).toBe('not tcp.flags.syn and sip');
  });

  it('writes text values as strings, a protocol name in lower case (the language names protocols so), others as given', () => {
    expect(spaceExpression({ 'ip.proto': ['TCP', 'Udp'] })).toBe('ip.proto in {"tcp" "udp"}');
    expect(spaceExpression({ 'ip.src.country': 'US', 'cf.colo.name': ['SFO06'] })).toBe('ip.src.country in {"US"} and cf.colo.name in {"SFO06"}');
  });

  it('refuses a value a field cannot take, naming the field under the path given and what it expected', () => {
    expect(refusal({ 'tcp.flags.syn': 'yes' })).toEqual({ path: 'space.tcp.flags.syn', message: expect.stringContaining('expected true or false') });
    expect(refusal({ 'tcp.dstport': ['80', '8000-'] }, 'cases[2].space')).toEqual({
      path: 'cases[2].space.tcp.dstport',
      message: expect.stringContaining('"8000-" is not a number or a range such as 8000-8080 for tcp.dstport'),
    });
    expect(refusal({ 'tcp.dstport': [-1] }).message).toContain('-1 is not a number or a range');
    expect(refusal({ 'ip.src': ['10.0.0.0/8', 'nowhere'] })).toEqual({ path: 'space.ip.src', message: expect.stringContaining('"nowhere" is not an address or CIDR for ip.src') });
    expect(refusal({ 'no.such': [1] }, 'p')).toEqual({ path: 'p.no.such', message: expect.stringContaining('no field named no.such') });
  });
});

describe('proveSpace', () => {
  const s = snapshotOf([
    one('skip', 'ip.src in {192.0.2.0/24}'),
    one('block', 'tcp.dstport in {22 23}'),
    one('log', 'tcp.dstport == 80'),
    one('block', 'udp.dstport == 53', false),
  ]);
  const replay = replayer(s);

  it('holds for a verdict alone, for the deciding rule, and for no rule (passed by default)', () => {
    expect(proveSpace(s, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': [22, 23] }, { verdict: 'drop' })).toEqual({ status: 'holds' });
    expect(proveSpace(s, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': [22, 23] }, { verdict: 'drop', rule: 'r2' })).toEqual({ status: 'holds' });
    // a log rule and a disabled one decide nothing
    expect(proveSpace(s, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': 80 }, { verdict: 'pass', rule: null })).toEqual({ status: 'holds' });
    expect(proveSpace(s, { 'ip.src': '198.51.100.0/24', 'udp.dstport': 53 }, { verdict: 'pass', rule: null })).toEqual({ status: 'holds' });
  });

  it('fails with a packet the firewall decides with another verdict, or by another rule, or by a rule where none was expected', () => {
    const cases = [
      [{ 'tcp.dstport': 22 }, { verdict: 'drop' }, { verdict: 'pass', rule: 'r1' }],
      [{ 'tcp.dstport': 22 }, { verdict: 'pass', rule: 'r1' }, { verdict: 'drop', rule: 'r2' }],
      [{ 'ip.src': '192.0.2.0/24' }, { verdict: 'pass', rule: null }, { verdict: 'pass', rule: 'r1' }],
      [{ 'ip.src': '198.51.100.0/24', 'ip.proto': 'tcp' }, { verdict: 'pass', rule: null }, { verdict: 'drop', rule: 'r2' }],
    ] as const;
    for (const [space, expectation, got] of cases) {
      const proof = proveSpace(s, space, expectation);
      expect(proof, JSON.stringify([space, expectation])).toMatchObject({ status: 'fails', ...got });
      if (proof.status !== 'fails') continue;
      expect(replay(proof.witness)).toMatchObject(got);
    }
  });

  it('the empty space is every packet', () => {
    expect(proveSpace(s, {}, { verdict: 'pass' })).toMatchObject({ status: 'fails', verdict: 'drop', rule: 'r2' });
    expect(proveSpace(snapshotOf([]), {}, { verdict: 'pass', rule: null })).toEqual({ status: 'holds' });
    expect(proveSpace(snapshotOf([one('block', 'ip.ttl >= 0')]), {}, { verdict: 'drop', rule: 'r1' })).toEqual({ status: 'holds' });
  });

  it('is indeterminate, with a packet and the rule that may decide it, where only an unmodelled rule stands in the way; a certain failure wins', () => {
    const u = snapshotOf([one('block', 'tcp contains "abc"'), one('skip', 'tcp contains "xyz"'), one('block', 'udp.dstport == 53')]);
    const proof = proveSpace(u, { 'tcp.dstport': 22 }, { verdict: 'pass', rule: null });
    // the first rule that may decide a packet of the space otherwise is named
    expect(proof).toMatchObject({ status: 'indeterminate', verdict: 'drop', rule: 'r1' });
    if (proof.status === 'indeterminate') expect(proof.witness).toMatchObject({ 'tcp.dstport': 22 });
    // a packet certainly decided otherwise (UDP port 53, dropped by r3 unless r1 or r2 matched,
    // which no UDP packet does) makes it fail even after an uncertain one
    expect(proveSpace(u, { 'ip.dst': '192.0.2.1' }, { verdict: 'pass' })).toMatchObject({ status: 'fails', verdict: 'drop', rule: 'r3' });
  });

  it('a packet a later rule decides only if an earlier unmodelled rule misses it is possible, not certain', () => {
    // r1 drops the TCP packets whose payload holds "x" (unmodelled); r2 passes port 22
    const u = snapshotOf([one('block', 'tcp contains "x"'), one('skip', 'tcp.dstport == 22')]);
    const proof = proveSpace(u, { 'tcp.dstport': 22 }, { verdict: 'drop' });
    expect(proof).toMatchObject({ status: 'indeterminate', verdict: 'pass', rule: 'r2' });
    if (proof.status === 'indeterminate') expect(replayer(u)(proof.witness)).toMatchObject({ verdict: 'pass', rule: 'r2' });
    expect(proveSpace(u, { 'tcp.dstport': 22 }, { verdict: 'pass' })).toMatchObject({ status: 'indeterminate', verdict: 'drop', rule: 'r1' });
  });

  it('a witness lies in the space, a country the rules never name included', () => {
    const c = snapshotOf([one('block', 'ip.src.country != "US"')]);
    for (const country of ['DE', 'CN']) {
      const proof = proveSpace(c, { 'ip.src.country': country, 'tcp.dstport': 22 }, { verdict: 'pass' });
      expect(proof).toMatchObject({ status: 'fails', verdict: 'drop', rule: 'r1' });
      if (proof.status === 'fails') expect(proof.witness).toMatchObject({ 'ip.src.country': country, 'tcp.dstport': 22 });
    }
    expect(proveSpace(c, { 'ip.src.country': 'US' }, { verdict: 'pass', rule: null })).toEqual({ status: 'holds' });
  });

  it('a space whose text the language refuses (a port past any integer) is a ConfigItemError at the space', () => {
    const huge = { 'tcp.dstport': '99999999999999999999' };
    expect(() => proveSpace(s, huge, { verdict: 'pass' })).toThrow(expect.objectContaining({ path: 'space' }));
    const { hs, model } = spaceModel(s, {});
    expect(() => proveInModel(model, hs, huge, { verdict: 'pass' })).toThrow(expect.objectContaining({ path: 'space' }));
    expect(proveInModel(model, hs, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': 22 }, { verdict: 'drop', rule: 'r2' })).toEqual({ status: 'holds' });
  });

  it('a map of a union space that the language refuses is named by its place in the list', () => {
    const bad = { 'tcp.dstport': 'ssh' };
    expect(() => proveSpace(s, [{ 'tcp.dstport': 22 }, bad], { verdict: 'drop' })).toThrow(expect.objectContaining({ path: 'space[1].tcp.dstport' }));
    expect(() => proveSpace(s, bad, { verdict: 'drop' })).toThrow(expect.objectContaining({ path: 'space.tcp.dstport' }));
  });

  it('fails where the expected rule decides with the other verdict, or decides nothing (a log rule, no rule at all), naming what decides instead', () => {
    // r2 blocks every packet of the space: expecting it to pass them fails with r2's drop
    const proof = proveSpace(s, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': 22 }, { verdict: 'pass', rule: 'r2' });
    expect(proof).toMatchObject({ status: 'fails', verdict: 'drop', rule: 'r2' });
    if (proof.status === 'fails') expect(replay(proof.witness)).toMatchObject({ verdict: 'drop', rule: 'r2' });
    // r3 only logs: the packets it matches pass by no rule, or are decided by r1 (skip) or r2 (block)
    expect(proveSpace(s, { 'ip.src': '198.51.100.0/24', 'tcp.dstport': 80 }, { verdict: 'pass', rule: 'r3' })).toMatchObject({ status: 'fails', verdict: 'pass', rule: null });
    expect(proveSpace(s, { 'tcp.dstport': 80 }, { verdict: 'pass', rule: 'r3' })).toMatchObject({ status: 'fails', verdict: 'pass', rule: 'r1' });
    // a firewall whose only rule logs, or whose one block rule misses the space: the default pass decides
    expect(proveSpace(snapshotOf([one('log', 'tcp.dstport == 80')]), { 'tcp.dstport': 80 }, { verdict: 'pass', rule: 'r1' })).toMatchObject({ status: 'fails', verdict: 'pass', rule: null });
    expect(proveSpace(snapshotOf([one('block', 'tcp.dstport == 22')]), { 'tcp.dstport': 80 }, { verdict: 'pass', rule: 'r1' })).toMatchObject({ status: 'fails', verdict: 'pass', rule: null });
  });

  it('naming the deciding rule (or none), a space inside its packets and apart from every earlier rule is proved within a work limit the search the verdict alone needs exceeds', () => {
    // 20 boxes (port 10, every other TTL) that the blocking rule's packets (TTL 1 or 255) surround but never meet
    const space = Array.from({ length: 20 }, (_, k) => ({ 'tcp.dstport': 10, 'ip.ttl': 2 * k + 2 }));
    const around = one('block', 'tcp.dstport == 10 and ip.ttl in {1 255}');
    const port = one('skip', 'tcp.dstport == 10');
    for (const [rules, rule, open] of [
      [[around, port], 'r2', 'r1'],
      [[port, around], 'r1', 'r2'],
      [[around], null, 'r1'],
    ] as const) {
      const u = snapshotOf(rules);
      expect(proveSpace(u, space, { verdict: 'pass', rule }, { workLimit: 100 })).toEqual({ status: 'holds' });
      expect(proveSpace(u, space, { verdict: 'pass' }, { workLimit: 100 })).toMatchObject({ status: 'undecided', verdict: 'drop', rule: open });
      expect(proveSpace(u, space, { verdict: 'pass' })).toEqual({ status: 'holds' });
      // below what the proof without a search needs, no claim: undecided as the search is
      expect(proveSpace(u, space, { verdict: 'pass', rule }, { workLimit: 40 })).toMatchObject({ status: 'undecided', verdict: 'drop', rule: open });
    }
  });

  it('past the work limit, says which decision it could not rule out, the default pass as no rule', () => {
    const u = snapshotOf([one('block', 'tcp.dstport == 22')]);
    const proof = proveSpace(u, { 'ip.ttl': [1, 3, 5] }, { verdict: 'drop' }, { workLimit: 1 });
    expect(proof).toMatchObject({ status: 'undecided', verdict: 'pass', rule: null });
    if (proof.status === 'undecided') expect(proof.reason).toMatch(/before deciding whether no rule \(pass\) decides some packet of the space$/);
  });

  it('a space naming a country the rules never name, among others they do, is proved in a model that knows it: the witness has that country', () => {
    const c = snapshotOf([one('block', 'ip.src.country != "US"')]);
    const proof = proveSpace(c, { 'ip.src.country': ['US', 'DE'], 'tcp.dstport': 22 }, { verdict: 'pass' });
    expect(proof).toMatchObject({ status: 'fails', verdict: 'drop', rule: 'r1', witness: { 'ip.src.country': 'DE', 'tcp.dstport': 22 } });
  });

  it("the model of a space naming another country resolves the rules' lists as the caller's options say", () => {
    const mine = new IpSetBuilder();
    mine.addRange4(0xc0000200, 0xc00002ff); // 192.0.2.0/24
    const lists = (name: string) => (name === 'mine' ? mine.build() : undefined);
    const u = snapshotOf([one('block', 'ip.src in $mine')]);
    for (const country of ['US', 'DE']) {
      expect(proveSpace(u, { 'ip.src.country': country, 'ip.src': '192.0.2.7' }, { verdict: 'drop', rule: 'r1' }, { lists }), country).toEqual({ status: 'holds' });
    }
  });

  it("a prover models the firewall once: a space naming only the rules' names spends only its proof; one naming another country also a model of its own, from the same budget", () => {
    const u = snapshotOf([one('block', 'not (tcp.dstport == 22 and ip.src.country == "US")'), one('skip', 'ip.ttl < 10 or ip.src.country == "US"')]);
    const prover = new SpaceProver(u);
    expect(prover.budget.spent).toBeGreaterThan(0);
    const expectation = { verdict: 'pass', rule: 'r2' } as const;
    for (const [space, ownModel] of [
      [{ 'ip.src.country': 'US', 'tcp.dstport': 22 }, false],
      [{ 'ip.ttl': [1, 5] }, false],
      [{ 'ip.src.country': ['US', 'DE'], 'tcp.dstport': 22 }, true],
    ] as const) {
      const before = prover.budget.spent;
      const proof = prover.prove(space, expectation);
      const { hs, model, budget: modelling } = spaceModel(u, space);
      const alone = new AnalysisBudget();
      expect(proveInModel(model, hs, space, expectation, alone), JSON.stringify(space)).toEqual(proof);
      expect(alone.spent).toBeGreaterThan(0);
      if (ownModel) expect(modelling.spent).toBeGreaterThan(0);
      expect(prover.budget.spent - before, JSON.stringify(space)).toBe(alone.spent + (ownModel ? modelling.spent : 0));
    }
  });
});
