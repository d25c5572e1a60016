// Each input format read into the snapshot the demo's own snapshot file holds: Terraform state (v5
// with a child module, v4 with list items joined by list_id, the legacy resource), a Terraform plan
// (planned, before and after), the vendor API's ruleset response and octorules YAML; each with
// Advanced TCP Protection from a second file, as a Terraform user keeps it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfiguration, type ConfigurationInput } from '../../../src/config/inputs/index.js';
import { detectFormat } from '../../../src/config/inputs/detect.js';
import { loadSnapshotFile } from '../../../src/config/load.js';
import type { Snapshot } from '../../../src/config/snapshot.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const at = (name: string): string => path.join(FIXTURES, name);
const DEMO = path.join(import.meta.dirname, '../../../examples/demo-snapshot.json');

/** The parts of a snapshot that decide packets: server fields (ids, versions, times) and names left out. */
function decisive(s: Snapshot): unknown {
  return {
    ...s,
    rulesets: s.rulesets?.map((r) => ({
      kind: r.kind,
      phase: r.phase,
      rules: r.rules?.map(({ ref, action, action_parameters, expression, enabled }) => ({ ref, action, action_parameters, expression: expression.replace(/\s+/g, ' '), enabled })),
    })),
    lists: s.lists?.map(({ name, kind, items }) => ({ name, kind, items: items?.map(({ ip, comment }) => ({ ip, comment })) })),
  };
}

const read = async (...inputs: Array<string | ConfigurationInput>) => readConfiguration(inputs.map((i) => (typeof i === 'string' ? { file: at(i) } : { ...i, file: at(i.file) })));

describe('every input format reads as the equivalent snapshot', async () => {
  const demo = decisive(await loadSnapshotFile(DEMO));
  it.each([
    ['Terraform v5 state, rulesets in a child module', ['terraform-v5-state.json', 'demo-atp.json']],
    ['Terraform v4 state, cloudflare_list_item joined by list_id', ['terraform-v4-state.json', 'demo-atp.json']],
    ['a Terraform plan (planned values)', ['terraform-v5-plan.json', 'demo-atp.json']],
    ['the vendor API GET entrypoint envelope', ['vendor-entrypoint.json', 'demo-atp-lists.json']],
    ['octorules YAML', ['octorules-account.yaml', 'demo-atp.json']],
  ])('%s', async (_name, files) => {
    expect(decisive((await read(...files)).snapshot)).toEqual(demo);
  });

  it("a plan's after side is the planned configuration, its before side the prior one", async () => {
    expect(decisive((await read({ file: 'terraform-v5-plan.json', plan: 'after' }, 'demo-atp.json')).snapshot)).toEqual(demo);
    const before = decisive(await loadSnapshotFile(at('plan-before-snapshot.json')));
    expect(decisive((await read({ file: 'terraform-v5-plan.json', plan: 'before' }, 'demo-atp.json')).snapshot)).toEqual(before);
  });

  it('the legacy cloudflare_magic_firewall_ruleset: allow is skip {ruleset: current}, enabled strings are booleans, said once as a note', async () => {
    const { snapshot, notes } = await read('terraform-legacy-state.json', 'demo-atp.json');
    expect(decisive(snapshot)).toEqual(decisive(await loadSnapshotFile(at('legacy-equivalent-snapshot.json'))));
    expect(notes).toEqual(['cloudflare_magic_firewall_ruleset.legacy: action "allow" read as "skip" with {"ruleset": "current"}, as the provider sends it']);
  });

  it('other magic_transit phases are notes (not simulated); phases of other products are ignored', async () => {
    expect((await read('terraform-v5-state.json', 'demo-atp.json')).notes).toEqual(['module.fw.cloudflare_ruleset.managed: phase magic_transit_managed is not simulated']);
    expect((await read('octorules-account.yaml', 'demo-atp.json')).notes).toEqual(['network_ddos_rules: this phase is not simulated']);
  });

  it('a ruleset from the rulesets list, which answers without rules, is read with a note saying where its rules are', async () => {
    const file = path.join(tempDir('vendor-list-'), 'rulesets.json');
    const listed = { id: '2c0fc9fa937b11eaa1b71c4d701ab86e', name: 'default', kind: 'root', version: '3', phase: 'magic_transit' };
    writeFileSync(file, JSON.stringify({ result: [listed], success: true, errors: [], messages: [], result_info: { cursor: '' } }));
    const { snapshot, notes } = await readConfiguration([{ file }]);
    expect(snapshot.rulesets?.map((r) => r.rules)).toEqual([[]]);
    expect(notes).toEqual(['ruleset "default" has no "rules": the rulesets list answers without them; save the ruleset\'s own GET (…/rulesets/ID or …/phases/magic_transit/entrypoint) to have its rules']);
    // the entry point's own GET carries its rules: no note
    expect((await read('vendor-entrypoint.json', 'demo-atp-lists.json')).notes).toEqual([]);
  });
});

