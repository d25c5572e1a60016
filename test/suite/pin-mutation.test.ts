// A pinned suite catches every edit that `diff --static` proves changes behaviour (issue 33): over
// generated rulesets and two written from the real world (the demo configuration, and the vendor's
// suggested rules — its minimal ruleset, then the extended one for endpoints, internal routers and
// web servers, test/suite/fixtures/vendor-suggested.json), every single edit — a rule disabled,
// deleted, swapped with its neighbour, moved to the front or the end, its action changed, a number
// of its expression (a port, a prefix length, a TTL) moved by one, a prefix moved to the next
// block, in a rule or a list — that compareRulesets proves changes some packet's verdict or
// deciding rule makes the suite `edgesim pin` wrote for the original fail; and the pinned suite of
// every original passes as written (docs/suites.md, "Starting from no tests").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRulesets } from '../../src/analysis/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { UserError } from '../../src/errors.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { loadSuite } from '../../src/suite/load.js';
import { pinnedCases } from '../../src/suite/pin/pin-suite.js';
import { suiteText } from '../../src/suite/pin/suite-text.js';
import { runSuites } from '../../src/suite/run.js';
import { ruleSpec, ruleSpecs, snapshotOf } from '../analysis/replay.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from './helpers.js';

type Rule = NonNullable<NonNullable<Snapshot['rulesets']>[number]['rules']>[number];
type Mutant = { what: string; snapshot: Snapshot };

/** The prefix `a.b.c.d/len` moved to the next block of its length (10.0.0.0/8 -> 11.0.0.0/8), or null past the last. */
function nextBlock(text: string): string | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text);
  if (m === null) return null;
  const len = Number(m[5]);
  if (len === 0) return null;
  const value = m.slice(1, 5).reduce((acc, o) => acc * 256 + Number(o), 0) + 2 ** (32 - len);
  if (value >= 2 ** 32) return null;
  return `${[24, 16, 8, 0].map((s) => Math.floor(value / 2 ** s) % 256).join('.')}/${len}`;
}

/** Every single edit of the snapshot's first ruleset and lists (see the top of this file). */
function mutants(original: Snapshot): Mutant[] {
  const out: Mutant[] = [];
  const rules = original.rulesets![0]!.rules!;
  const withRules = (what: string, next: Rule[]): void => {
    const snapshot = structuredClone(original);
    snapshot.rulesets![0]!.rules = next;
    out.push({ what, snapshot });
  };
  const change = (i: number, what: string, r: Partial<Rule>): void => withRules(`${rules[i]!.ref} ${what}`, rules.map((x, k) => (k === i ? ({ ...x, ...r } as Rule) : x)));
  rules.forEach((r, i) => {
    const flipped = r.action === 'block' ? { action: 'skip' as const, action_parameters: { ruleset: 'current' as const } } : { action: 'block' as const, action_parameters: undefined };
    change(i, 'action changed', flipped);
    if (r.enabled !== false) change(i, 'disabled', { enabled: false });
    withRules(`${r.ref} deleted`, rules.filter((_, k) => k !== i));
    for (const m of r.expression.matchAll(/(?<![\w.:x])\d+(?![\w.:])/g)) {
      change(i, `${m[0]} -> ${Number(m[0]) + 1}`, { expression: r.expression.slice(0, m.index) + String(Number(m[0]) + 1) + r.expression.slice(m.index + m[0].length) });
    }
    for (const m of r.expression.matchAll(/\d+\.\d+\.\d+\.\d+\/\d+/g)) {
      const next = nextBlock(m[0]);
      if (next !== null) change(i, `${m[0]} -> ${next}`, { expression: r.expression.slice(0, m.index) + next + r.expression.slice(m.index + m[0].length) });
    }
    if (i + 1 < rules.length) withRules(`${r.ref} and ${rules[i + 1]!.ref} swapped`, rules.map((x, k) => (k === i ? rules[i + 1]! : k === i + 1 ? r : x)));
    if (i > 1) withRules(`${r.ref} moved first`, [r, ...rules.filter((_, k) => k !== i)]);
    if (i + 2 < rules.length) withRules(`${r.ref} moved last`, [...rules.filter((_, k) => k !== i), r]);
  });
  (original.lists ?? []).forEach((list, l) => {
    (list.items ?? []).forEach((item, k) => {
      const next = 'ip' in item && typeof item.ip === 'string' ? nextBlock(item.ip) : null;
      if (next === null) return;
      const snapshot = structuredClone(original);
      (snapshot.lists![l]!.items![k] as { ip: string }).ip = next;
      out.push({ what: `$${list.name} ${item.ip} -> ${next}`, snapshot });
    });
  });
  return out;
}

