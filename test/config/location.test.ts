import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'jsonc-parser';
import { jsonRuleLocator, NOWHERE } from '../../src/config/location.js';

describe('jsonRuleLocator', () => {
  it('points at the opening brace of each rule object, 1-based, whatever the layout', () => {
    const text = '{\n  "rulesets": [\n    { "name": "a", "kind": "root", "phase": "magic_transit",\n      "rules": [ {"action": "block", "expression": "tcp"},\n\t{ "action": "skip" } ] } ] }\n';
    const at = jsonRuleLocator(text, 'f.json');
    expect(at(0, 0)).toEqual({ file: 'f.json', line: 4, column: 18 });
    expect(at(0, 1)).toEqual({ file: 'f.json', line: 5, column: 2 });
    expect(at(0, 2)).toBeUndefined();
    expect(at(1, 0)).toBeUndefined();
    expect(at(0)).toEqual({ file: 'f.json', line: 3, column: 5 });
    expect(at(1)).toBeUndefined();
  });

  it('finds rules under a root path (a vendor envelope) and knows nothing without one', () => {
    const text = '{"result": {"rulesets": [{"rules": [{"action": "block"}]}]}}';
    expect(jsonRuleLocator(text, 'e.json', ['result'])(0, 0)).toEqual({ file: 'e.json', line: 1, column: 37 });
    expect(jsonRuleLocator(text, 'e.json')(0, 0)).toBeUndefined();
    expect(NOWHERE(0, 0)).toBeUndefined();
  });

  it('parsing from the located place gives back the rule, for any pretty-printing of any rules', () => {
    const rule = fc.record({ action: fc.constantFrom('block', 'skip'), expression: fc.string(), enabled: fc.boolean() });
    fc.assert(fc.property(fc.array(fc.array(rule, { maxLength: 5 }), { maxLength: 4 }), fc.nat(8), (rulesets, indent) => {
      const text = JSON.stringify({ name: 'x', rulesets: rulesets.map((rules) => ({ kind: 'root', rules })) }, null, indent);
      const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
      const at = jsonRuleLocator(text, 'x');
      rulesets.forEach((rules, i) => rules.forEach((expected, j) => {
        const place = at(i, j)!;
        expect(parse(text.slice(starts[place.line! - 1]! + place.column! - 1))).toEqual(expected);
      }));
    }));
  });
});
