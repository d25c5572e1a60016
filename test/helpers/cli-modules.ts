// What a run of the built `edgesim` command loads: every module it resolves, by `import` or by
// `require` (a synchronous module hook, registered before the command starts), as the project's
// modules the bundle's files hold (paths of compiled modules, cli/main.js, from esbuild's metafile)
// and the packages it loads from node_modules.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { BIN, ROOT } from './cli.js';
import { tempDir } from './temp-dir.js';

/** The source modules each file of the CLI bundle holds, as paths of compiled modules (cli/main.js). */
function bundledModules(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(path.join(ROOT, 'dist/bundle/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return new Map(Object.entries(meta.outputs).map(([file, out]) => [
    file.replace(/^dist\//, ''),
    Object.keys(out.inputs).filter((i) => i.startsWith('src/')).map((i) => i.slice(4).replace(/\.ts$/, '.js')),
  ]));
}

export interface LoadedModules {
  /** the project's modules, as paths of compiled modules (cli/main.js) */
  project: string[];
  /** the packages loaded from node_modules, by name */
  packages: string[];
}

/** The modules `edgesim ARGS` loads (it must exit with `status`). */
export function modulesLoaded(args: string[], status = 0): LoadedModules {
  const dir = tempDir('edgesim-modules-');
  const log = path.join(dir, 'loaded.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nimport { registerHooks } from 'node:module';\nregisterHooks({ resolve(s, c, next) { const r = next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; } });\n`);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hooks).href, BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(status);
  const urls = readFileSync(log, 'utf8').split('\n');
  const bundled = bundledModules();
  return {
    project: urls.filter((u) => u.includes('/dist/')).flatMap((u) => bundled.get(u.slice(u.indexOf('/dist/') + 6)) ?? []),
    packages: [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))],
  };
}
