// Once per `npm test`: build dist/ and the CLI bundle so that end-to-end tests run the installed
// `edgesim` command as a user would, and make sure the oracle tools (tshark, tcpdump) that differential tests compare
// against, the browser the report page is tested in (chromium) and the editor that drives the language
// server (neovim) are present, installing them
// from Debian's packages when we can (CI runs as root).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A command on PATH, or (given as an absolute path) that file: `time` is also a shell keyword. */
function has(tool: string): boolean {
  return spawnSync('sh', ['-c', tool.startsWith('/') ? `test -x ${tool}` : `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

/** Installs Debian packages when one of `tools` is missing (CI runs as root); warns when it cannot. */
function ensureTools(tools: string[], packages: string[], usedBy: string, preseed: string[] = []): void {
  if (tools.every(has)) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    console.warn(`${tools.join('/')} missing and not root: install them (apt-get install ${packages.join(' ')}) for ${usedBy}`);
    return;
  }
  const install = `apt-get install -y -qq --no-install-recommends ${packages.join(' ')}`;
  const script = ['export DEBIAN_FRONTEND=noninteractive', ...preseed, `(${install} || (apt-get update -qq && ${install}))`].join(' && ');
  const r = spawnSync('sh', ['-c', script], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  if (r.status !== 0) console.warn(`could not install ${packages.join(' ')}; ${usedBy} will fail`);
}

export default function setup(): void {
  // the capture corpus is not the project's to copy (../shared/corpus/README.md): it is read beside the project's root
  const corpus = path.resolve(root, '../shared/corpus/tcpdump-tests');
  if (!existsSync(corpus)) console.warn(`the tcpdump capture corpus is not at ${corpus}: put the shared folder beside the project (as CI does) or the corpus tests will fail`);
  // tsc emits even when it finds type errors; those are reported by test/typecheck.test.ts, so a
  // type error fails one named test instead of hiding every other result.
  // tsc is found by module resolution, not under root/node_modules: a Stryker sandbox of a checkout
  // whose node_modules is a symlink (a worktree) gets no node_modules of its own
  spawnSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'ignore',
  });
  // the command runs the bundle (bin/edgesim.js), built from the sources by the package's own script
  spawnSync('npm', ['run', '--silent', 'bundle'], { cwd: root, stdio: 'ignore' });
  // editcap and mergecap (Debian's wireshark-common, which tshark depends on) cut and merge captures for the merge's differential tests
  ensureTools(['tshark', 'tcpdump', 'editcap', 'mergecap'], ['tshark', 'tcpdump', 'wireshark-common'], 'the differential tests', [
    'echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections',
  ]);
  // memory tests measure a whole process's peak as GNU time reports it (test/helpers/measured-cli.ts)
  ensureTools(['/usr/bin/time'], ['time'], 'the memory tests');
  // the report page and the playground are tested in a real browser (test/report/browser.test.ts, test/playground/)
  ensureTools(['chromium'], ['chromium', 'fonts-liberation'], 'the report page tests');
  // the language server is driven by a real editor's client (test/lsp/neovim.test.ts)
  ensureTools(['nvim'], ['neovim'], "the language server's Neovim test");
}
