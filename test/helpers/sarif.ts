// Microsoft's SARIF validator (npm @microsoft/sarif-multitool-linux), as the tests run it: with its
// default rules (the SARIF specification's) or with the rules GitHub code scanning applies on upload
// (`--rule-kind Gh`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

const VALIDATOR = path.join(ROOT, 'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

/** Which rules the validator applies: its default ones, or GitHub's. */
export type SarifRuleKind = 'default' | 'Gh';

/** The lines the validator prints for a file, by level (it exits 0 either way). */
export function sarifProblems(file: string, ruleKind: SarifRuleKind = 'default'): { errors: string[]; warnings: string[] } {
  const r = spawnSync(VALIDATOR, ['validate', file, ...(ruleKind === 'default' ? [] : ['--rule-kind', ruleKind])], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('1 files scanned');
  const lines = r.stdout.split('\n');
  return { errors: lines.filter((l) => /: error /.test(l)), warnings: lines.filter((l) => /: warning /.test(l)) };
}

/** The rule ids of the validator's errors and warnings, with both rule kinds. */
export function sarifRuleIds(file: string): { default: string[]; Gh: string[] } {
  const ids = (kind: SarifRuleKind): string[] => {
    const { errors, warnings } = sarifProblems(file, kind);
    return [...errors, ...warnings].map((l) => /\b(SARIF|GH)\d+/.exec(l)?.[0] ?? l);
  };
  return { default: ids('default'), Gh: ids('Gh') };
}
