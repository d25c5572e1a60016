// The installed command's start-up snapshot (bin/edgesim.js run as a program, src/cli/snapshot/): the
// first run, finding no snapshot for the `node` on PATH, runs from the bundle and has one built in the
// background; the runs after it start from the snapshot and print what a run from the bundle prints,
// byte for byte but for timings, for every kind of command (a replay in each format and on threads,
// suites, lint, match, inspect, errors, an interrupted replay, the API server, Terraform sources); a
// snapshot that is not this Node's and this copy's is not used, and each Node has its own.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';

const BUNDLE = path.join(ROOT, 'dist/bundle');
/** the snapshot of a Node executable: named by its inode and size */
function snapshotOf(node: string): string {
  const s = statSync(realpathSync(node));
  return path.join(BUNDLE, `edgesim-${s.ino}-${s.size}.blob`);
}
const SNAPSHOT = snapshotOf(process.execPath);
/** the links beside a snapshot that say what it was built for: the Node executable, and this copy of edgesim */
const nodeLink = (blob: string) => blob.replace(/\.blob$/, '.node');
const rootLink = (blob: string) => blob.replace(/\.blob$/, '.root');
/** the snapshot of the replay alone, built with every command's, which `edgesim replay` starts from */
const replayBlob = (blob: string) => blob.replace(/\.blob$/, '.replay.blob');
const STARTED = 'edgesim: started from the start-up snapshot';

/** the environment of a user whose `node` is the one running the tests */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...extra };
  for (const name of ['NODE_OPTIONS', 'EDGESIM_NO_SNAPSHOT', 'EDGESIM_SNAPSHOT_NODE']) if (!(name in extra)) delete env[name];
  return env;
}

/** `edgesim ARGS` as the installed program: bin/edgesim.js run through its `#!/bin/sh` line */
function asProgram(args: string[], extra: NodeJS.ProcessEnv = {}, input?: string): SpawnSyncReturns<string> {
  return spawnSync(BIN, args, { cwd: ROOT, env: userEnv(extra), encoding: 'utf8', input, maxBuffer: 1 << 28 });
}

function startedFromSnapshot(extra: NodeJS.ProcessEnv = {}): boolean {
  const r = asProgram(['--version'], { ...extra, EDGESIM_DEBUG: '1' });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr.includes(STARTED);
}

function removeSnapshot(): void {
  for (const name of readdirSync(BUNDLE)) if (name.startsWith('edgesim-')) rmSync(path.join(BUNDLE, name), { force: true });
}

