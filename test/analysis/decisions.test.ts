// The decisions two firewalls share (src/analysis/decisions.ts, as diff --static asks them): when
// one side's deciding rule is a rule the other side reaches earlier, no packet is decided by both,
// and that is known without a search. So comparing a ruleset with an unchanged copy (every pair of
// different rules has one before the other) settles every pair whatever the work limit. A packet
// both may decide is looked for outside what earlier rules certainly decide, not what they may:
// a rule after an unmodelled one possibly decides the packets that one misses.
// The module's answers below it: without the decided regions each side is searched outside its
// earlier rules; the shortcuts (a repeated rule, rules on apart packets, a complement known and
// smaller) answer without a step; a decided region is given up past its most boxes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRulesets } from '../../src/analysis/index.js';
import { Budget } from '../../src/analysis/budget.js';
import { type Decision, decidedPacket, decidedRegion, decisions, jointPacket } from '../../src/analysis/decisions.js';
import { isExact } from '../../src/analysis/expression.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { complementOf, type Region, regionCovers, subtractRegions } from '../../src/analysis/space.js';
import { witnessOf } from '../../src/analysis/witness.js';
import { replayer, ruleSpecs, snapshotOf } from './replay.js';

const block = (expression: string) => ({ action: 'block' as const, expression, enabled: true });

/** The decisions of each ruleset (of block rules), modelled in one header space as diff --static models its two sides. */
function decided(...rulesets: string[][]) {
  const snapshots = rulesets.map((exprs) => snapshotOf(exprs.map(block)));
  const { space, firewalls } = modelFirewalls(snapshots.map((snapshot) => ({ snapshot })));
  return { space, snapshots, sides: firewalls.map((fw) => decisions(fw, space.universe)) };
}

/** the same packets (each region covers the other) */
const samePackets = (a: Region, b: Region): boolean => regionCovers(a, b) && regionCovers(b, a);

