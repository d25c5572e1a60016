import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketRecord } from '../../src/capture/record.js';
import { generateEvaluator } from '../../src/firewall/evaluator.js';

// The generated loop against the obvious one: rules in order, disabled ones passed over, every
// match counted and recorded, the first terminating match deciding.
function reference(actions: Array<'block' | 'skip' | 'log'>, enabled: boolean[], matches: boolean[]) {
  const matched: number[] = [];
  for (let i = 0; i < actions.length; i++) {
    if (!enabled[i] || !matches[i]) continue;
    matched.push(i);
    if (actions[i] !== 'log') return { drop: actions[i] === 'block', decidingRule: i, matched };
  }
  return { drop: false, decidingRule: -1, matched };
}

const rule = fc.record({ action: fc.constantFrom<'block' | 'skip' | 'log'>('block', 'skip', 'log'), enabled: fc.boolean() });

describe('generated firewall evaluator', () => {
  it('decides, records matches and counts hits exactly as a plain loop over the rules', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 12 }), fc.array(fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), { minLength: 1, maxLength: 20 }), (rules, packets) => {
        const n = rules.length;
        // packet k is represented by its index; rule i matches it when packets[k][i]
        let current: boolean[] = [];
        const predicates = rules.map((_, i) => () => current[i]);
        const hits = new Float64Array(n);
        const decided = new Float64Array(n);
        const evaluate = generateEvaluator({
          predicates: predicates as unknown as Array<(p: PacketRecord) => boolean>,
          order: Int32Array.from(rules.flatMap((r, i) => (r.enabled ? [i] : []))),
          terminating: new Uint8Array(rules.map((r) => (r.action === 'log' ? 0 : 1))),
          drops: new Uint8Array(rules.map((r) => (r.action === 'block' ? 1 : 0))),
        });
        const expectedHits = new Float64Array(n);
        const expectedDecided = new Float64Array(n);
        const out = { drop: true, decidingRule: 7, matched: new Int32Array(Math.max(1, n)), matchedCount: 7, hits, decided };
        for (const matches of packets) {
          current = matches;
          evaluate({} as PacketRecord, out);
          const want = reference(rules.map((r) => r.action), rules.map((r) => r.enabled), matches);
          expect({ drop: out.drop, decidingRule: out.decidingRule, matched: Array.from(out.matched.subarray(0, out.matchedCount)) }).toEqual(want);
          for (const i of want.matched) expectedHits[i]++;
          if (want.decidingRule >= 0) expectedDecided[want.decidingRule]++;
        }
        expect(Array.from(hits)).toEqual(Array.from(expectedHits));
        expect(Array.from(decided)).toEqual(Array.from(expectedDecided));
      }),
      { numRuns: 300 },
    );
  });
});
