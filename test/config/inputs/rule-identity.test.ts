// Which rule after a change is which rule before it (rule-identity.ts): by ref and id where known,
// else by content in order, as a line diff pairs lines. Properties over random rulesets and random
// edits: a rule the edit leaves alone is paired with itself; a changed rule (its expression, its
// enabled) is paired with what it was when its description says so; an added rule pairs with nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairRules, type SideRule } from '../../../src/config/inputs/rule-identity.js';

const rule = (description: string, expression: string, extra: Partial<SideRule> = {}): SideRule => ({
  ref: null,
  id: null,
  action: 'block',
  expression,
  description,
  enabled: true,
  parameters: '',
  ...extra,
});

describe('pairRules', () => {
  it('pairs by ref and id before content, whatever the order', () => {
    const before = [rule('a', 'x', { ref: 'r1' }), rule('b', 'y', { id: 'i2' })];
    const after = [rule('changed', 'y2', { id: 'i2' }), rule('other', 'x2', { ref: 'r1' })];
    expect(pairRules(before, after)).toEqual([1, 0]);
  });

  it('pairs unchanged rules by content in order, and leaves an added rule unpaired', () => {
    const before = [rule('', 'tcp.dstport in {22}'), rule('', 'tcp.dstport in {23}')];
    const after = [rule('', 'udp.dstport in {53}'), rule('', 'tcp.dstport in {22}'), rule('', 'tcp.dstport in {23}')];
    expect(pairRules(before, after)).toEqual([undefined, 0, 1]);
  });

  it('pairs a rule whose expression or enabled changed by its description; a run of changed rules between pairs by place', () => {
    const before = [rule('web', 'tcp.dstport in {80 443}'), rule('', 'a'), rule('', 'b'), rule('end', 'e')];
    const after = [rule('web', 'tcp.dstport in {443}', { enabled: false }), rule('', 'a2'), rule('', 'b2'), rule('end', 'e')];
    expect(pairRules(before, after)).toEqual([0, 1, 2, 3]);
  });

  it('does not pair a changed run of another length or other actions', () => {
    const before = [rule('', 'a'), rule('', 'b'), rule('end', 'e')];
    expect(pairRules(before, [rule('', 'a2'), rule('end', 'e')])).toEqual([undefined, 2]);
    expect(pairRules(before.slice(1), [rule('', 'b2', { action: 'skip' }), rule('end', 'e')])).toEqual([undefined, 1]);
  });

  it('property: every rule an edit leaves alone is paired with itself; a rule whose description is unique keeps its pair when changed', () => {
    const ruleArb = fc.record({ description: fc.constantFrom('', 'allow web', 'ssh', 'dns', 'block all'), expression: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), action: fc.constantFrom('block', 'skip', 'log') });
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), rule: ruleArb }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('disable' as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 12 }), fc.array(edit, { maxLength: 4 }), (base, edits) => {
        const before = base.map((r, i) => ({ ...rule(r.description, `${r.expression}${i}`), action: r.action }));
        // each after rule: the before index it is (untouched or disabled), or -1 (inserted)
        let after = before.map((r, i) => ({ r, from: i, touched: false }));
        for (const e of edits) {
          const at = after.length === 0 ? 0 : e.at % (after.length + (e.kind === 'insert' ? 1 : 0));
          if (e.kind === 'insert') after.splice(at, 0, { r: { ...rule(e.rule.description, `new-${e.rule.expression}`), action: e.rule.action }, from: -1, touched: true });
          else if (after.length === 0) continue;
          else if (e.kind === 'delete') after = after.filter((_x, k) => k !== at);
          else after[at] = { ...after[at]!, r: { ...after[at]!.r, enabled: false }, touched: true };
        }
        const paired = pairRules(before, after.map((x) => x.r));
        after.forEach((x, j) => {
          if (!x.touched) expect(paired[j], `after[${j}]`).toBe(x.from);
          if (x.from >= 0 && x.touched) expect(paired[j], `disabled after[${j}]`).toBe(x.from);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('stays bounded past its table: 3,000 rules against 3,000 pair in order without the quadratic table', () => {
    const before = Array.from({ length: 3000 }, (_v, i) => rule('', `tcp.dstport == ${i}`));
    const after = [rule('', 'new'), ...before];
    const paired = pairRules(before, after);
    expect(paired[0]).toBeUndefined();
    expect(paired.slice(1)).toEqual(before.map((_r, i) => i));
  });
});
