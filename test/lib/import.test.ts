// Importing the library, as a user's test file does, in a process of its own: it loads no CLI code
// (no module of dist/cli, no commander), prints nothing, never exits the process, and leaves no
// handle open: a script that simulates, replays and leaves a replay early still ends by itself.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const ENTRY = pathToFileURL(path.join(ROOT, 'dist/lib/index.js')).href;

/** Runs `script` (an ES module) with every module it loads logged; returns its output and the modules. */
function runLogged(script: string): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  const dir = tempDir('edgesim-lib-import-');
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'hook.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n");
  writeFileSync(path.join(dir, 'script.mjs'), script);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(dir, 'register.mjs')).href, path.join(dir, 'script.mjs')], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('importing edgesim', () => {
  it('loads no CLI code and prints nothing', () => {
    const r = runLogged(`await import(${JSON.stringify(ENTRY)});\nprocess.on('exit', (code) => { if (code !== 0) throw new Error('exit ' + code); });\n`);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(r.loaded.some((u) => u.endsWith('/dist/lib/index.js'))).toBe(true);
    expect(r.loaded.filter((u) => u.includes('/dist/cli/') || u.includes('/commander/') || u.includes('/dist/bundle/'))).toEqual([]);
  });

  it('ends by itself after simulating, replaying and leaving a replay early', () => {
    // a capture of several megabytes: a replay left early has reads still to make when the loop ends
    const capture = path.join(tempDir('edgesim-lib-import-'), 'mixed.pcap');
    const script = `
const { loadConfig, createSimulator, synth } = await import(${JSON.stringify(ENTRY)});
await synth('mixed', ${JSON.stringify(capture)}, { packets: 60000, seed: 1, labels: null });
const sim = await createSimulator(await loadConfig(${JSON.stringify(path.join(ROOT, 'examples/demo-snapshot.json'))}));
sim.decide({ 'ip.dst': '203.0.113.10', 'tcp.dstport': 22 });
let n = 0;
for await (const r of sim.replay(${JSON.stringify(capture)})) if (++n === 10) break;
for await (const r of sim.replay(${JSON.stringify(path.join(ROOT, 'examples/demo.pcap'))})) n++;
process.stdout.write(String(n));
`;
    const r = runLogged(script);
    // a handle left open would keep the process alive until spawnSync's timeout kills it (status null);
    // a replay that never ends leaves the top-level await unsettled (status 13)
    expect([r.status, r.stdout, r.stderr]).toEqual([0, String(10 + 4526), '']);
  });
});
