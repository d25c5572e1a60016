import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

it('the whole project (src, test, bench) type-checks under strict TypeScript', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
});
