// A plan's or a state's rules placed in the .tf files they are written in (readConfiguration with
// terraformSources): through a child module (the plan's configuration names its source; a state's
// module block does), for_each and count instances, a dynamic "rules" block; the rule's object or
// its expression attribute. What cannot be placed there is placed at the rule in the JSON, with a
// note saying why: no .tf files, a module from a registry, a resource not found, .tf files that no
// longer match the JSON, a syntax error before the resource.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration } from '../../../src/config/inputs/index.js';
import { deployChecks } from '../../../src/config/deploy-checks.js';
import type { SourceLocation } from '../../../src/config/location.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURES = path.relative(process.cwd(), path.join(import.meta.dirname, 'fixtures'));

async function placesOf(file: string, options: { plan?: 'before' | 'after'; dir?: string } = {}) {
  // as lint reads it: what the API refuses only at deploy time (an `allow` action) left out of the snapshot, its indexes those of the file
  const read = await readConfiguration([{ file, ...(options.plan === undefined ? {} : { plan: options.plan }) }], {
    unknownLists: 'allow',
    terraformSources: { dir: options.dir },
    prepare: (document) => deployChecks(document, 200).document,
  });
  const rules = read.snapshot.rulesets![0]!.rules!;
  return {
    // the note that rules without a ref were paired with the state by content is plan-rule-identity's to test
    notes: read.notes.filter((n) => !/ids? (?:is|are) known only after apply \(no ref\)/.test(n)),
    locate: read.locate,
    rules: rules.map((_, j) => read.locate(0, j)!),
    expressions: rules.map((_, j) => read.locate(0, j, 'expression')!),
    ruleset: read.locate(0)!,
    planned: rules.map((r) => r.expression),
  };
}

/** The text of a file from a place on. */
function at(place: SourceLocation): string {
  const lines = readFileSync(place.file, 'utf8').split('\n');
  return [lines[place.line! - 1]!.slice(place.column! - 1), ...lines.slice(place.line!)].join('\n');
}

