// The single edits of a ruleset that a pinned suite must catch (issue 33), shared by
// test/suite/pin-mutation.test.ts and bench/pin-score.ts: a rule disabled, deleted, swapped with its
// neighbour, moved to the front or the end, its action changed, a number of its expression (a
// port, a prefix length, a TTL) moved by one, a prefix moved to the next block, in a rule or a
// list; whether `diff --static` (compareRulesets) proves an edit changes some packet's verdict or
// deciding rule; and whether the suite pinned from the original fails on the edited ruleset.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { compareRulesets } from '../../src/analysis/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { UserError } from '../../src/errors.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { loadSuite } from '../../src/suite/load.js';
import { pinnedCases } from '../../src/suite/pin/pin-suite.js';
import { suiteText } from '../../src/suite/pin/suite-text.js';
import { runSuites } from '../../src/suite/run.js';

type Rule = NonNullable<NonNullable<Snapshot['rulesets']>[number]['rules']>[number];
export type Mutant = { what: string; snapshot: Snapshot };

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
export function mutants(original: Snapshot): Mutant[] {
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

/** `n` of `items` drawn without replacement by a linear congruential generator from `seed` (the first n of a seeded shuffle). */
export function sampled<T>(items: readonly T[], n: number, seed: number): T[] {
  let x = seed >>> 0;
  const next = (): number => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
  const out = items.slice();
  const k = Math.min(n, out.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (out.length - i));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, k);
}

/** Whether compareRulesets proves that some packet's verdict or deciding rule changes (null: the mutant is no valid configuration). */
export function provedChange(a: Snapshot, b: Snapshot): boolean | null {
  try {
    return compareRulesets(a, b).differences.some((d) => d.certain);
  } catch (err) {
    if (err instanceof UserError) return null;
    throw err;
  }
}

/** Whether the suite does not pass: a case failed or errored, or the suite is invalid (a rule it names is gone). */
export async function suiteFails(file: string): Promise<boolean> {
  try {
    const results = await runSuites([await loadSuite(file)]);
    return results.some((r) => r.status !== 'passed');
  } catch (err) {
    if (err instanceof UserError) return true;
    throw err;
  }
}

/** Pins `snapshot` into `dir` (config.json beside pinned.yaml), as `edgesim pin` writes it; returns the suite's path. */
export async function pinInto(snapshot: Snapshot, dir: string): Promise<string> {
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(snapshot));
  const { cases } = pinnedCases(snapshot, await SuitePaths.open(snapshot, {}));
  const file = path.join(dir, 'pinned.yaml');
  writeFileSync(file, suiteText('pinned', 'config.json', cases, ''));
  return file;
}

/** The proved edits among `edits` the suite pinned from `original` (in `dir`) lets through, and how many were proved. */
export async function missedEdits(original: Snapshot, edits: readonly Mutant[], dir: string, suite: string): Promise<{ proved: number; missed: string[] }> {
  let proved = 0;
  const missed: string[] = [];
  for (const m of edits) {
    if (provedChange(original, m.snapshot) !== true) continue;
    proved++;
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(m.snapshot));
    if (!(await suiteFails(suite))) missed.push(m.what);
  }
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(original));
  return { proved, missed };
}
