// The mutation score of pinned suites (docs/suites.md, "Testing rulesets in CI"): over generated rulesets,
// every single change (an action flipped, a rule disabled or deleted, a number in an expression
// changed, two neighbouring rules swapped) that compareRulesets proves changes some packet's
// verdict or deciding rule must make the suite `edgesim pin` wrote for the original fail, on at
// least 95% of them; and the pinned suite of every original passes as written.
import { writeFileSync } from 'node:fs';
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
import { ruleSpecs, snapshotOf, type RuleSpec } from '../analysis/replay.js';
import { tempDir } from './helpers.js';

type Mutant = { what: string; rules: RuleSpec[] };

function mutants(rules: readonly RuleSpec[]): Mutant[] {
  const out: Mutant[] = [];
  const change = (i: number, what: string, r: Partial<RuleSpec>): void => {
    out.push({ what: `r${i + 1} ${what}`, rules: rules.map((x, k) => (k === i ? { ...x, ...r } : x)) });
  };
  rules.forEach((r, i) => {
    change(i, 'action flipped', { action: r.action === 'block' ? 'skip' : 'block' });
    if (r.enabled) change(i, 'disabled', { enabled: false });
    out.push({ what: `r${i + 1} deleted`, rules: rules.filter((_, k) => k !== i) });
    for (const m of r.expression.matchAll(/(?<![\w.:x])\d+(?![\w.:/])/g)) {
      const n = Number(m[0]);
      change(i, `${m[0]} -> ${n + 1}`, { expression: r.expression.slice(0, m.index) + String(n + 1) + r.expression.slice(m.index + m[0].length) });
    }
    if (i + 1 < rules.length) out.push({ what: `r${i + 1} and r${i + 2} swapped`, rules: rules.map((x, k) => (k === i ? rules[i + 1]! : k === i + 1 ? rules[i]! : x)) });
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
  const config = path.join(dir, 'config.json');
  writeFileSync(config, JSON.stringify(snapshot));
  const { cases } = pinnedCases(snapshot, await SuitePaths.open(snapshot, {}));
  const file = path.join(dir, 'pinned.yaml');
  writeFileSync(file, suiteText('pinned', 'config.json', cases, ''));
  return file;
}

describe('pinned suites catch the changes the analysis proves', () => {
  it('fail on at least 95% of proved single changes, and pass as written', async () => {
    const started = Date.now();
    let proved = 0;
    let caught = 0;
    const missed: string[] = [];
    for (const rules of fc.sample(ruleSpecs, { seed: 24, numRuns: 25 })) {
      const original = snapshotOf(rules);
      const dir = tempDir();
      const suite = await pin(original, dir);
      expect(await suiteFails(suite), JSON.stringify(rules)).toBe(false);
      for (const m of mutants(rules)) {
        const mutant = snapshotOf(m.rules);
        if (provedChange(original, mutant) !== true) continue;
        proved++;
        writeFileSync(path.join(dir, 'config.json'), JSON.stringify(mutant));
        if (await suiteFails(suite)) caught++;
        else missed.push(`${m.what} in ${JSON.stringify(rules.map((r) => `${r.enabled ? '' : '(disabled) '}${r.action} ${r.expression}`))}`);
      }
    }
    const score = caught / proved;
    console.log(`mutation score ${caught}/${proved} = ${(100 * score).toFixed(1)}% in ${((Date.now() - started) / 1000).toFixed(1)} s; missed:\n${missed.slice(0, 10).join('\n')}`);
    expect(proved).toBeGreaterThan(150);
    expect(score).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});
