import { describe, expect, it } from 'vitest';
import { ConfigItemError } from '../../src/errors.js';
import { Firewall, FirewallResult, type RuleCounts } from '../../src/firewall/firewall.js';
import { verdictName } from '../../src/verdict.js';
import { printExpr } from '../../src/lang/index.js';
import type { Ruleset, RulesetRule } from '../../src/config/snapshot.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { record, type RecordSpec } from '../helpers/records.js';

function ruleset(rules: RulesetRule[], extra: Partial<Ruleset> = {}): Ruleset {
  return { name: 'rs', kind: 'root', phase: 'edge_transit', rules, ...extra };
}

/** Decides the packet of `spec`, counting into `counts` (a run's; default: counts of its own). */
function decide(fw: Firewall, spec: RecordSpec, counts: RuleCounts = fw.newCounts()): { verdict: 'pass' | 'drop'; rule: string | null; matched: string[] } {
  const out = new FirewallResult(counts);
  fw.evaluate(record(spec), out);
  return {
    verdict: verdictName(out.drop),
    rule: out.decidingRule < 0 ? null : fw.rules[out.decidingRule].ref,
    matched: Array.from(out.matched.subarray(0, out.matchedCount), (i) => fw.rules[i].ref),
  };
}

const web = { src: '198.51.100.7', dst: '203.0.113.10', dport: 443 };

