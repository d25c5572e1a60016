// The package as users get it: `npm pack` (its prepack and postpack scripts included; dist/ is built
// by the test run's global setup, so prepack does not build again), the tarball installed into a
// fresh project (offline: its dependencies come from npm's cache at the versions this project's
// lockfile pins) with its scripts allowed, as a user installs it, without a warning; an example run
// there, and a TypeScript consumer type-checked with --strict and nodenext resolution against the
// shipped declarations, wrong uses of the types failing to compile. The tarball holds the built code,
// its types, the ATP option reference and the data, and no tests; its size is the README's.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

interface LockEntry {
  dev?: boolean;
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string; dependencies: object; bin: object; engines: object };
let dir: string;
let app: string;
let packed: Packed;
/** what `npm ci` printed installing the tarball */
let installed: string;
const manifestBefore = readFileSync(path.join(ROOT, 'package.json'), 'utf8');

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A fresh project depending on the tarball alone, with a lockfile of the tarball and edgesim's runtime dependencies. */
function freshProject(tarball: string): string {
  const at = path.join(dir, 'app');
  const spec = `file:../${tarball}`;
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { edgesim: spec } },
    'node_modules/edgesim': { version: pkg.version, resolved: spec, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [key, entry] of Object.entries(lock.packages)) if (key.startsWith('node_modules/') && entry.dev !== true) packages[key] = entry;
  execFileSync('mkdir', [at]);
  writeFileSync(path.join(at, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { edgesim: spec } }));
  writeFileSync(path.join(at, 'package-lock.json'), JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }));
  return at;
}

beforeAll(() => {
  dir = tempDir('edgesim-pack-');
  // dist/ is built by the test run's global setup: prepack leaves the build out (EDGESIM_PREBUILT)
  // a start-up snapshot as the first run of the command builds in dist/bundle/: never packed
  const blob = path.join(ROOT, 'dist/bundle/edgesim-1-2.blob');
  writeFileSync(blob, 'not a snapshot');
  writeFileSync(`${blob}.id`, 'not an id');
  let pack;
  try {
    pack = spawnSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, EDGESIM_PREBUILT: '1' } });
  } finally {
    rmSync(blob, { force: true });
    rmSync(`${blob}.id`, { force: true });
  }
  if (pack.status !== 0) throw new Error(`npm pack exited ${pack.status}:\n${pack.stderr}`);
  [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Packed[];
  console.log(`edgesim tarball: ${packed!.filename}, ${packed!.size} bytes packed, ${packed!.unpackedSize} unpacked, ${packed!.files.length} files`);
  app = freshProject(packed!.filename);
  const ci = spawnSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  if (ci.status !== 0) throw new Error(`npm ci exited ${ci.status}:\n${ci.stdout}\n${ci.stderr}`);
  installed = ci.stdout + ci.stderr;
}, 300_000);

