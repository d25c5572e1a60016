// Invariants of reading: the v4 and v5 provider shapes of any rule read as the same snapshot rule
// (the one written directly), and a snapshot's resources split across any number of files merge
// back into the same snapshot, while a resource given twice is refused naming both files.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfiguration } from '../../../src/config/inputs/index.js';
import { rulesetOf } from '../../../src/config/inputs/terraform-values.js';
import { loadSnapshotFile } from '../../../src/config/load.js';
import { tempDir } from '../../helpers/temp-dir.js';

const DEMO = path.join(import.meta.dirname, '../../../examples/demo-snapshot.json');

const rule = fc.record(
  {
    ref: fc.string({ minLength: 1 }),
    action: fc.constantFrom('block', 'skip', 'log'),
    expression: fc.string({ minLength: 1 }),
    description: fc.string(),
    enabled: fc.boolean(),
    logging: fc.record({ enabled: fc.boolean() }),
  },
  { requiredKeys: ['ref', 'action', 'expression'] },
).map((r) => (r.action === 'skip' ? { ...r, action_parameters: { ruleset: 'current' } } : { ...r, logging: undefined })).map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);

/** The rule as provider v5 writes it in state: every attribute present, unset ones null, server fields set. */
function v5(r: Record<string, unknown>): Record<string, unknown> {
  const params = r.action_parameters === undefined ? null : { ruleset: 'current', rulesets: null, phases: null, products: null, overrides: null, version: null };
  return { id: 'a'.repeat(32), version: '2', last_updated: '2026-01-01T00:00:00Z', ref: null, description: null, enabled: null, logging: null, ratelimit: null, exposed_credential_check: null, ...r, action_parameters: params };
}

/** The rule as provider v4 writes it: nested blocks as arrays of at most one object. */
function v4(r: Record<string, unknown>): Record<string, unknown> {
  const params = r.action_parameters === undefined ? [] : [{ ruleset: 'current', rulesets: [], phases: [], products: [], overrides: [], id: null, version: null }];
  return { id: 'b'.repeat(32), ...r, action_parameters: params, logging: r.logging === undefined ? [] : [r.logging], ratelimit: [], exposed_credential_check: [] };
}

const ruleset = (rules: unknown[]) => ({ name: 'fw', kind: 'root', phase: 'magic_transit', id: 'c'.repeat(32), account_id: 'x', zone_id: null, rules });

describe('Terraform provider shapes', () => {
  it('a rule in v4 and in v5 state reads as the rule written directly', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), (rules) => {
        const direct = { name: 'fw', kind: 'root', phase: 'magic_transit', rules };
        expect(rulesetOf(ruleset(rules.map(v5)))).toEqual(direct);
        expect(rulesetOf(ruleset(rules.map(v4)))).toEqual(direct);
      }),
    );
  });
});

describe('several files', () => {
  const dir = tempDir('edgesim-merge-');
  let n = 0;
  const write = (value: object): string => {
    const p = path.join(dir, `part-${n++}.json`);
    writeFileSync(p, JSON.stringify(value));
    return p;
  };

  it("a snapshot's resources split across files merge into the same snapshot; a resource in two files is refused", async () => {
    const demo = await loadSnapshotFile(DEMO);
    const keys = Object.keys(demo) as Array<keyof typeof demo>;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(3), { minLength: keys.length, maxLength: keys.length }), fc.option(fc.nat(keys.length - 1)), async (fileOf, twice) => {
        const parts: Array<Record<string, unknown>> = [{}, {}, {}, {}];
        keys.forEach((k, i) => (parts[fileOf[i]!]![k] = demo[k]));
        const files = parts.filter((p) => Object.keys(p).length > 0).map(write);
        if (twice === null) {
          expect((await readConfiguration(files.map((file) => ({ file })))).snapshot).toEqual(demo);
          return;
        }
        const key = keys[twice]!;
        const again = write({ [key]: demo[key] });
        const owner = files.find((_f, i) => key in parts.filter((p) => Object.keys(p).length > 0)[i]!)!;
        await expect(readConfiguration([...files, again].map((file) => ({ file })))).rejects.toThrow(`${key} is given in both ${owner} and ${again}: give each resource in one file`);
      }),
      { numRuns: 40 },
    );
  });
});
