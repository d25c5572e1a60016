// Microsoft's SARIF validator (npm @microsoft/sarif-multitool-linux), as the tests run it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

const VALIDATOR = path.join(ROOT, 'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

/** The lines the validator prints for a file, by level (it exits 0 either way). */
export function sarifProblems(file: string): { errors: string[]; warnings: string[] } {
  const r = spawnSync(VALIDATOR, ['validate', file], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('1 files scanned');
  const lines = r.stdout.split('\n');
  return { errors: lines.filter((l) => /: error /.test(l)), warnings: lines.filter((l) => /: warning /.test(l)) };
}
