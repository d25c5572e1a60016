import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

// about 15 s of CPU; on the shared 2-core machine under the whole suite's load, more than a minute of wall time
it('the whole project (src, test, bench, the VS Code extension) type-checks under strict TypeScript', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 240_000);