describe('where each rule is written', () => {
  const lineOf = (file: string, needle: string): number => readFileSync(at(file), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('Terraform: the resource address and the rule position', async () => {
    const { locate } = await read('terraform-v5-state.json', 'demo-atp.json');
    expect(locate(0, 3)).toEqual({ file: at('terraform-v5-state.json'), address: 'module.fw.cloudflare_ruleset.mt rules[3]' });
  });

  it("the vendor's response: the rule object's line inside result.rules", async () => {
    const { locate } = await read('vendor-entrypoint.json', 'demo-atp-lists.json');
    const loc = locate(0, 0);
    expect(loc?.file).toBe(at('vendor-entrypoint.json'));
    expect(loc?.line).toBe(lineOf('vendor-entrypoint.json', '"rules": [') + 1);
  });

  it("octorules YAML: the rule's line", async () => {
    const { locate } = await read('octorules-account.yaml', 'demo-atp.json');
    expect(locate(0, 7)).toEqual({ file: at('octorules-account.yaml'), line: lineOf('octorules-account.yaml', 'ref: ssh-from-office'), column: 5 });
  });

  it('several files: the rules are located in the file that holds them', async () => {
    const { locate } = await read('demo-atp.json', 'octorules-account.yaml');
    expect(locate(0, 0)?.file).toBe(at('octorules-account.yaml'));
  });
});

describe('the vendor API JSON in its other shapes', () => {
  const response = JSON.parse(readFileSync(at('vendor-entrypoint.json'), 'utf8'));
  const dir = tempDir('edgesim-vendor-');
  const write = (name: string, value: unknown): string => {
    const p = path.join(dir, name);
    writeFileSync(p, JSON.stringify(value, null, 2));
    return p;
  };

  it("the envelope's result alone, and a list of responses, read as the envelope does", async () => {
    const allow = { unknownLists: 'allow' } as const;
    const expected = decisive((await readConfiguration([{ file: at('vendor-entrypoint.json') }], allow)).snapshot);
    const managed = { result: { id: 'd'.repeat(32), name: 'ids', kind: 'managed', phase: 'magic_transit_ids_managed', rules: [] }, success: true, errors: [], messages: [] };
    const http = { id: 'e'.repeat(32), name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules: [] };
    expect(decisive((await readConfiguration([{ file: write('result.json', response.result) }], allow)).snapshot)).toEqual(expected);
    const several = await readConfiguration([{ file: write('list.json', [managed, http, response]) }], allow);
    expect(decisive(several.snapshot)).toEqual(expected);
    expect(several.notes).toEqual(['ruleset "ids" of phase magic_transit_ids_managed is not simulated']);
    const text = readFileSync(path.join(dir, 'list.json'), 'utf8').split('\n');
    const line = several.locate(0, 1)!.line!;
    expect(text[line - 1]!.trim()).toBe('{');
    expect(text.slice(line, line + 8).join('\n')).toContain('"ref": "block-botnet-cc"');
    expect(line).toBeGreaterThan(text.findIndex((l) => l.includes('"phase": "magic_transit"')));
  });

  it('detection: a snapshot (an edgesim export) stays a snapshot', async () => {
    expect(await detectFormat(readFileSync(DEMO, 'utf8'))).toBe('snapshot');
    expect(await detectFormat(readFileSync(at('terraform-v5-plan.json'), 'utf8'))).toBe('terraform');
    expect(await detectFormat(readFileSync(at('vendor-entrypoint.json'), 'utf8'))).toBe('vendor');
    expect(await detectFormat(readFileSync(at('octorules-account.yaml'), 'utf8'))).toBe('octorules');
  });
});
