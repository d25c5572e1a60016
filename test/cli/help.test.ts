import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { SCENARIO_NAMES } from '../../src/cli/commands/synth/command.js';
import { SCENARIOS } from '../../src/capture/synth/index.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The source modules each file of the CLI bundle holds, as paths of compiled modules (cli/main.js), from esbuild's metafile. */
function bundledModules(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(path.join(ROOT, 'dist/bundle/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return new Map(Object.entries(meta.outputs).map(([file, out]) => [
    file.replace(/^dist\//, ''),
    Object.keys(out.inputs).filter((i) => i.startsWith('src/')).map((i) => i.slice(4).replace(/\.ts$/, '.js')),
  ]));
}

/** The project modules (as paths of compiled modules, cli/main.js) that `edgesim ARGS` loads, recorded by a module-resolution hook over the bundle's files. */
function modulesLoaded(args: string[]): string[] {
  const dir = tempDir('edgesim-modules-');
  const log = path.join(dir, 'loaded.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  const bundled = bundledModules();
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.includes('/dist/'))
    .flatMap((u) => bundled.get(u.slice(u.indexOf('/dist/') + 6)) ?? []);
}

describe('edgesim command', () => {
  it('prints help listing its subcommands and exits 0', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: edgesim');
    expect(r.stdout).toContain('about');
  });

  it('rejects an unknown subcommand with a usage error and a non-zero exit', () => {
    const r = runCli(['no-such-command']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("unknown command 'no-such-command'");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('shows the data attribution the GeoIP licence asks for', () => {
    const r = runCli(['about']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/CC BY 4\.0/);
    expect(r.stdout).toMatch(/edgesim \d+\.\d+\.\d+/);
  });

  it('loads neither the rule engine nor the capture code for --help, and no command action', () => {
    const loaded = modulesLoaded(['--help']);
    expect(loaded).toContain('cli/main.js');
    expect(loaded.filter((m) => m.startsWith('lang/') || m.startsWith('capture/') || m.startsWith('fields/') || m.endsWith('/action.js'))).toEqual([]);
  });

  it('loads only the action of the command that runs', () => {
    const loaded = modulesLoaded(['validate', 'tcp.dstport == 22']);
    expect(loaded.filter((m) => m.endsWith('/action.js'))).toEqual(['cli/commands/validate/action.js']);
  });

  it('lists in synth help exactly the scenarios the generator knows', () => {
    expect([...SCENARIO_NAMES].sort()).toEqual(Object.keys(SCENARIOS).sort());
  });
});
