// The analysis against the real firewall (src/firewall): every claim lint makes is replayed.
// - unreachable: packets sampled from the rule's region are never decided (nor matched) by it;
// - unmatchable: sampled packets of the whole space never match the rule alone;
// - every other enabled rule's witness is decided by it (a log rule: matched by it, undecided before);
// - compareRulesets: random packets decided differently by the two firewalls fall in a reported
//   difference with the same rules on each side, and each certain difference's witness replays as stated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRulesets } from '../../src/analysis/index.js';
import { ruleStatus } from '../../src/analysis/lint.js';
import { modelFirewalls } from '../../src/analysis/model.js';
import { witnessOf } from '../../src/analysis/witness.js';
import { randomSource, replayer, ruleSpecs, samples, snapshotOf, type RuleSpec } from './replay.js';

const RUNS = 150;

describe('lint claims replayed through the firewall', () => {
  it('unreachable, unmatchable and witnesses agree with evaluation', () => {
    let unreachable = 0;
    let reachable = 0;
    fc.assert(
      fc.property(ruleSpecs, fc.integer(), (specs, seed) => {
        const snapshot = snapshotOf(specs);
        const { space, firewalls } = modelFirewalls([{ snapshot }]);
        const model = firewalls[0]!;
        const replay = replayer(snapshot);
        const rnd = randomSource(seed);
        model.rules.forEach((rule, i) => {
          const status = ruleStatus(model, i);
          if (status.kind === 'unreachable') {
            unreachable++;
            const blockers = replayer(snapshotOf(status.blockedBy.map((k) => ({ ...specs[k]!, action: 'block' as const }))));
            const earlier = model.rules.slice(0, i).map((r) => r.ref);
            for (const w of samples(status.region, space.names, rnd, 20)) {
              const r = replay(w);
              expect(r.matched, JSON.stringify(w)).not.toContain(rule.ref);
              expect(earlier, JSON.stringify(w)).toContain(r.rule);
              expect(blockers(w).verdict, JSON.stringify(w)).toBe('drop');
            }
          } else if (status.kind === 'unmatchable') {
            const alone = replayer(snapshotOf([{ ...specs[i]!, enabled: true }]));
            for (const w of samples(space.universe, space.names, rnd, 30)) expect(alone(w).matched).toEqual([]);
          } else if (status.kind === 'reachable') {
            reachable++;
            const w = witnessOf(status.witnessRegion[0]!, space.names);
            const r = replay(w);
            if (rule.action === 'log') {
              expect(r.matched, JSON.stringify(w)).toContain(rule.ref);
            } else {
              expect(r.rule, JSON.stringify(w)).toBe(rule.ref);
            }
            for (const s of samples(status.witnessRegion, space.names, rnd, 5)) {
              const rs = replay(s);
              expect(rule.action === 'log' ? rs.matched : [rs.rule], JSON.stringify(s)).toContain(rule.ref);
            }
          }
        });
      }),
      { numRuns: RUNS },
    );
    expect(unreachable).toBeGreaterThan(10);
    expect(reachable).toBeGreaterThan(50);
  });
});

function mutate(specs: RuleSpec[], how: number, extra: RuleSpec): RuleSpec[] {
  const out = specs.slice();
  const k = how % out.length;
  switch (how % 4) {
    case 0:
      out.splice(k, 1);
      break;
    case 1:
      out.splice(k, 0, extra);
      break;
    case 2:
      out[k] = { ...out[k]!, action: out[k]!.action === 'block' ? 'skip' : 'block' };
      break;
    default:
      out.reverse();
  }
  return out;
}

describe('compareRulesets against evaluating both firewalls', () => {
  it('every packet decided differently lies in a reported difference; witnesses replay as stated', () => {
    fc.assert(
      fc.property(ruleSpecs, fc.nat(), ruleSpecs, fc.integer(), (specs, how, extra, seed) => {
        const a = snapshotOf(specs);
        const b = snapshotOf(mutate(specs, how, extra[0]!));
        const cmp = compareRulesets(a, b);
        const ra = replayer(a);
        const rb = replayer(b);
        for (const d of cmp.differences.filter((x) => x.certain)) {
          const x = ra(d.witness);
          const y = rb(d.witness);
          expect({ verdict: x.verdict, rule: x.rule }, JSON.stringify(d)).toEqual(d.before);
          expect({ verdict: y.verdict, rule: y.rule }, JSON.stringify(d)).toEqual(d.after);
        }
        const { space } = modelFirewalls([{ snapshot: a }, { snapshot: b }]);
        for (const w of samples(space.universe, space.names, randomSource(seed), 40)) {
          const x = ra(w);
          const y = rb(w);
          if (x.verdict === y.verdict && x.rule === y.rule) continue;
          const listed = cmp.differences.some((d) => d.before.rule === x.rule && d.after.rule === y.rule && d.before.verdict === x.verdict && d.after.verdict === y.verdict);
          expect(listed, `${JSON.stringify(w)} ${JSON.stringify(x)} ${JSON.stringify(y)}`).toBe(true);
          if (x.verdict !== y.verdict) expect(cmp.same_verdicts).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
