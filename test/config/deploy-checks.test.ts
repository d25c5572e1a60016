// The API's deploy-time checks on raw snapshot documents: each code at its ruleset and rule, the
// items the schema would refuse left out of the document lint analyses, and `origin` mapping every
// kept rule back to its place in the input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deployChecks, oneLine } from '../../src/config/deploy-checks.js';
import { validateSnapshot } from '../../src/config/validate.js';

const ruleset = (rules: object[], extra: object = {}) => ({ name: 'fw', kind: 'root', phase: 'magic_transit', rules, ...extra });
const codes = (doc: unknown, maxRules?: number) => deployChecks(doc, maxRules).problems.map((p) => [p.code, p.ruleset, p.rule]);

describe('deployChecks', () => {
  it('finds nothing in a deployable ruleset and changes nothing', () => {
    const doc = { rulesets: [ruleset([{ ref: 'a', action: 'skip', expression: 'tcp.dstport == 22', logging: { enabled: false } }])] };
    const r = deployChecks(doc);
    expect(r.problems).toEqual([]);
    expect(r.document).toEqual(doc);
  });

  it('reports `allow` as an action at its rule and leaves the rule out of the document lint analyses', () => {
    const doc = { rulesets: [ruleset([{ ref: 'a', action: 'block', expression: 'ip.src == 192.0.2.1' }, { ref: 'b', action: 'allow', expression: 'tcp.dstport == 22' }, { ref: 'c', action: 'log', expression: 'udp.dstport == 53' }])] };
    const r = deployChecks(doc);
    expect(codes(doc)).toEqual([['allow_action', 0, 1]]);
    expect(() => validateSnapshot(doc)).toThrow(/must be one of/);
    const loaded = validateSnapshot(r.document);
    expect(loaded.rulesets![0]!.rules!.map((x) => x.ref)).toEqual(['a', 'c']);
    expect(r.origin(0, 1)).toEqual([0, 2]);
  });

  it('reports `logging` on a rule that is not skip, and keeps the rule', () => {
    const doc = { rulesets: [ruleset([{ ref: 'a', action: 'block', expression: 'udp.dstport == 53', logging: { enabled: true } }, { ref: 'b', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 443', logging: { enabled: true } }])] };
    expect(codes(doc)).toEqual([['logging_not_on_skip', 0, 0]]);
    expect(validateSnapshot(deployChecks(doc).document).rulesets![0]!.rules).toHaveLength(2);
  });

  it('reports an HTTP field by name and phase instead of an unknown identifier, and leaves the rule out', () => {
    const doc = { rulesets: [ruleset([{ ref: 'web', action: 'block', expression: 'tcp.dstport == 80 and http.request.uri.path eq "/admin"' }])] };
    const [p] = deployChecks(doc).problems;
    expect(p).toMatchObject({ code: 'field_of_other_phase', ruleset: 0, rule: 0 });
    expect(p!.message).toContain('http.request.uri.path is a field of the http_request_firewall_custom phase');
    expect(validateSnapshot(deployChecks(doc).document).rulesets![0]!.rules).toEqual([]);
  });

  it('leaves an unknown field of no other phase to the schema, which names it', () => {
    const doc = { rulesets: [ruleset([{ ref: 'typo', action: 'block', expression: 'tcp.dstprot == 80' }])] };
    expect(codes(doc)).toEqual([]);
    expect(() => validateSnapshot(deployChecks(doc).document)).toThrow(/unknown identifier/);
  });

  it('counts an expression on one line: past 4,096 characters it is a finding, within it the long multi-line text loads', () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `tcp.dstport == ${1000 + i}`);
    const long = terms(260).join(' or '); // 260 × 23 characters: over 4,096 on any line
    const indented = terms(150).join('\n        or '); // 4,200 characters, 3,600 on one line
    expect(indented.length).toBeGreaterThan(4096);
    expect(oneLine(indented).length).toBeLessThanOrEqual(4096);
    const doc = { rulesets: [ruleset([{ ref: 'long', action: 'block', expression: long }, { ref: 'indented', action: 'block', expression: indented }])] };
    expect(codes(doc)).toEqual([['expression_too_long', 0, 0]]);
    expect(validateSnapshot(deployChecks(doc).document).rulesets![0]!.rules!.map((x) => x.ref)).toEqual(['indented']);
  });

  it('reports a ruleset of another kind (left out) and one at zone level (analysed), at the ruleset', () => {
    const doc = { rulesets: [ruleset([], { kind: 'custom' }), ruleset([{ ref: 'z', action: 'block', expression: 'udp.dstport == 53' }], { name: 'zoned', zone_id: 'abc' })] };
    expect(codes(doc)).toEqual([
      ['ruleset_kind_not_root', 0, undefined],
      ['ruleset_at_zone_level', 1, undefined],
    ]);
    const loaded = validateSnapshot(deployChecks(doc).document);
    expect(loaded.rulesets!.map((rs) => rs.name)).toEqual(['zoned']);
    expect(deployChecks(doc).origin(0, 0)).toEqual([1, 0]);
  });

  it("reports more rules than the account's limit, the limit given", () => {
    const rules = Array.from({ length: 3 }, (_, i) => ({ ref: `r${i}`, action: 'block', expression: `tcp.dstport == ${i + 1}` }));
    expect(codes({ rulesets: [ruleset(rules)] }, 2)).toEqual([['too_many_rules', 0, undefined]]);
    expect(codes({ rulesets: [ruleset(rules)] }, 3)).toEqual([]);
    expect(deployChecks({ rulesets: [ruleset(rules)] }, 2).problems[0]!.message).toBe("3 rules, more than the account's limit of 2");
  });

  it('maps every kept rule back to the same rule of the input (property)', () => {
    const rule = fc.record({
      action: fc.constantFrom('block', 'skip', 'log', 'allow'),
      expression: fc.constantFrom('udp.dstport == 53', 'tcp.dstport == 22', 'http.host eq "x"'),
      ref: fc.uuid(),
    });
    const rs = fc.record({ name: fc.string({ minLength: 1 }), kind: fc.constantFrom('root', 'custom'), phase: fc.constant('magic_transit'), rules: fc.array(rule, { maxLength: 6 }) });
    fc.assert(
      fc.property(fc.array(rs, { maxLength: 4 }), (rulesets) => {
        const r = deployChecks({ rulesets });
        const kept = (r.document as { rulesets: Array<{ rules: object[] }> }).rulesets;
        kept.forEach((k, i) =>
          k.rules.forEach((rule, j) => {
            const [oi, oj] = r.origin(i, j);
            expect(rule).toEqual(rulesets[oi]!.rules[oj]);
          }),
        );
        const left = rulesets.reduce((n, s) => n + (s.kind === 'root' ? s.rules.filter((x) => x.action !== 'allow' && !x.expression.startsWith('http')).length : 0), 0);
        expect(kept.reduce((n, k) => n + k.rules.length, 0)).toBe(left);
      }),
    );
  });
});