describe('the packed package', () => {
  it('holds the built code, its types, the ATP option reference and the data, and no tests', () => {
    const files = packed.files.map((f) => f.path);
    for (const wanted of ['bin/edgesim.js', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/vitest.d.ts', 'dist/bundle/main.js', 'src/atp/README.md', 'datasets/colos.json', 'datasets/hcl/tree-sitter-terraform.wasm', 'README.md']) {
      expect(files, wanted).toContain(wanted);
    }
    expect(files.filter((f) => /^test\/|\.test\.|\.map$/.test(f))).toEqual([]);
    // the start-up snapshot is built for the Node of the machine that runs the command, there
    expect(files.filter((f) => /\.blob/.test(f))).toEqual([]);
    expect(files).toContain('dist/bundle/snapshot-entry.cjs');
  });

  it("carries every file the README links to, so its links work where npm and the registry show it", () => {
    const files = new Set(packed.files.map((f) => f.path));
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(20);
    expect(targets.filter((t) => !files.has(t.replace(/^\.\//, '')))).toEqual([]);
  });

  it('installs without a word about scripts: the packed manifest has no build script, and the checkout keeps its own', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', path.join(dir, packed.filename), 'package/package.json'], { encoding: 'utf8' })) as { scripts: Record<string, string> };
    expect(Object.keys(manifest.scripts)).not.toContain('prepare');
    expect(Object.keys(manifest.scripts)).not.toContain('prepack');
    expect(installed).not.toMatch(/npm warn/i);
    // npm pack's postpack put the project's own manifest back, byte for byte
    expect(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(JSON.parse(manifestBefore).scripts.prepare).toBeDefined();
  });

  it("is as big as the README says (its figures within 5% of npm pack's)", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const m = /The tarball \(about ([\d.]+) MB; ([\d.]+) MB unpacked, about ([\d,]+) files/.exec(readme);
    expect(m, 'the README\'s sentence on the tarball').not.toBeNull();
    const near = (stated: number, actual: number): boolean => Math.abs(actual - stated) <= 0.05 * stated;
    expect(near(Number(m![1]) * 1e6, packed.size), `packed ${packed.size} bytes`).toBe(true);
    expect(near(Number(m![2]) * 1e6, packed.unpackedSize), `unpacked ${packed.unpackedSize} bytes`).toBe(true);
    expect(near(Number(m![3]!.replace(',', '')), packed.files.length), `${packed.files.length} files`).toBe(true);
  });

  it('runs an example in a fresh project: the library and the command', () => {
    writeFileSync(
      path.join(app, 'example.mjs'),
      `import { loadConfig, createSimulator } from 'edgesim';
import { matchers } from 'edgesim/vitest';
const sim = await createSimulator(await loadConfig('node_modules/edgesim/examples/demo-snapshot.json'));
const v = sim.decide({ 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.10', 'tcp.dstport': 22 });
let drops = 0;
for await (const r of sim.replay('node_modules/edgesim/examples/demo.pcap')) if (r.verdict === 'drop') drops++;
console.log(v.verdict, v.rule, drops, Object.keys(matchers).length);
`,
    );
    expect(run(process.execPath, ['example.mjs'], app)).toBe('drop ssh-from-office 1378 3\n');
    expect(run(process.execPath, ['node_modules/.bin/edgesim', '--version'], app).trim()).toBe(pkg.version);
  });

  it("places a Terraform plan's findings in the .tf files beside it (the shipped HCL grammar, found from the bundle)", () => {
    const fixture = path.join(ROOT, 'test/config/terraform-source/fixtures/v4-dynamic');
    for (const f of ['main.tf', 'plan.json']) writeFileSync(path.join(app, f), readFileSync(path.join(fixture, f)));
    const r = spawnSync(process.execPath, ['node_modules/.bin/edgesim', 'lint', '--plan', 'plan.json', '--format', 'github'], { cwd: app, encoding: 'utf8' });
    expect(r.status).toBe(1);
    // the one warning is that the plan's rules have no ref (paired with the state by content); none says a rule fell back to the JSON
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^edgesim: warning: cloudflare_ruleset\.magic_transit\[0\]: 5 rules' ids are known only after apply \(no ref\)/)]);
    expect(r.stdout).toMatch(/^::error title=edgesim unreachable,file=main\.tf,line=\d+,/m);
  });

  it('type-checks a TypeScript consumer with --strict and nodenext against the shipped declarations', () => {
    writeFileSync(
      path.join(app, 'consumer.ts'),
      `import { loadConfig, createSimulator, validate, lint, SuiteError, type Simulator, type VerdictRecord } from 'edgesim';
import { matchers, type EdgesimMatchers } from 'edgesim/vitest';
const sim: Simulator = await createSimulator(await loadConfig('firewall.json'), { atpOptions: { bidirectional: true } });
const v: VerdictRecord = sim.decide({ 'ip.src': '198.51.100.7', 'tcp.dstport': 22 });
const verdict: 'pass' | 'drop' = v.verdict;
for await (const r of sim.replay(new Uint8Array(0))) console.log(r.frame satisfies number, r.matched.join());
const checked = await validate('ip.src == 1.2.3.4');
if (!checked.valid) console.log(checked.message.length);
const typed: EdgesimMatchers<void> | null = null;
console.log(verdict, typeof matchers.toPass, typed, SuiteError.name);
// a packet's keys are the fields, each with its type of value
sim.decide({ 'ip.proto': 'udp', 'udp.dstport': 53, 'tcp.flags.syn': false, 'ip.ttl': 3, time: 0.5, payload: 'x' });
// @ts-expect-error tcp.port is not a field (tcp.srcport, tcp.dstport)
sim.decide({ 'tcp.port': 22 });
// @ts-expect-error a port is a number
sim.decide({ 'tcp.dstport': '22' });
// @ts-expect-error a flag is true or false
sim.decide({ 'tcp.flags.syn': 1 });
const stage: 'firewall' | 'syn_protection' | 'tcp_flow_protection' | null = v.stage;
// @ts-expect-error the stage is one of the path's stages
const other: 'firewall' | null = v.stage;
// @ts-expect-error a verdict is pass or drop
if (v.verdict === 'reject') console.log(stage, other);
if (v.monitor !== null) console.log(v.monitor.stage satisfies 'syn_protection' | 'tcp_flow_protection', v.reason);
// lint gives edgesim lint --json's object; loadConfig takes any format's parsed object
const { findings } = await lint(await loadConfig({ format_version: '1.0', values: { root_module: { resources: [] } } }));
console.log(findings.map((f) => f.severity satisfies 'error' | 'warning' | 'note'));
`,
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--noEmit', '--typeRoots', path.join(ROOT, 'node_modules/@types'), '--types', 'node'];
    expect(spawnSync(process.execPath, [tsc, ...args, 'consumer.ts'], { cwd: app, encoding: 'utf8' }).stdout).toBe('');
    // the check is real: a wrong use of the types fails
    writeFileSync(path.join(app, 'wrong.ts'), `import { createSimulator } from 'edgesim';\nconst n: number = (await createSimulator({ snapshot: {}, source: undefined })).decide({}).verdict;\nconsole.log(n);\n`);
    expect(spawnSync(process.execPath, [tsc, ...args, 'wrong.ts'], { cwd: app, encoding: 'utf8' }).stdout).toMatch(/^wrong\.ts\(2,7\): error TS2322: Type '.*' is not assignable to type 'number'/);
  });
});
