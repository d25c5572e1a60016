// The rulesets of .tf files as the provider's schemas let them be written, on files written from
// the provider's own examples and acceptance tests (fixtures/, how they were made: docs/terraform-source.md): v4 `rules`
// blocks and `dynamic "rules"`, v5 `rules = [{…}]`, the legacy resource; each rule's `expression`
// string with its exact range, as a language server reads them (ruleExpressions); resource
// addresses; and the rules of a plan assigned to the items they come from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignRules, parseAddress, readTerraformFile, ruleExpressions, type RuleItem } from '../../../src/config/terraform-source/index.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const read = (relative: string): string => readFileSync(path.join(FIXTURES, relative), 'utf8');

/** The plan's rules' expressions of a resource, on the after side. */
function planExpressions(relative: string, address: string): string[] {
  const plan = JSON.parse(read(relative)) as { resource_changes: Array<{ address: string; change: { after: { rules: Array<{ expression: string }> } } }> };
  return plan.resource_changes.find((c) => c.address === address)!.change.after.rules.map((r) => r.expression);
}

describe('the rulesets of a .tf file', () => {
  it('v4: rules blocks and a dynamic "rules" block, in the order of the file, each with its expression', async () => {
    const text = read('v4-dynamic/main.tf');
    const { resources, modules, syntaxError } = await readTerraformFile(text);
    expect(syntaxError).toBeUndefined();
    expect(modules).toEqual([]);
    expect(resources.map((r) => [r.type, r.name, r.repeated])).toEqual([['cloudflare_ruleset', 'magic_transit', true]]);
    const items = resources[0]!.rules;
    expect(items.map((i) => i.kind)).toEqual(['block', 'dynamic', 'block', 'block', 'block']);
    for (const item of items) {
      expect(text.slice(item.range.startOffset, item.range.endOffset)).toMatch(item.kind === 'dynamic' ? /^dynamic "rules" \{[\s\S]*\}$/ : /^rules \{[\s\S]*\}$/);
      expect(text.slice(item.expression!.range.startOffset, item.expression!.range.endOffset)).toMatch(/^expression\s+= "/);
    }
    expect(items[1]!.expression!.string).toMatchObject({ interpolated: true, literals: ['tcp.dstport == ', ''] });
  });

  it('v5 and the legacy resource: the objects of rules = [...], a heredoc and interpolations among them; module blocks with their source', async () => {
    const { resources } = await readTerraformFile(read('v5-module/modules/firewall/main.tf'));
    expect(resources[0]!.rules.map((i) => i.kind)).toEqual(Array(7).fill('element'));
    expect(resources[0]!.rules.map((i) => i.expression?.string?.kind)).toEqual(['quoted', 'quoted', 'quoted', 'quoted', 'heredoc', 'quoted', 'quoted']);
    const legacy = await readTerraformFile(read('legacy-state/edge/main.tf'));
    expect(legacy.resources.map((r) => `${r.type}.${r.name}`)).toEqual(['cloudflare_magic_firewall_ruleset.edge']);
    expect(legacy.resources[0]!.rules.map((i) => i.expression?.string?.value)).toEqual([
      'udp.dstport in { 32768..65535 }',
      'tcp.dstport in { 32768..65535 }',
      'tcp.dstport in { 40000..40100 } and ip.ttl < 10',
    ]);
    const root = await readTerraformFile(read('legacy-state/main.tf'));
    expect(root.modules.map((m) => [m.name, m.source])).toEqual([['edge', './edge']]);
  });

  it('[for …] and an unreadable value; other resources and nested blocks are not rulesets', async () => {
    const text = `resource "cloudflare_ruleset" "a" {
  rules = [for p in var.ports : { action = "block", expression = "tcp.dstport == \${p}" }]
}
resource "cloudflare_ruleset" "b" {
  rules = var.rules
}
resource "cloudflare_list" "c" {
  rules { expression = "not a ruleset" }
}
`;
    const { resources } = await readTerraformFile(text);
    expect(resources.map((r) => [r.name, r.rules.map((i) => i.kind)])).toEqual([
      ['a', ['for']],
      ['b', ['opaque']],
    ]);
    expect(resources[0]!.rules[0]!.expression!.string!.literals).toEqual(['tcp.dstport == ', '']);
    expect(resources[1]!.rules[0]!.range.start).toEqual({ line: 5, column: 3 });
  });

  it('still reads the rulesets before and after a block the parser cannot read, and says where that is', async () => {
    const text = `resource "cloudflare_ruleset" "a" {
  rules {
    expression = "tcp.dstport == 22"
  }
}
resource "cloudflare_ruleset" "broken" {
  rules { expression = "tcp.dstport == 23" action = }
}
resource "cloudflare_ruleset" "c" {
  rules {
    expression = "udp.dstport == 53"
  }
}
`;
    const { resources, syntaxError } = await readTerraformFile(text);
    expect(syntaxError?.start.line).toBe(7);
    expect(resources.filter((r) => r.name !== 'broken').map((r) => [r.name, r.rules[0]!.expression!.string!.value])).toEqual([
      ['a', 'tcp.dstport == 22'],
      ['c', 'udp.dstport == 53'],
    ]);
  });
});

describe('ruleExpressions (for a language server)', () => {
  it('every expression string of every ruleset, its exact range, its value and whether it interpolates', async () => {
    const text = read('v5-module/modules/firewall/main.tf');
    const found = await ruleExpressions(text);
    const plan = planExpressions('v5-module/plan.json', 'module.firewall["prod"].cloudflare_ruleset.magic_transit');
    expect(found.map((e) => [e.resource, e.item, e.itemKind])).toEqual(plan.map((_, i) => ['cloudflare_ruleset.magic_transit', i, 'element']));
    found.forEach((e, i) => {
      // the range is the string as written, the attribute's range starts with its name
      expect(text.slice(e.range.startOffset, e.range.endOffset)).toMatch(e.kind === 'heredoc' ? /^<<-EOT\n[\s\S]*EOT$/ : /^"[\s\S]*"$/);
      expect(text.slice(e.attributeRange.startOffset, e.range.endOffset)).toMatch(/^expression\s+= /);
      // line and column say the same place as the offset
      const lines = text.split('\n');
      expect(lines[e.range.start.line - 1]!.slice(e.range.start.column - 1).startsWith(text.slice(e.range.startOffset, e.range.startOffset + 3))).toBe(true);
      // the value is the plan's (Terraform computed it); an interpolated one fits its literals
      if (e.interpolated) expect(plan[i]!.startsWith(e.literals[0]!) && plan[i]!.includes(e.literals[1]!.trim())).toBe(true);
      else expect(e.value).toBe(plan[i]);
    });
    expect(found.map((e) => e.interpolated)).toEqual([false, false, false, true, true, false, false]);
  });

  it('skips expressions that are not strings, and reads the v4 file the same way', async () => {
    expect(await ruleExpressions('resource "cloudflare_ruleset" "x" {\n  rules {\n    expression = local.e\n  }\n}\n')).toEqual([]);
    const v4 = await ruleExpressions(read('v4-dynamic/main.tf'));
    expect(v4.map((e) => [e.itemKind, e.interpolated])).toEqual([
      ['block', false],
      ['dynamic', true],
      ['block', false],
      ['block', false],
      ['block', false],
    ]);
  });
});

describe('resource addresses', () => {
  it('set instance keys aside, however they are quoted', () => {
    expect(parseAddress('cloudflare_ruleset.mt')).toEqual({ modules: [], type: 'cloudflare_ruleset', name: 'mt' });
    expect(parseAddress('module.fw["a.b]c"].module.inner[0].cloudflare_ruleset.mt["eu \\"x\\""]')).toEqual({ modules: ['fw', 'inner'], type: 'cloudflare_ruleset', name: 'mt' });
    expect(parseAddress('module.fw.data.cloudflare_rulesets.all')).toBeUndefined();
    expect(parseAddress('module.fw')).toBeUndefined();
    expect(parseAddress('cloudflare_ruleset.mt extra')).toBeUndefined();
  });
});

describe('alignRules', () => {
  const item = (kind: RuleItem['kind'], literals?: string[]): RuleItem => ({
    kind,
    range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, startOffset: 0, endOffset: 0 },
    ...(literals === undefined
      ? {}
      : {
          expression: {
            range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, startOffset: 0, endOffset: 0 },
            valueRange: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, startOffset: 0, endOffset: 0 },
            string: {
              kind: 'quoted',
              range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, startOffset: 0, endOffset: 0 },
              contentRange: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, startOffset: 0, endOffset: 0 },
              interpolated: literals.length > 1,
              ...(literals.length === 1 ? { value: literals[0] } : {}),
              literals,
              sourceOffset: () => 0,
            },
          },
        }),
  });

  it('the dynamic block takes the rules its template fits, the blocks around it theirs', () => {
    const items = [item('block', ['a']), item('dynamic', ['tcp.dstport == ', '']), item('block', ['b'])];
    expect(alignRules(items, ['a', 'tcp.dstport == 1', 'tcp.dstport == 2', 'b'])).toEqual([0, 1, 1, 2]);
    expect(alignRules(items, ['a', 'b'])).toEqual([0, 2]);
    expect(alignRules(items, ['a', 'udp.dstport == 1', 'b'])).toBeUndefined();
    expect(alignRules([item('block', ['a'])], ['a', 'a'])).toBeUndefined();
    // white space is not a difference; an item without a string takes any one rule
    expect(alignRules([item('element', ['x  ==\n1']), item('element')], ['x == 1', 'anything'])).toEqual([0, 1]);
    expect(alignRules([item('opaque')], ['p', 'q', 'r'])).toEqual([0, 0, 0]);
  });

  it('finds an assignment whenever the rules were made from the items, and each rule fits its item', () => {
    const templates = ['tcp.dstport == ', 'udp.dstport == ', 'ip.src in '];
    const spec = fc.array(fc.oneof(fc.record({ repeats: fc.constant(false), t: fc.nat(2), n: fc.constant(1) }), fc.record({ repeats: fc.constant(true), t: fc.nat(2), n: fc.nat(3) })), { maxLength: 8 });
    fc.assert(
      fc.property(spec, fc.nat(99), (parts, seed) => {
        const items = parts.map((p) => (p.repeats ? item('dynamic', [templates[p.t]!, '']) : item('block', [`${templates[p.t]!}${seed}`])));
        const rules = parts.flatMap((p) => Array.from({ length: p.n }, (_, k) => `${templates[p.t]!}${p.repeats ? k : seed}`));
        const assigned = alignRules(items, rules);
        expect(assigned).toBeDefined();
        assigned!.forEach((i, j) => expect(rules[j]!.startsWith(items[i]!.expression!.string!.literals[0]!)).toBe(true));
        // in order, and every single item used once
        expect([...assigned!].sort((a, b) => a - b)).toEqual(assigned);
        items.forEach((it, i) => {
          if (it.kind === 'block') expect(assigned!.filter((x) => x === i)).toHaveLength(1);
        });
      }),
    );
  });
});
