// spaceReach (`edgesim test --coverage` for a `space:` case): the enabled rules some packet of the
// space certainly reaches and matches, in evaluation order; a block or skip rule counts as deciding,
// a log rule as only matching. Checked on hand-made rulesets, and against the real firewall on
// random ones: enabled rules only, in order, and every rule a sampled packet of the space reaches
// (every rule up to it modelled exactly) is named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spaceReach } from '../../src/analysis/index.js';
import { spaceModel } from '../../src/analysis/prove.js';
import { randomSource, replayer, ruleSpecs, samples, snapshotOf } from './replay.js';

const one = (action: 'block' | 'skip' | 'log', expression: string, enabled = true) => ({ action, expression, enabled });

describe('spaceReach', () => {
  const s = snapshotOf([
    one('skip', 'ip.src in {192.0.2.0/24}'),
    one('block', 'ip.dst in {203.0.113.0/24} and tcp.dstport in {22 2222}'),
    one('log', 'tcp.dstport == 22'),
    one('block', 'tcp.dstport == 22'),
    one('block', 'tcp.dstport == 22', false),
    one('block', 'udp.dstport == 53'),
  ]);

  it('names the enabled rules the space reaches, in order, block and skip as deciding, log as matching', () => {
    expect(spaceReach(s, { 'tcp.dstport': [22] })).toEqual([
      { ref: 'r1', decided: true },
      { ref: 'r2', decided: true },
      { ref: 'r3', decided: false },
      { ref: 'r4', decided: true },
    ]);
  });

  it('leaves out a rule whose packets of the space earlier block or skip rules all decide, but not for a log rule', () => {
    // every packet to 203.0.113.0/24 port 22 is skipped by r1 or blocked by r2: r3 and r4 see none
    expect(spaceReach(s, { 'ip.dst': ['203.0.113.0/24'], 'tcp.dstport': [22] })).toEqual([
      { ref: 'r1', decided: true },
      { ref: 'r2', decided: true },
    ]);
    // a log rule decides nothing: the block after it still decides packets it logged
    expect(spaceReach(s, { 'ip.src': ['198.51.100.0/24'], 'ip.dst': ['198.51.100.1'], 'tcp.dstport': [22] })).toEqual([
      { ref: 'r3', decided: false },
      { ref: 'r4', decided: true },
    ]);
  });

  it('names no rule the space does not meet', () => {
    expect(spaceReach(s, { 'ip.src': ['198.51.100.0/24'], 'udp.dstport': [123] })).toEqual([]);
    expect(spaceReach(s, { 'ip.src': ['198.51.100.0/24'], 'udp.dstport': [53] })).toEqual([{ ref: 'r6', decided: true }]);
  });

  it('a rule left open by the work limit is not counted', () => {
    expect(spaceReach(s, { 'tcp.dstport': [22] }, { workLimit: 1 })).toEqual([]);
  });

  it('an earlier rule that only may decide packets (an unmodelled part) keeps a later one from being counted', () => {
    const u = snapshotOf([one('block', 'tcp contains "abc"'), one('block', 'tcp.dstport == 22')]);
    expect(spaceReach(u, { 'tcp.dstport': [22] })).toEqual([]);
  });

  it('agrees with the real firewall on random rulesets: enabled rules in order, and each one a packet of the space reaches', () => {
    const spaces = fc.record(
      {
        'ip.src': fc.constantFrom(['10.0.0.0/8'], ['192.0.2.0/25', '2001:db8::/64'], ['10.1.2.3']),
        'tcp.dstport': fc.constantFrom([22], [80, '1000-2000']),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(ruleSpecs, spaces, fc.integer(), (specs, space, seed) => {
        const snap = snapshotOf(specs);
        const reached = spaceReach(snap, space);
        const replay = replayer(snap);
        const { hs, region } = spaceModel(snap, space);
        // packets of the space, sampled: each rule one of them is decided by (or, a log rule, matched
        // by) and that is modelled exactly is one the space reaches
        const seen = new Set<string>();
        if (region.length > 0)
          for (const w of samples(region, hs.names, randomSource(seed), 30)) {
            const r = replay(w);
            for (const ref of r.matched) seen.add(ref);
            if (r.rule !== null) seen.add(r.rule);
          }
        const refs = reached.map((r) => r.ref);
        // in evaluation order, enabled rules only, each once
        expect(refs).toEqual(specs.map((_, i) => `r${i + 1}`).filter((ref) => refs.includes(ref)));
        for (const r of reached) {
          const spec = specs[Number(r.ref.slice(1)) - 1]!;
          expect(spec.enabled).toBe(true);
          expect(r.decided).toBe(spec.action !== 'log');
        }
        // a rule a sampled packet reaches, with no unmodelled part in it or before it, is named
        const exact = (i: number): boolean => !/contains|matches/.test(specs[i]!.expression);
        specs.forEach((spec, i) => {
          const ref = `r${i + 1}`;
          if (seen.has(ref) && specs.slice(0, i + 1).every((_, k) => exact(k))) expect(refs, ref).toContain(ref);
        });
      }),
      { numRuns: 100 },
    );
  });
});