/** Whether compareRulesets proves that some packet's verdict or deciding rule changes (null: the mutant is no valid configuration). */
function provedChange(a: Snapshot, b: Snapshot): boolean | null {
  try {
    return compareRulesets(a, b).differences.some((d) => d.certain);
  } catch (err) {
    if (err instanceof UserError) return null;
    throw err;
  }
}

/** Whether the suite does not pass: a case failed or errored, or the suite is invalid (a rule it names is gone). */
async function suiteFails(file: string): Promise<boolean> {
  try {
    const results = await runSuites([await loadSuite(file)]);
    return results.some((r) => r.status !== 'passed');
  } catch (err) {
    if (err instanceof UserError) return true;
    throw err;
  }
}

async function pin(snapshot: Snapshot, dir: string): Promise<string> {
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(snapshot));
  const { cases } = pinnedCases(snapshot, await SuitePaths.open(snapshot, {}));
  const file = path.join(dir, 'pinned.yaml');
  writeFileSync(file, suiteText('pinned', 'config.json', cases, ''));
  return file;
}

/** The proved edits of `original` its pinned suite lets through (it must pass as written). */
async function missed(original: Snapshot, counts: { proved: number }): Promise<string[]> {
  const dir = tempDir();
  const suite = await pin(original, dir);
  expect(await suiteFails(suite), JSON.stringify(original.rulesets)).toBe(false);
  const out: string[] = [];
  for (const m of mutants(original)) {
    if (provedChange(original, m.snapshot) !== true) continue;
    counts.proved++;
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(m.snapshot));
    if (!(await suiteFails(suite))) out.push(`${m.what} in ${JSON.stringify(original.rulesets![0]!.rules!.map((r) => `${r.enabled === false ? '(disabled) ' : ''}${r.action} ${r.expression}`))}`);
  }
  return out;
}

const fixture = (file: string): Snapshot => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Snapshot;

describe('pinned suites catch every change the analysis proves', () => {
  it('of generated rulesets: every proved single edit fails the suite pinned from the original', async () => {
    const counts = { proved: 0 };
    const all: string[] = [];
    // 20 rulesets of up to 8 rules, and 5 of 10 to 12
    const rulesets = [...fc.sample(ruleSpecs, { seed: 24, numRuns: 20 }), ...fc.sample(fc.array(ruleSpec, { minLength: 10, maxLength: 12 }), { seed: 7, numRuns: 5 })];
    for (const rules of rulesets) all.push(...(await missed(snapshotOf(rules), counts)));
    expect(counts.proved).toBeGreaterThan(300);
    expect(all).toEqual([]);
  }, 300_000);

  it('of the demo configuration', async () => {
    const counts = { proved: 0 };
    expect(await missed(fixture('examples/demo-snapshot.json'), counts)).toEqual([]);
    expect(counts.proved).toBeGreaterThan(20);
  }, 300_000);

  it("of the vendor's suggested rules", async () => {
    const counts = { proved: 0 };
    expect(await missed(fixture('test/suite/fixtures/vendor-suggested.json'), counts)).toEqual([]);
    expect(counts.proved).toBeGreaterThan(40);
  }, 300_000);
});