describe('firewall rule order', () => {
  it('implements the spec example: a skip for one port before a block of all ports lets only that port through', () => {
    const fw = Firewall.compile([
      ruleset([
        { ref: 'allow-8080', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 8080 } ' },
        { ref: 'block-tcp', action: 'block', expression: 'tcp.dstport in { 1..65535 }' },
      ]),
    ]);
    expect(decide(fw, { ...web, dport: 8080 })).toEqual({ verdict: 'pass', rule: 'allow-8080', matched: ['allow-8080'] });
    expect(decide(fw, { ...web, dport: 22 })).toEqual({ verdict: 'drop', rule: 'block-tcp', matched: ['block-tcp'] });
    // UDP has no tcp.dstport: neither rule matches and the default policy passes it
    expect(decide(fw, { ...web, proto: 'udp', dport: 22 })).toEqual({ verdict: 'pass', rule: null, matched: [] });
  });

  it('log rules record a match and evaluation goes on to the deciding rule', () => {
    const fw = Firewall.compile([
      ruleset([
        { ref: 'log-web', action: 'log', expression: 'tcp.dstport == 443' },
        { ref: 'log-all', action: 'log', expression: 'ip.proto == "tcp"' },
        { ref: 'block', action: 'block', expression: 'ip.dst == 203.0.113.10' },
        { ref: 'after', action: 'log', expression: 'ip.proto == "tcp"' },
      ]),
    ]);
    const counts = fw.newCounts();
    expect(decide(fw, web, counts)).toEqual({ verdict: 'drop', rule: 'block', matched: ['log-web', 'log-all', 'block'] });
    expect(counts.hits[3]).toBe(0); // nothing after the deciding rule is evaluated
  });

  it('passes over disabled rules', () => {
    const fw = Firewall.compile([
      ruleset([
        { ref: 'off', action: 'block', expression: 'ip.proto == "tcp"', enabled: false },
        { ref: 'on', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'ip.proto == "tcp"' },
      ]),
    ]);
    const counts = fw.newCounts();
    expect(decide(fw, web, counts)).toEqual({ verdict: 'pass', rule: 'on', matched: ['on'] });
    expect(counts.hits[0]).toBe(0);
  });

  it('counts hits and decisions per rule', () => {
    const fw = Firewall.compile([
      ruleset([
        { ref: 'log', action: 'log', expression: 'tcp.dstport == 443' },
        { ref: 'block', action: 'block', expression: 'tcp.dstport in { 443 22 }' },
      ]),
    ]);
    const counts = fw.newCounts();
    for (const dport of [443, 443, 22, 80]) decide(fw, { ...web, dport }, counts);
    expect(Array.from(counts.hits)).toEqual([2, 3]);
    expect(Array.from(counts.decided)).toEqual([0, 3]);
  });

  it('counts into the run that decides, so two runs over one compiled firewall never share a count', () => {
    const fw = Firewall.compile([ruleset([{ ref: 'block', action: 'block', expression: 'tcp.dstport == 22' }])]);
    const [one, other] = [fw.newCounts(), fw.newCounts()];
    decide(fw, { ...web, dport: 22 }, one);
    decide(fw, { ...web, dport: 22 }, one);
    decide(fw, { ...web, dport: 22 }, other);
    expect([Array.from(one.hits), Array.from(one.decided), Array.from(other.hits), Array.from(other.decided)]).toEqual([[2], [2], [1], [1]]);
  });

  it('evaluates the rules of several rulesets as one list, in snapshot order', () => {
    const fw = Firewall.compile([
      ruleset([{ ref: 'a', action: 'log', expression: 'ip.proto == "tcp"' }], { name: 'first' }),
      ruleset([{ ref: 'b', action: 'block', expression: 'tcp.dstport == 443' }], { name: 'second', phase: 'magic_transit' }),
    ]);
    expect(fw.rules.map((r) => `${r.ruleset}/${r.ref}`)).toEqual(['first/a', 'second/b']);
    expect(decide(fw, web)).toEqual({ verdict: 'drop', rule: 'b', matched: ['a', 'b'] });
  });

  it('names a rule by ref, else id, else ruleset and position', () => {
    const fw = Firewall.compile([
      ruleset([
        { ref: 'r', id: 'i1', action: 'log', expression: 'ip.proto == "udp"' },
        { id: 'i2', action: 'log', expression: 'ip.proto == "udp"' },
        { action: 'log', expression: 'ip.proto == "udp"' },
      ]),
    ]);
    expect(fw.rules.map((r) => r.ref)).toEqual(['r', 'i2', 'rs#3']);
  });

  it('names a nameless ruleset by its id, else by its position, in its rules\' names and reports', () => {
    const rules = (): RulesetRule[] => [{ action: 'log', expression: 'ip.proto == "udp"' }];
    const fw = Firewall.compile([ruleset(rules(), { name: 'named' }), ruleset(rules(), { name: '', id: 'rs-id' }), ruleset(rules(), { name: '' })]);
    expect(fw.rules.map((r) => [r.ruleset, r.ref, r.path])).toEqual([
      ['named', 'named#1', 'rulesets[0].rules[0]'],
      ['rs-id', 'rs-id#1', 'rulesets[1].rules[0]'],
      ['rulesets[2]', 'rulesets[2]#1', 'rulesets[2].rules[0]'],
    ]);
  });

  it('keeps each rule\'s description, empty when it has none, and its expression as written', () => {
    const fw = Firewall.compile([ruleset([{ ref: 'a', action: 'log', expression: 'ip.proto == "udp"', description: 'Count UDP' }, { ref: 'b', action: 'block', expression: 'tcp.dstport  ==  22' }])]);
    expect(fw.rules.map((r) => [r.description, r.expression, r.enabled, r.action])).toEqual([
      ['Count UDP', 'ip.proto == "udp"', true, 'log'],
      ['', 'tcp.dstport  ==  22', true, 'block'],
    ]);
  });

  it('resolves lists through the given resolver', () => {
    const botnet = new IpSetBuilder().addPrefix4(parseIPv4('198.51.100.0'), 24).build();
    const fw = Firewall.compile([ruleset([{ ref: 'bot', action: 'block', expression: 'ip.src in $svc.botnetcc' }])], {
      lists: (name) => (name === 'svc.botnetcc' ? botnet : undefined),
    });
    expect(decide(fw, web).verdict).toBe('drop');
    expect(decide(fw, { ...web, src: '192.0.2.1' }).verdict).toBe('pass');
  });

  it('rejects a broken rule with its configuration path and the exact Rules-language message', () => {
    const attempt = () => Firewall.compile([ruleset([{ ref: 'ok', action: 'log', expression: 'ip.proto == "udp"' }, { action: 'block', expression: 'ip.src==34' }])]);
    expect(attempt).toThrow(ConfigItemError);
    // the whole message, without the engine's trailing newline (the error is one line's end)
    expect(() => attempt()).toThrow(
      expect.objectContaining({
        path: 'rulesets[0].rules[1].expression',
        problem: 'Filter parsing error (1:9):\nip.src==34\n        ^^ couldn\'t parse address in network: invalid IP address syntax',
      }),
    );
  });

  it('lets an error that is not the expression\'s through as it is (a list resolver that fails)', () => {
    const failure = new Error('list store unavailable');
    const attempt = () =>
      Firewall.compile([ruleset([{ action: 'block', expression: 'ip.src in $svc.botnetcc' }])], {
        lists: () => {
          throw failure;
        },
      });
    expect(attempt).toThrow(failure);
    expect(attempt).not.toThrow(ConfigItemError);
  });

  it('applies the API\'s limits on rule expressions: the documented 9-group expression is too complex', () => {
    const groups = (n: number) => Array.from({ length: n }, (_, i) => `(tcp.dstport == ${1000 + 2 * i} || tcp.dstport == ${1001 + 2 * i})`).join(' && ');
    expect(() => Firewall.compile([ruleset([{ action: 'block', expression: groups(8) }])])).not.toThrow();
    expect(() => Firewall.compile([ruleset([{ action: 'block', expression: groups(9) }])])).toThrow('rulesets[0].rules[0].expression: ruleset exceeds complexity constraints');
    expect(() => Firewall.compile([ruleset([{ action: 'block', expression: `ip.proto == "${'a'.repeat(4100)}"` }])])).toThrow(/rulesets\[0\]\.rules\[0\]\.expression: .*4096/);
  });

  it('keeps each rule\'s parsed expression for the fast path, and takes a ruleset without rules', () => {
    const fw = Firewall.compile([
      { name: 'empty', kind: 'root', phase: 'edge_transit' },
      ruleset([{ action: 'block', expression: 'tcp.dstport  ==  22' }, { action: 'log', expression: 'ip.proto == "udp"', enabled: false }]),
    ]);
    expect(fw.rules.map((r) => r.path)).toEqual(['rulesets[1].rules[0]', 'rulesets[1].rules[1]']);
    expect(fw.syntax.map((ast) => printExpr(ast))).toEqual(['tcp.dstport == 22', 'ip.proto == "udp"']);
  });

  it('records the fields its rules read', () => {
    const fw = Firewall.compile([ruleset([{ action: 'block', expression: 'ip.src.country == "KP" or tcp.dstport == 23' }])]);
    expect([...fw.fields].sort()).toEqual(['ip.src.country', 'tcp.dstport']);
  });
});