describe('jointPacket', () => {
  it('a rule added after one the analysis does not model possibly changes verdicts: on the packets that one may miss', () => {
    const before = snapshotOf([block('tcp contains "abc"'), block('tcp.dstport == 22')]);
    const after = snapshotOf([block('tcp contains "abc"')]);
    const cmp = compareRulesets(before, after);
    const added = cmp.differences.find((d) => d.before.rule === 'r2' && d.after.rule === null);
    expect(added).toMatchObject({ before: { verdict: 'drop' }, after: { verdict: 'pass' }, verdict_changed: true, certain: false });
    expect(cmp.same_verdicts).toBe(false);
    // its witness: port 22 without "abc", dropped by r2 before, passed after
    expect([replayer(before)(added!.witness), replayer(after)(added!.witness)]).toEqual([expect.objectContaining({ verdict: 'drop', rule: 'r2' }), expect.objectContaining({ verdict: 'pass', rule: null })]);
  });

  it('an unchanged copy of a ruleset is proved equivalent at any work limit', () => {
    // rules modelled exactly (an unmodelled part's two bounds differ, so such a rule's pairs are searched)
    const exact = ruleSpecs.filter((specs) => modelFirewalls([{ snapshot: snapshotOf(specs) }]).firewalls[0]!.rules.every((r) => isExact(r.meaning)));
    fc.assert(
      fc.property(
        exact,
        fc.integer({ min: 1, max: 100 }),
        (specs, workLimit) => {
          const cmp = compareRulesets(snapshotOf(specs), snapshotOf(specs), { workLimit });
          expect(cmp.indeterminate).toEqual([]);
          expect(cmp.same_verdicts).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('jointPacket without the decided regions (each side searched outside its earlier rules)', () => {
  // r2 comes after a rule the analysis does not model: it possibly, never certainly, decides port 22
  const { space, snapshots, sides } = decided(['tcp contains "abc"', 'tcp.dstport == 22'], ['tcp.dstport == 22']);
  const [before, after] = sides as [Decision[], Decision[]];
  const r2 = before[1]!;
  const r1 = after[0]!;

  for (const [name, x, y, sx, sy] of [['before, after', r2, r1, 0, 1], ['after, before', r1, r2, 1, 0]] as const) {
    it(`finds no packet both certainly decide and one both possibly decide, the shadowed side either way round (${name})`, () => {
      expect(jointPacket(x, y, 'must')).toBeNull();
      const box = jointPacket(x, y, 'may');
      expect(box).not.toBeNull();
      // replayed: port 22 without "abc", decided by r2 on one side and r1 on the other
      const w = witnessOf(box!, space.names);
      expect(replayer(snapshots[sx]!)(w).rule).toBe(sx === 0 ? 'r2' : 'r1');
      expect(replayer(snapshots[sy]!)(w).rule).toBe(sy === 0 ? 'r2' : 'r1');
    });
  }

  it('settles two rules on apart packets without a step', () => {
    const { sides: [[p22], [p23]] } = decided(['tcp.dstport == 22'], ['tcp.dstport == 23']);
    expect(jointPacket(p22!, p23!, 'must', new Budget(0))).toBeNull();
  });
});

describe('jointPacket with both decided regions', () => {
  it('spends only their intersection', () => {
    // y's earlier rule (ports 20 and 30) is not apart from the packets (port 22) by its hull: searching outside it would spend more
    const { sides: [[x], [, y]] } = decided(['tcp.dstport == 22'], ['tcp.dstport in {20 30}', 'tcp.dstport in {20..30}']);
    const dx = decidedRegion(x!, 'must')!;
    const dy = decidedRegion(y!, 'must')!;
    const built = (d: Decision) => (d === x ? dx : dy);
    const box = jointPacket(x!, y!, 'must', new Budget(dx.length * dy.length), built);
    expect(box).not.toBeNull();
    expect(box).toEqual(jointPacket(x!, y!, 'must'));
  });
});

describe('decidedRegion', () => {
  it('a rule repeating an earlier one decides nothing, known without a step', () => {
    const { sides: [[, again]] } = decided(['tcp.dstport == 22', 'tcp.dstport == 22']);
    expect(decidedRegion(again!, 'must', new Budget(0))).toEqual([]);
    expect(decidedRegion(again!, 'may', new Budget(0))).toEqual([]);
  });

  it('a rule apart from every earlier one decides all it matches, known without a step', () => {
    const { sides: [[, d]] } = decided(['tcp.dstport == 22', 'tcp.dstport == 23']);
    expect(decidedRegion(d!, 'must', new Budget(0))).toBe(d!.matches.must);
  });

  it("a rule after `not (a and b)` is cut by the complement's one box: the same packets as subtracting, for the steps of that intersection", () => {
    const { sides: [[, d]] } = decided(['not (tcp.dstport == 22 and ip.src in {10.0.0.0/8})', 'tcp.dstport in {20..30}']);
    const earlier = d!.earlierMay[0]!;
    const co = complementOf(earlier)!;
    expect(co.length).toBeLessThan(earlier.length);
    const built = decidedRegion(d!, 'must', new Budget(d!.matches.must.length * co.length))!;
    expect(samePackets(built, subtractRegions(d!.matches.must, earlier))).toBe(true);
    expect(built.length).toBeGreaterThan(0);
  });

  it("a rule after `not (…)` whose complement is no smaller is cut by subtracting: a rule inside it is emptied in fewer steps than intersecting with the complement", () => {
    // `not (ip.ttl < 10)` and its complement are 8 boxes each; the rule's boxes each end at the one box of the earlier rule holding them
    const { sides: [[, d]] } = decided(['not (ip.ttl < 10)', 'ip.ttl > 100 and ip.src in {10.0.0.0/8}']);
    const earlier = d!.earlierMay[0]!;
    const co = complementOf(earlier)!;
    expect(co.length).toBe(earlier.length);
    expect(decidedRegion(d!, 'must', new Budget(d!.matches.must.length * co.length - 1))).toEqual([]);
  });

  it('gives up (null) past maxBoxes boxes, not at maxBoxes', () => {
    // one earlier rule cutting a port range along another field: the rule's region in several boxes
    const { sides: [[, d]] } = decided(['tcp.dstport == 25 and ip.src in {10.0.0.0/8}', 'tcp.dstport in {20..30}']);
    const built = decidedRegion(d!, 'must')!;
    expect(built.length).toBeGreaterThan(1);
    expect(samePackets(built, subtractRegions(d!.matches.must, d!.earlierMay[0]!))).toBe(true);
    expect(decidedRegion(d!, 'must', undefined, built.length)).toEqual(built);
    expect(decidedRegion(d!, 'must', undefined, built.length - 1)).toBeNull();
  });
});

describe('decidedPacket', () => {
  it('settles a rule apart from the space without a step', () => {
    const { sides: [[p22, p23]] } = decided(['tcp.dstport == 22', 'tcp.dstport == 23']);
    expect(decidedPacket(p23!, p22!.matches.must, 'must', new Budget(0))).toBeNull();
  });
});
