// modelFirewalls (src/analysis/model.ts): a snapshot's rules in evaluation order with where they are
// and how they are named; what it shares between snapshots and rules (one meaning object per rule
// text and lists, one ranges object per list content: the comparison and the searches recognise
// them by identity); an expression past the work limit keeps only the sound bounds and says why;
// an expression the engine rejects is a ConfigItemError naming the rule.
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { checkExpressions } from '../../src/analysis/index.js';
import { modelFirewalls, parseAt } from '../../src/analysis/model.js';
import { ConfigItemError } from '../../src/errors.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { snapshotOf } from './replay.js';

const one = (action: 'block' | 'skip' | 'log', expression: string, enabled = true) => ({ action, expression, enabled });

const v4 = (...ranges: Array<[number, number]>) => {
  const b = new IpSetBuilder();
  for (const [lo, hi] of ranges) b.addRange4(lo, hi);
  return b.build();
};

describe('modelFirewalls', () => {
  it('lists every rule of every ruleset in snapshot order, named by ref, id or ruleset#position, with its path', () => {
    const snap: Snapshot = {
      rulesets: [
        { name: 'first', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'a', action: 'block', expression: 'tcp.dstport == 22' }, { id: 'id-b', action: 'log', expression: 'sip', enabled: false }] },
        { name: '', id: 'rs-two', kind: 'root', phase: 'edge_transit', rules: [{ action: 'skip', expression: 'ip.ttl < 5', action_parameters: { ruleset: 'current' }, enabled: true }] },
        { name: '', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'tcp.flags.syn' }] },
      ],
    };
    const { firewalls } = modelFirewalls([{ snapshot: snap }]);
    expect(firewalls[0]!.rules.map(({ ref, ruleset, action, enabled, expression, path }) => ({ ref, ruleset, action, enabled, expression, path }))).toEqual([
      { ref: 'a', ruleset: 'first', action: 'block', enabled: true, expression: 'tcp.dstport == 22', path: 'rulesets[0].rules[0]' },
      { ref: 'id-b', ruleset: 'first', action: 'log', enabled: false, expression: 'sip', path: 'rulesets[0].rules[1]' },
      { ref: 'rs-two#1', ruleset: 'rs-two', action: 'skip', enabled: true, expression: 'ip.ttl < 5', path: 'rulesets[1].rules[0]' },
      { ref: 'rulesets[2]#1', ruleset: 'rulesets[2]', action: 'block', enabled: true, expression: 'tcp.flags.syn', path: 'rulesets[2].rules[0]' },
    ]);
    expect(modelFirewalls([{ snapshot: {} }]).firewalls[0]!.rules).toEqual([]);
    // a ruleset without a rules list has no rules
    const bare: Snapshot = { rulesets: [{ name: 'empty', kind: 'root', phase: 'edge_transit' }, snapshotOf([one('block', 'sip')]).rulesets![0]!] };
    expect(modelFirewalls([{ snapshot: bare }]).firewalls[0]!.rules.map((r) => [r.ref, r.path])).toEqual([['r1', 'rulesets[1].rules[0]']]);
    // no snapshot: the header space of the extra expressions alone, no firewall
    const none = modelFirewalls([], [parseAt('ip.src.country == "DE"', 'rule', 'x').expr]);
    expect(none.firewalls).toEqual([]);
    expect(none.space.universe.length).toBeGreaterThan(0);
  });

  it('refuses an expression the engine rejects, naming the rule', () => {
    const snap = snapshotOf([one('block', 'tcp.dstport == 22'), one('block', 'tcp.dstport ==  ')]);
    for (const f of [() => modelFirewalls([{ snapshot: snap }]), () => checkExpressions(snap)]) {
      expect(f).toThrow(ConfigItemError);
      try {
        f();
      } catch (err) {
        expect((err as ConfigItemError).path).toBe('rulesets[0].rules[1].expression');
        expect((err as Error).message).not.toMatch(/\s$/);
      }
    }
    expect(() => checkExpressions(snapshotOf([one('block', 'tcp.dstport == 22')]))).not.toThrow();
    expect(() => parseAt('nope ==', 'rule', 'here')).toThrow(expect.objectContaining({ path: 'here' }));
  });

  it('one meaning object for one rule text with the same lists, in one snapshot or two; another where a list differs', () => {
    const rules = [one('block', 'ip.src in $blocklist and tcp.dstport == 22'), one('block', 'ip.src in $blocklist and tcp.dstport == 22'), one('log', 'ip.src in $other')];
    const a = snapshotOf(rules);
    const b = snapshotOf(rules);
    const same = v4([167772160, 167772415]);
    const { firewalls } = modelFirewalls([
      { snapshot: a, options: { lists: (n) => (n === 'blocklist' ? same : v4([1, 2])) } },
      { snapshot: b, options: { lists: (n) => (n === 'blocklist' ? same : v4([3, 4])) } },
    ]);
    const [x, y] = firewalls as [(typeof firewalls)[0], (typeof firewalls)[0]];
    expect(x.rules[1]!.meaning).toBe(x.rules[0]!.meaning);
    expect(y.rules[0]!.meaning).toBe(x.rules[0]!.meaning);
    // $other resolves to different addresses in each snapshot: two meanings
    expect(y.rules[2]!.meaning).not.toBe(x.rules[2]!.meaning);
    expect(y.rules[2]!.meaning.must).not.toEqual(x.rules[2]!.meaning.must);
  });

  it('a rule text without lists is one meaning; with two lists, shared only where both resolve the same', () => {
    const rules = [one('block', 'tcp.dstport == 22'), one('block', 'ip.src in $a and ip.dst in $b')];
    const X = v4([1, 2]);
    const { firewalls } = modelFirewalls([
      { snapshot: snapshotOf(rules), options: { lists: (n) => (n === 'a' ? X : v4([5, 6])) } },
      { snapshot: snapshotOf(rules), options: { lists: (n) => (n === 'a' ? X : v4([7, 8])) } },
    ]);
    const [x, y] = firewalls as [(typeof firewalls)[0], (typeof firewalls)[0]];
    expect(y.rules[0]!.meaning).toBe(x.rules[0]!.meaning);
    // $a the same addresses, $b not: the second snapshot's rule has its own meaning, with its own $b
    expect(y.rules[1]!.meaning).not.toBe(x.rules[1]!.meaning);
    const dst = y.rules[1]!.meaning.must.map((box) => box[1]);
    expect(dst.length).toBeGreaterThan(0);
    for (const set of dst) expect(set).toEqual([7n, 8n]);
  });

  it('a list of the same addresses is one ranges object, whichever set object holds it; different addresses are not', () => {
    const sets: Record<string, ReturnType<typeof v4>> = {
      p: v4([10, 20], [30, 40]),
      q: v4([10, 20], [30, 40]),
      r: v4([10, 20], [30, 41]),
      s: v4([10, 20], [25, 26], [30, 40]),
    };
    const snap = snapshotOf([one('block', 'ip.src in $p'), one('block', 'ip.src in $q'), one('block', 'ip.src in $r'), one('block', 'ip.src in $s')]);
    const { firewalls } = modelFirewalls([{ snapshot: snap, options: { lists: (n) => sets[n] } }]);
    const meanings = firewalls[0]!.rules.map((r) => r.meaning);
    // the rules differ in text, so their meanings are built apart; p and q share their addresses
    const src = (k: number) => meanings[k]!.must.map((box) => box[0]);
    expect(src(1)).toEqual(src(0));
    src(1).forEach((set, i) => expect(set).toBe(src(0)[i]));
    expect(src(2)).not.toEqual(src(0));
    expect(src(3)).not.toEqual(src(0));
  });

  it('a list of 1 to 20 separate ranges is its addresses exactly, one ranges object for two sets of them', () => {
    for (let n = 1; n <= 20; n++) {
      const ranges = Array.from({ length: n }, (_, i): [number, number] => [100 * i + 1, 100 * i + 50]);
      const sets: Record<string, ReturnType<typeof v4>> = { p: v4(...ranges), q: v4(...ranges) };
      const snap = snapshotOf([one('block', 'ip.src in $p'), one('block', 'ip.src in $q')]);
      const [p, q] = modelFirewalls([{ snapshot: snap, options: { lists: (name) => sets[name] } }]).firewalls[0]!.rules;
      const src = p!.meaning.must.map((box) => box[0]);
      expect(src.length).toBeGreaterThan(0);
      for (const set of src) expect(set).toEqual(ranges.flat().map(BigInt));
      q!.meaning.must.forEach((box, i) => expect(box[0]).toBe(src[i]));
    }
  });

  it('an expression past the work limit keeps only the sound bounds (nothing certain, everything possible) and says why', () => {
    const big = Array.from({ length: 5 }, (_, i) => `(tcp.dstport == ${i} or ip.ttl == ${i})`).join(' and ');
    const snap = snapshotOf([one('block', big), one('block', 'tcp.dstport == 1')]);
    const { space, firewalls } = modelFirewalls([{ snapshot: snap, options: { workLimit: 10 } }]);
    const [limited, small] = firewalls[0]!.rules;
    expect(limited!.meaning.must).toEqual([]);
    expect(limited!.meaning.may).toBe(space.universe);
    expect(limited!.limit).toMatch(/work limit .* building the packet classes of its expression$/);
    expect(small!.limit).toBeUndefined();
    expect(small!.meaning.must.length).toBeGreaterThan(0);
    // under the default limit the same expression is modelled
    const free = modelFirewalls([{ snapshot: snap }]).firewalls[0]!.rules[0]!;
    expect(free.limit).toBeUndefined();
  });
});