async function waitFor(file: string, seconds: number): Promise<void> {
  for (let waited = 0; !existsSync(file); waited += 0.25) {
    if (waited > seconds) throw new Error(`${file} did not appear in ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** output with the timings (which differ from run to run) taken out */
const untimed = (text: string) =>
  text
    .replace(/replayed in [0-9.]+ s \([0-9,]+ packets\/s\)/g, 'replayed in T')
    .replace(/"(elapsedSeconds|packetsPerSecond|seconds)": [0-9.e+-]+/g, '"$1": T')
    .replace(/\([0-9.]+s\)/g, '(T)');

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'edgesim-snapshot-'));
  removeSnapshot();
  // the first run finds none, runs from the bundle and starts a build in the background
  expect(startedFromSnapshot()).toBe(false);
  await waitFor(nodeLink(SNAPSHOT), 180);
}, 200_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the start-up snapshot', () => {
  it('is built in the background by the first run, and the next runs start from it', () => {
    expect(existsSync(`${SNAPSHOT}.lock`)).toBe(false);
    expect(readlinkSync(nodeLink(SNAPSHOT))).toBe(realpathSync(process.execPath));
    expect(readlinkSync(rootLink(SNAPSHOT))).toBe(realpathSync(ROOT));
    expect(startedFromSnapshot()).toBe(true);
    // the shell finds it without starting a process (no readlink, no stat: a PATH with only Node on it)
    expect(startedFromSnapshot({ PATH: path.dirname(process.execPath) })).toBe(true);
    // and through a link, as npm installs the command (node_modules/.bin/edgesim -> ../edgesim/bin/edgesim.js)
    const bin = path.join(dir, 'project/node_modules/.bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(ROOT, path.join(dir, 'project/node_modules/edgesim'));
    symlinkSync('../edgesim/bin/edgesim.js', path.join(bin, 'edgesim'));
    const linked = spawnSync(path.join(bin, 'edgesim'), ['--version'], { env: userEnv({ EDGESIM_DEBUG: '1', PATH: path.dirname(process.execPath) }), encoding: 'utf8' });
    expect(linked.stdout).toBe(runCli(['--version']).stdout);
    expect(linked.stderr).toContain(STARTED);
  });

  it("starts a replay from the replay's own snapshot, and every other command from every command's", () => {
    const replay = asProgram(['replay', 'pcaps/geo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json'], { EDGESIM_DEBUG: '1' });
    // the blob as the shell names it: the command's folder/../dist/bundle/edgesim-INODE-SIZE…
    expect(replay.stderr).toMatch(new RegExp(`^${STARTED} \\(--no-rehash-snapshot --snapshot-blob \\S*/${path.basename(replayBlob(SNAPSHOT)).replaceAll('.', '\\.')}\\)`));
    expect(untimed(replay.stdout)).toBe(untimed(runCli(['replay', 'pcaps/geo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json']).stdout));
    for (const args of [['--version'], ['match', 'examples/demo.pcap', 'tcp.dstport == 22'], ['inspect', 'pcaps/geo.pcap', '--limit', '1']]) {
      const r = asProgram(args, { EDGESIM_DEBUG: '1' });
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^${STARTED} \\(--no-rehash-snapshot --snapshot-blob \\S*/${path.basename(SNAPSHOT).replaceAll('.', '\\.')}\\)`));
    }
    // the replay's snapshot registers the replay alone: its help and its usage errors are the whole program's
    for (const args of [['replay', '--help'], ['replay'], ['replay', '--format', 'xml', 'examples/demo.pcap'], ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--no-such-flag']]) {
      const snapshot = asProgram(args);
      const bundle = runCli(args);
      expect(snapshot.stdout, args.join(' ')).toBe(bundle.stdout);
      expect(snapshot.stderr, args.join(' ')).toBe(bundle.stderr);
      expect(snapshot.status, args.join(' ')).toBe(bundle.status);
    }
    // not with NODE_OPTIONS (flags the snapshot was not built with) or when the user turns it off
    expect(startedFromSnapshot({ NODE_OPTIONS: '--max-old-space-size=512' })).toBe(false);
    expect(startedFromSnapshot({ EDGESIM_NO_SNAPSHOT: '1' })).toBe(false);
  });

  it("holds the bundle's source as one-byte text: snapshot-entry.cjs is ASCII", () => {
    // one character past Latin-1 anywhere (a dash in a String.raw template, which esbuild leaves as
    // written where it escapes every other string) makes V8 keep the whole 1 MB source as two-byte
    // text: 1 MB more heap to deserialize at every start (docs/start-up.md)
    const text = readFileSync(path.join(BUNDLE, 'snapshot-entry.cjs'), 'latin1');
    const wide = /[^\x00-\x7f]/.exec(text);
    expect(wide === null ? null : text.slice(Math.max(0, wide.index - 60), wide.index + 10)).toBeNull();
  });

  const commands: Array<[string, string[]]> = [
    ['replay, table', ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json']],
    ['replay, json', ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json']],
    ['replay, ndjson with fields', ['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'ndjson', '--fields', 'ip.src,ip.src.country,tcp.dstport']],
    ['replay, csv', ['replay', 'pcaps/geo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'csv']],
    ['replay on two threads', ['replay', 'pcaps/mixed.pcap', '--config', 'examples/demo-snapshot.json', '--jobs', '2', '--format', 'json', '--no-labels']],
    ['a suite', ['test', 'examples/demo-suite.yaml', '--config', 'examples/demo-snapshot.json', '--format', 'json']],
    ['lint', ['lint', '--config', 'examples/demo-snapshot.json']],
    ['match', ['match', 'examples/demo.pcap', 'tcp.dstport == 22 and ip.src.country != "US"']],
    ['inspect, with lookups', ['inspect', 'pcaps/geo.pcap', '--limit', '50']],
    ['fields', ['fields']],
    ['explain', ['explain', 'tcp.dstport in { 22 80 } and not ip.src in { 10.0.0.0/8 }', '--bpf']],
    ['a bad expression', ['validate', 'tcp.port == ']],
    ['a missing capture', ['replay', 'missing.pcap', '--config', 'examples/demo-snapshot.json']],
    ['an unknown option', ['replay', '--frobnicate']],
    ['help', ['replay', '--help']],
    // .tf files are read by web-tree-sitter, required from node_modules (inlined, it looked for its WebAssembly in dist/bundle/)
    ['Terraform sources', ['lint', '--plan', 'test/config/terraform-source/fixtures/v4-dynamic/plan.json', '--tf-dir', 'test/config/terraform-source/fixtures/v4-dynamic', '--format', 'github']],
  ];
  it.each(commands)('%s: prints what a run from the bundle prints', (_name, args) => {
    const snapshot = asProgram(args);
    const bundle = runCli(args);
    expect(untimed(snapshot.stdout)).toBe(untimed(bundle.stdout));
    expect(untimed(snapshot.stderr)).toBe(untimed(bundle.stderr));
    expect(snapshot.status).toBe(bundle.status);
  });

  it('reads standard input, and writes the files a replay and synth write', () => {
    const input = readFileSync(path.join(ROOT, 'examples/demo.pcap')).toString('latin1');
    const args = (at: string) => ['replay', '-', '--config', 'examples/demo-snapshot.json', '--write-dropped', path.join(dir, `${at}.pcap`), '--format', 'json'];
    const snapshot = spawnSync(BIN, args('snapshot'), { cwd: ROOT, env: userEnv(), input: Buffer.from(input, 'latin1'), encoding: 'utf8' });
    const bundle = spawnSync(process.execPath, [BIN, ...args('bundle')], { cwd: ROOT, input: Buffer.from(input, 'latin1'), encoding: 'utf8' });
    expect(snapshot.status).toBe(0);
    expect(untimed(snapshot.stdout)).toBe(untimed(bundle.stdout));
    expect(readFileSync(path.join(dir, 'snapshot.pcap')).equals(readFileSync(path.join(dir, 'bundle.pcap')))).toBe(true);
    expect(asProgram(['synth', 'syn-flood', '--packets', '2000', '--seed', '7', '--out', path.join(dir, 's.pcap')]).status).toBe(0);
    expect(runCli(['synth', 'syn-flood', '--packets', '2000', '--seed', '7', '--out', path.join(dir, 'b.pcap')]).status).toBe(0);
    expect(readFileSync(path.join(dir, 's.pcap')).equals(readFileSync(path.join(dir, 'b.pcap')))).toBe(true);
  });

  it('stops a replay of an endless input at SIGTERM with the summary so far, exit 143', async () => {
    const feeder = spawn(process.execPath, [path.join(ROOT, 'test/cli/helpers/endless-capture.mjs'), path.join(ROOT, 'examples/demo.pcap')], { stdio: ['ignore', 'pipe', 'ignore'] });
    const replay = spawn(BIN, ['replay', '-', '--config', 'examples/demo-snapshot.json', '--format', 'json'], { cwd: ROOT, env: userEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    feeder.stdout.pipe(replay.stdin);
    replay.stdin.on('error', () => undefined); // the replay closed its input
    const out: Buffer[] = [];
    replay.stdout.on('data', (b: Buffer) => out.push(b));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    replay.kill('SIGTERM');
    const status = await new Promise<number | null>((resolve) => replay.on('close', resolve));
    feeder.kill();
    expect(status).toBe(143);
    const report = JSON.parse(Buffer.concat(out).toString('utf8')) as { packets: number; interrupted?: unknown };
    expect(report.packets).toBeGreaterThan(0);
  }, 30_000);

  it('serves the mock API (its framework required from node_modules when serve starts)', async () => {
    const server = spawn(BIN, ['serve', '--port', '0', '--data', path.join(dir, 'api')], { cwd: ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (b: Buffer) => {
        text += b.toString('utf8');
        const line = text.split('\n').find((l) => l.startsWith('http'));
        if (line !== undefined) resolve(line.trim());
      });
      server.on('close', () => reject(new Error('serve ended')));
    });
    const response = await fetch(`${url}/accounts/acc1/rulesets`, { headers: { Authorization: 'Bearer token' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { success: boolean }).success).toBe(true);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('close', resolve));
  }, 30_000);

  it('is not used when it was built for another copy of edgesim, or before its code or Node changed, and is built again', async () => {
    const builtAt = statSync(SNAPSHOT).mtimeMs;
    const rebuilt = async () => {
      for (let waited = 0; !(existsSync(nodeLink(SNAPSHOT)) && statSync(SNAPSHOT).mtimeMs > builtAt && readlinkSync(rootLink(SNAPSHOT)) === realpathSync(ROOT)); waited++) {
        if (waited > 720) throw new Error('the snapshot was not built again');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    // another copy's (its .root names another folder: the blob holds paths into that one)
    rmSync(rootLink(SNAPSHOT));
    symlinkSync(dir, rootLink(SNAPSHOT));
    expect(startedFromSnapshot()).toBe(false);
    const r = asProgram(['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json']);
    expect(untimed(r.stdout)).toBe(untimed(runCli(['replay', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--format', 'json']).stdout));
    await rebuilt();
    expect(startedFromSnapshot()).toBe(true);
    // built before the snapshot's code, or the Node executable, last changed (as a blob older than both)
    const before = statSync(SNAPSHOT).mtimeMs;
    utimesSync(SNAPSHOT, new Date(0), new Date(0));
    expect(startedFromSnapshot()).toBe(false);
    for (let waited = 0; !(existsSync(nodeLink(SNAPSHOT)) && statSync(SNAPSHOT).mtimeMs > before); waited++) {
      if (waited > 720) throw new Error('the snapshot was not built again');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(startedFromSnapshot()).toBe(true);
  }, 300_000);

  it('is one per Node: another Node gets its own, and the two used in turn never rebuild or replace each other', async () => {
    // another Node executable: a copy of this one (another inode), first on PATH
    const other = path.join(dir, 'other-node', 'bin');
    mkdirSync(other, { recursive: true });
    copyFileSync(process.execPath, path.join(other, 'node'));
    spawnSync('chmod', ['755', path.join(other, 'node')]);
    const theirs = snapshotOf(path.join(other, 'node'));
    const withOther = (extra: NodeJS.ProcessEnv = {}) => ({ ...extra, PATH: `${other}:${process.env.PATH ?? ''}` });
    const builtAt = statSync(SNAPSHOT).mtimeMs;
    try {
      expect(asProgram(['--version'], withOther()).stdout).toBe(runCli(['--version']).stdout);
      await waitFor(nodeLink(theirs), 180);
      expect(readlinkSync(nodeLink(theirs))).toBe(realpathSync(path.join(other, 'node')));
      for (let turn = 0; turn < 2; turn++) {
        expect(startedFromSnapshot(withOther())).toBe(true);
        expect(startedFromSnapshot()).toBe(true);
      }
      expect(readlinkSync(nodeLink(SNAPSHOT))).toBe(realpathSync(process.execPath));
      expect(statSync(SNAPSHOT).mtimeMs).toBe(builtAt);
    } finally {
      for (const file of [theirs, replayBlob(theirs), nodeLink(theirs), rootLink(theirs), `${theirs}.lock`, `${theirs}.failed`]) rmSync(file, { force: true });
    }
  }, 200_000);

  it('is not built again by a command that started from the bundle before the build ended', () => {
    const builtAt = statSync(SNAPSHOT).mtimeMs;
    // what the shell hands such a run: it found no snapshot, so it asks for one once its command is done
    const r = spawnSync(process.execPath, [BIN, '--version'], { cwd: ROOT, env: userEnv({ EDGESIM_SNAPSHOT_NODE: process.execPath }), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(existsSync(`${SNAPSHOT}.lock`)).toBe(false);
    expect(statSync(SNAPSHOT).mtimeMs).toBe(builtAt);
  });

  it('is not built for a version manager\'s shim (a small script that may start another Node each time)', () => {
    const shims = path.join(dir, 'shims');
    mkdirSync(shims, { recursive: true });
    writeFileSync(path.join(shims, 'node'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
    const r = asProgram(['--version'], { PATH: `${shims}:${process.env.PATH ?? ''}`, EDGESIM_DEBUG: '1' });
    expect(r.stdout).toBe(runCli(['--version']).stdout);
    expect(r.stderr).not.toContain(STARTED);
    expect(existsSync(`${SNAPSHOT}.lock`)).toBe(false);
  });

  it('is safe when two processes build it at once: the snapshot left is whole, with its links, and used', async () => {
    rmSync(nodeLink(SNAPSHOT));
    rmSync(SNAPSHOT);
    rmSync(replayBlob(SNAPSHOT));
    // the lock lets one build start at a time; these two bypass it, as two builds racing would
    const build = () => new Promise<number | null>((resolve) => spawn(process.execPath, [path.join(BUNDLE, 'snapshot-build.js')], { env: userEnv(), stdio: 'ignore' }).on('close', resolve));
    expect(await Promise.all([build(), build()])).toEqual([0, 0]);
    expect(readlinkSync(nodeLink(SNAPSHOT))).toBe(realpathSync(process.execPath));
    expect(readlinkSync(rootLink(SNAPSHOT))).toBe(realpathSync(ROOT));
    expect(existsSync(replayBlob(SNAPSHOT))).toBe(true);
    expect(existsSync(`${SNAPSHOT}.failed`)).toBe(false);
    expect(readdirSync(BUNDLE).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(startedFromSnapshot()).toBe(true);
  }, 300_000);

  it('is not built again for an ID whose build failed', () => {
    const id = spawnSync(process.execPath, [path.join(BUNDLE, 'snapshot-build.js'), '--id'], { encoding: 'utf8' }).stdout.trim();
    expect(id).toContain(realpathSync(process.execPath));
    rmSync(nodeLink(SNAPSHOT));
    writeFileSync(`${SNAPSHOT}.failed`, `${id}\nnode --build-snapshot failed\n`);
    try {
      expect(startedFromSnapshot()).toBe(false);
      expect(existsSync(`${SNAPSHOT}.lock`)).toBe(false);
    } finally {
      rmSync(`${SNAPSHOT}.failed`);
      symlinkSync(realpathSync(process.execPath), nodeLink(SNAPSHOT));
    }
    expect(startedFromSnapshot()).toBe(true);
  });
});
