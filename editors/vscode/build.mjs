// `npm run vsix`: the VS Code extension packaged into editors/vscode/edgesim-<version>.vsix with
// @vscode/vsce. It holds the extension (the language client, bundled by esbuild), the TextMate
// grammars (grammar.mjs, from edgesim's own field registry and schemes), and the server: the edgesim
// package as `npm install` would lay it out (bin/, the built CLI bundle, the datasets) with its
// production dependencies copied from this checkout's node_modules, so the extension needs no network
// and runs the same command the repository builds. Needs the build first (npm run build).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { grammars } from './grammar.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);

if (!existsSync(path.join(root, 'dist/bundle/main.js'))) throw new Error('build edgesim first: npm run build');

// 1. the grammars
mkdirSync(path.join(here, 'syntaxes'), { recursive: true });
for (const [file, grammar] of Object.entries(grammars())) writeFileSync(path.join(here, file), `${JSON.stringify(grammar, null, 2)}\n`);

// 2. the extension, with the language client inside it
await build({ entryPoints: [path.join(here, 'src/extension.ts')], outfile: path.join(here, 'dist/extension.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'], minify: true, logLevel: 'warning' });

// 3. the server: the package's files and its production dependencies
const server = path.join(here, 'server');
rmSync(server, { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
mkdirSync(server, { recursive: true });
writeFileSync(path.join(server, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, license: pkg.license, type: 'module', bin: pkg.bin, engines: pkg.engines, dependencies: pkg.dependencies }, null, 2)}\n`);
cpSync(path.join(root, 'bin'), path.join(server, 'bin'), { recursive: true });
cpSync(path.join(root, 'datasets'), path.join(server, 'datasets'), { recursive: true, filter: (f) => !f.includes(`${path.sep}tools`) });
// not the start-up snapshots this machine built (edgesim-*: blobs for its own Node, links to its folders)
cpSync(path.join(root, 'dist/bundle'), path.join(server, 'dist/bundle'), { recursive: true, filter: (f) => !f.endsWith('.map') && !f.endsWith('meta.json') && !path.basename(f).startsWith('edgesim-') });
const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' }).split('\n').filter((l) => l.includes(`${path.sep}node_modules${path.sep}`));
// the GeoIP database split by family is not read (geoip.ts reads the combined one)
const unread = /geo-whois-asn-country-ipv[46]\.mmdb$/;
for (const dir of new Set(listed)) {
  cpSync(dir, path.join(server, path.relative(root, dir)), { recursive: true, dereference: true, filter: (f) => !unread.test(f) && !f.slice(dir.length).includes(`${path.sep}node_modules${path.sep}`) });
}

// 4. the .vsix
const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
const out = path.join(here, `edgesim-${JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')).version}.vsix`);
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: here, stdio: ['ignore', 'inherit', 'inherit'] });
process.stdout.write(`${out}\n`);