describe('Terraform rules placed in their .tf files', () => {
  it('v5 plan: a ruleset in a child module called with for_each, each rule at its object and its expression attribute', async () => {
    const plan = `${FIXTURES}/v5-module/plan.json`;
    const { notes, rules, expressions, ruleset, planned } = await placesOf(plan, { plan: 'after' });
    expect(notes).toEqual([]);
    const file = `${FIXTURES}/v5-module/modules/firewall/main.tf`;
    expect(ruleset).toMatchObject({ file, line: 3, column: 1, address: 'module.firewall["prod"].cloudflare_ruleset.magic_transit' });
    expect(at(ruleset)).toMatch(/^resource "cloudflare_ruleset" "magic_transit" \{/);
    rules.forEach((place, j) => {
      expect(place).toMatchObject({ file, address: `module.firewall["prod"].cloudflare_ruleset.magic_transit rules[${j}]` });
      expect(at(place)).toMatch(/^\{\n/);
      expect(place.endLine).toBeGreaterThan(place.line!);
    });
    expressions.forEach((place, j) => {
      expect(at(place)).toMatch(/^expression\s+= /);
      // the expression written there is the one the plan has (an interpolated one begins as it does)
      const written = at(place).replace(/^expression\s+= /, '');
      if (written.startsWith('"') && !written.includes('${')) expect(JSON.parse(written.split('\n')[0]!)).toBe(planned[j]);
      else expect(planned[j]!.startsWith(written.startsWith('<<-EOT') ? 'ip.dst in {' : written.slice(1, 12))).toBe(true);
    });
    expect(new Set(rules.map((r) => r.line)).size).toBe(rules.length);
  });

  it('v4 plan with count: the rules a dynamic "rules" block makes are placed at it, the blocks around it at theirs', async () => {
    const { notes, rules, expressions, planned, locate } = await placesOf(`${FIXTURES}/v4-dynamic/plan.json`, { plan: 'after' });
    expect(notes).toEqual([]);
    const text = (j: number): string => at(rules[j]!);
    expect(planned.slice(1, 3)).toEqual(['tcp.dstport == 3389', 'tcp.dstport == 5900']);
    expect(text(0)).toMatch(/^rules \{\n\s+action\s+= "block"\n\s+expression\s+= "udp\.dstport in \{ 32768\.\.65535 \}"/);
    expect(text(1)).toMatch(/^dynamic "rules" \{/);
    expect(rules[2]!.line).toBe(rules[1]!.line);
    expect(at(expressions[2]!)).toMatch(/^expression\s+= "tcp\.dstport == \$\{rules\.value\}"/);
    expect(text(3)).toMatch(/^rules \{\n\s+action = "skip"/);
    // the `allow` rule lint reports at deploy time (left out of the snapshot) is placed too
    expect(at(locate(0, 5)!)).toMatch(/^rules \{\n\s+ref\s+= "allow_web"/);
    expect(rules.every((r) => r.address?.startsWith('cloudflare_ruleset.magic_transit[0] rules['))).toBe(true);
  });

  it('a state names no module sources: the module block of the root folder does', async () => {
    const { notes, rules, expressions } = await placesOf(`${FIXTURES}/legacy-state/state.json`);
    expect(notes).toEqual(['module.edge.cloudflare_magic_firewall_ruleset.edge: action "allow" read as "skip" with {"ruleset": "current"}, as the provider sends it']);
    expect(rules.map((r) => r.file)).toEqual(Array(3).fill(`${FIXTURES}/legacy-state/edge/main.tf`));
    expect(at(expressions[2]!)).toBe(`expression  = "tcp.dstport in { 40000..40100 } and ip.ttl < 10"\n      description = "Low-TTL probes of the game servers"\n      enabled     = "true"\n    }\n  ]\n}\n`);
  });

  it('--tf-dir: the .tf files of a plan kept elsewhere', async () => {
    const dir = tempDir('edgesim-tfdir-');
    cpSync(`${FIXTURES}/v4-dynamic/plan.json`, path.join(dir, 'plan.json'));
    const away = await placesOf(path.join(dir, 'plan.json'), { plan: 'after' });
    expect(away.notes).toEqual([`cloudflare_ruleset.magic_transit[0]: placed in ${path.join(dir, 'plan.json')}: no .tf files in ${dir} (give their folder with --tf-dir)`]);
    expect(away.rules[0]).toMatchObject({ file: path.join(dir, 'plan.json'), address: 'cloudflare_ruleset.magic_transit[0] rules[0]' });
    expect(at(away.rules[0]!)).toMatch(/^\{\n\s+"action": "block",/);
    const given = await placesOf(path.join(dir, 'plan.json'), { plan: 'after', dir: `${FIXTURES}/v4-dynamic` });
    expect(given.notes).toEqual([]);
    expect(given.rules[0]!.file).toBe(`${FIXTURES}/v4-dynamic/main.tf`);
  });

  it('falls back to the JSON, saying why: a renamed resource, changed rules, a registry module, a syntax error before the resource', async () => {
    const copy = (fixture: string, edit: (dir: string) => void): string => {
      const dir = tempDir('edgesim-tf-');
      cpSync(`${FIXTURES}/${fixture}`, dir, { recursive: true });
      edit(dir);
      return dir;
    };
    const editFile = (file: string, change: (text: string) => string): void => writeFileSync(file, change(readFileSync(file, 'utf8')));

    const renamed = copy('v4-dynamic', (d) => editFile(path.join(d, 'main.tf'), (t) => t.replace('"magic_transit" {', '"firewall" {')));
    const r1 = await placesOf(path.join(renamed, 'plan.json'), { plan: 'after' });
    expect(r1.notes).toEqual([`cloudflare_ruleset.magic_transit[0]: placed in ${path.join(renamed, 'plan.json')}: no resource "cloudflare_ruleset" "magic_transit" in the .tf files of ${renamed}`]);
    expect(r1.rules[0]!.file).toBe(path.join(renamed, 'plan.json'));

    const changed = copy('v4-dynamic', (d) => editFile(path.join(d, 'main.tf'), (t) => t.replace('udp.dstport in { 32768..65535 }', 'udp.dstport in { 1024..65535 }')));
    const r2 = await placesOf(path.join(changed, 'plan.json'), { plan: 'after' });
    expect(r2.notes).toEqual([`cloudflare_ruleset.magic_transit[0]: placed in ${path.join(changed, 'plan.json')}: its rules in ${path.join(changed, 'main.tf')} are not the ones the JSON has (were the .tf files changed after it was made?)`]);

    const registry = copy('v5-module', (d) => editFile(path.join(d, 'plan.json'), (t) => t.replace('"source": "./modules/firewall"', '"source": "example-org/firewall/cloudflare"')));
    const r3 = await placesOf(path.join(registry, 'plan.json'), { plan: 'after' });
    expect(r3.notes).toEqual([`module.firewall["prod"].cloudflare_ruleset.magic_transit: placed in ${path.join(registry, 'plan.json')}: module.firewall comes from "example-org/firewall/cloudflare", not a folder of this repository`]);

    const broken = copy('legacy-state', (d) => editFile(path.join(d, 'edge', 'main.tf'), (t) => t.replace('variable "account_id" {\n  type = string\n}', 'variable "account_id" {\n  type = \n}\nlocals {')));
    const r4 = await placesOf(path.join(broken, 'state.json'));
    expect(r4.notes[1]).toMatch(new RegExp(`^${path.join(broken, 'edge', 'main.tf').replace(/[.]/g, '\\.')}:\\d+:\\d+: not valid HCL there; a ruleset written after it may be placed in the JSON file$`));
  });

  it('the before side of a plan and a plain snapshot are not placed in .tf files', async () => {
    const before = await readConfiguration([{ file: `${FIXTURES}/v5-module/plan.json`, plan: 'before' }], { unknownLists: 'allow' });
    expect(before.locate(0, 0)).toEqual({ file: `${FIXTURES}/v5-module/plan.json`, address: 'module.firewall["prod"].cloudflare_ruleset.magic_transit rules[0]' });
    const snapshot = await readConfiguration([{ file: 'examples/demo-snapshot.json' }], { terraformSources: {} });
    expect(snapshot.locate(0, 0)).toMatchObject({ file: 'examples/demo-snapshot.json', line: expect.any(Number) });
    expect(snapshot.notes).toEqual([]);
  });
});
