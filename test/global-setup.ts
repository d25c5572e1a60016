// Once per `npm test`: build dist/ so that end-to-end tests run the installed `edgesim` command as a
// user would, and make sure the oracle tools (tshark, tcpdump) that differential tests compare
// against are present, installing them from Debian's packages when we can (CI runs as root).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

function installOracles(): void {
  if (has('tshark') && has('tcpdump')) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    console.warn('tshark/tcpdump missing and not root: install them (apt-get install tshark tcpdump) for the differential tests');
    return;
  }
  const script = [
    'export DEBIAN_FRONTEND=noninteractive',
    'echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections',
    '(apt-get install -y -qq --no-install-recommends tshark tcpdump || (apt-get update -qq && apt-get install -y -qq --no-install-recommends tshark tcpdump))',
  ].join(' && ');
  const r = spawnSync('sh', ['-c', script], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  if (r.status !== 0) console.warn('could not install tshark/tcpdump; the differential tests will fail');
}

export default function setup(): void {
  // tsc emits even when it finds type errors; those are reported by test/typecheck.test.ts, so a
  // type error fails one named test instead of hiding every other result.
  spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'ignore',
  });
  installOracles();
}
