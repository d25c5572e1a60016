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

/**
 * The hook module, run with --import before the command: Node's synchronous hooks see `import` and
 * `require` alike (Node >= 22.15); on older Nodes (CI runs test/cli on the system Node 20 too) the
 * asynchronous hooks of `register` (in `asyncHooks`) see imports, and `require` is seen where
 * CommonJS resolves a name.
 */
function hookSources(log: string, asyncHooks: string): string {
  const note = `const note = (url) => appendFileSync(${JSON.stringify(log)}, url + '\\n');`;
  writeFileSync(asyncHooks, [
    `import { appendFileSync } from 'node:fs';`,
    note,
    `export async function resolve(s, c, next) { const r = await next(s, c); note(r.url); return r; }`,
  ].join('\n'));
  return [
    `import { appendFileSync } from 'node:fs';`,
    `import Module from 'node:module';`,
    `import { pathToFileURL } from 'node:url';`,
    note,
    `if (Module.registerHooks) {`,
    `  Module.registerHooks({ resolve(s, c, next) { const r = next(s, c); note(r.url); return r; } });`,
    `} else {`,
    `  Module.register(${JSON.stringify(pathToFileURL(asyncHooks).href)});`,
    `  const resolveFilename = Module._resolveFilename;`,
    `  Module._resolveFilename = function (...args) { const file = resolveFilename.apply(this, args); if (file.includes('/')) note(pathToFileURL(file).href); return file; };`,
    `}`,
  ].join('\n');
}

/** The modules `edgesim ARGS` loads (it must exit with `status`). */
export function modulesLoaded(args: string[], status = 0): LoadedModules {
  const dir = tempDir('edgesim-modules-');
  const log = path.join(dir, 'loaded.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(hooks, hookSources(log, path.join(dir, 'async-hooks.mjs')));
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hooks).href, BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(status);
  const urls = readFileSync(log, 'utf8').split('\n');
  const bundled = bundledModules();
  return {
    project: urls.filter((u) => u.includes('/dist/')).flatMap((u) => bundled.get(u.slice(u.indexOf('/dist/') + 6)) ?? []),
    packages: [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))],
  };
}
