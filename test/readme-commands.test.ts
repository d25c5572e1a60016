// Every command the README shows keeps running (issue 35, "A README a user reads"). Each line of the
// README's shell code blocks (```sh), and each `run:` of its workflows (```yaml), that calls
// `edgesim`, `npx edgesim` or `npm` is run here, in README order, with this checkout's built command,
// in one fresh folder holding the bundled files that stand for the user's files the README names
// (USER_FILES), and must exit as the README's own comment on that line says (`# exit 1: …`; 0
// without one). A command that cannot run here is in NOT_RUN with the reason: its subcommand and
// every flag it uses are checked against `edgesim <command> --help` (an npm script against
// package.json). A README line that is neither run nor listed fails, and so does a listed line the
// README no longer shows. So a command renamed, or a flag removed, in the README or in the CLI fails.
// An output the README shows in a ```text block is checked against what the commands of the shell
// block before it printed, line by line (`...` marks lines left out).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const FIXTURES = path.join(ROOT, 'test/config/inputs/fixtures');
/** A pull request on the vendor's suggested rulesets, provider v5, rules with refs: its state before and its plan. */
const PULL_REQUEST = path.join(FIXTURES, 'real-world/v5-pull-request');

/** The user's files the README names, and the bundled files that stand for them. */
const USER_FILES: Record<string, string> = {
  'capture.pcap': path.join(ROOT, 'examples/demo.pcap'),
  'server1.pcap': path.join(ROOT, 'pcaps/handshakes.pcap'),
  'server2.pcap': path.join(ROOT, 'pcaps/syn-flood.pcap'),
  'firewall.json': path.join(ROOT, 'examples/demo-snapshot.json'),
  // what `terraform show -json` writes: the state before the pull request, and its plan
  'state.json': path.join(PULL_REQUEST, 'state-refs.json'),
  'plan.json': path.join(PULL_REQUEST, 'plan-refs.json'),
  // Advanced TCP Protection, which has no Terraform resource: the demo's, as a snapshot of it alone
  'atp.json': path.join(FIXTURES, 'demo-atp.json'),
};

/** Lines the README shows that are not run here, and why (checked against the command's --help instead). */
const NOT_RUN: Record<string, string> = {
  'npm install': 'sets up this checkout: the tests run on what it built (test/global-setup.ts builds dist), and running it here would rewrite node_modules under the other tests',
  'npm test': 'runs every test, this one included',
  'npm install --save-dev "git+https://git.example.com/netops/edgesim.git#v0.1.0"': "needs the network and the user's repository (the URL is an example)",
  'npm install --save-dev ./vendor/edgesim-0.1.0.tgz': 'test/lib/package.test.ts packs edgesim and installs the tarball into a fresh project',
  'terraform show -json > state.json': "needs Terraform and the user's workspace; USER_FILES holds the state it writes",
  'terraform plan -out plan.out && terraform show -json plan.out > plan.json': "needs Terraform and the user's workspace; USER_FILES holds the plan it writes",
  'npm ci': "installs the ruleset repository's dependencies; test/lib/package.test.ts installs edgesim into a fresh project",
  'edgesim bench capture.pcap --config main.json --against pr.json --threshold 25':
    'ten measuring processes, minutes of CPU on a shared machine; test/cli/bench.test.ts runs --against and its exit 1 on a slowdown',
};

/** Files a command makes that later commands read, made beforehand for the commands that need them. */
function setUp(dir: string): void {
  for (const [name, from] of Object.entries(USER_FILES)) copyFileSync(from, path.join(dir, name));
  // the workflow's `suites/*.yaml`: a suite pinned from the demo configuration
  mkdirSync(path.join(dir, 'suites'));
  const pinned = edgesim(['pin', 'firewall.json', '--out', 'suites/rulesets.yaml'], dir);
  if (pinned.status !== 0) throw new Error(pinned.stderr);
}

interface Shown {
  /** the command as the README writes it, its comment taken off */
  command: string;
  /** the exit status the README's comment claims */
  exit: number;
  /** the index of its code block in the README */
  block: number;
}

interface Block {
  lang: string;
  body: string;
}

const BLOCKS: Block[] = [...README.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));

/** The line without its shell comment (a `#` at a word's start outside quotes), and the comment. */
function splitComment(line: string): [string, string] {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
  }
  return [line.trim(), ''];
}

/** The commands of the README's shell blocks and workflows, in order. */
function shownCommands(): Shown[] {
  const shown: Shown[] = [];
  BLOCKS.forEach((block, index) => {
    let lines: string[];
    if (block.lang === 'sh') lines = block.body.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.replace(/^\$ /, ''));
    else if (block.lang === 'yaml') lines = [...block.body.matchAll(/^\s*(?:- )?run: (.*)$/gm)].map((m) => m[1]!);
    else return;
    for (const line of lines) {
      const [command, comment] = splitComment(line);
      if (command === '') continue;
      const claim = /^exit (\d+)\b/.exec(comment);
      shown.push({ command, exit: claim === null ? 0 : Number(claim[1]), block: index });
    }
  });
  return shown;
}

const SHOWN = shownCommands();

/** Runs the built command as `edgesim ARGS` in `cwd`. */
function edgesim(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs one README line in bash in `cwd`, `edgesim` and `npx edgesim` being this checkout's built command. */
function runLine(line: string, cwd: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const script = `edgesim() { "$EDGESIM_NODE" "$EDGESIM_BIN" "$@"; }\n${line.replace(/\bnpx edgesim\b/g, 'edgesim')}`;
  const r = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, ...env, EDGESIM_NODE: process.execPath, EDGESIM_BIN: BIN }, timeout: 180_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The words of a command after `edgesim` or `npx edgesim`, or null for another program. */
function edgesimWords(command: string): string[] | null {
  const m = /^(?:npx )?edgesim (.*)$/.exec(command);
  return m === null ? null : m[1]!.split(/\s+/);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('the commands the README shows', () => {
  it('are found: the jobs each show theirs', () => {
    expect(SHOWN.length).toBeGreaterThanOrEqual(25);
    for (const sub of ['replay', 'trace', 'diff', 'pin', 'test', 'lint', 'bench', 'serve', 'import', 'export']) {
      expect(SHOWN.some((s) => edgesimWords(s.command)?.[0] === sub), sub).toBe(true);
    }
    for (const npm of ['npm install', 'npm start', 'npm test']) expect(SHOWN.map((s) => s.command), npm).toContain(npm);
  });

  it('are each run here or listed as not run, and every listed line is still in the README', () => {
    const commands = SHOWN.map((s) => s.command);
    for (const listed of Object.keys(NOT_RUN)) expect(commands, `NOT_RUN lists a line the README no longer shows: ${listed}`).toContain(listed);
    for (const s of SHOWN) {
      const known = NOT_RUN[s.command] !== undefined || edgesimWords(s.command) !== null || s.command === 'npm start' || /^export \w+=\S+$/.test(s.command);
      expect(known, `a README command this test does not know how to run: ${s.command}`).toBe(true);
    }
  });

  it('show no command outside a shell block (where it would be neither run nor listed)', () => {
    for (const block of BLOCKS.filter((b) => b.lang !== 'sh' && b.lang !== 'yaml' && b.lang !== 'ts')) {
      for (const line of block.body.split('\n')) expect(line, `a command in a \`\`\`${block.lang} block`).not.toMatch(/^\s*(\$ |npx edgesim |edgesim (?!=)|npm )/);
    }
  });

  it('not run here still name a command and flags that exist', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    for (const command of Object.keys(NOT_RUN)) {
      const npmScript = /^npm (?:run )?(\w+)$/.exec(command);
      if (npmScript !== null && npmScript[1] !== 'install' && npmScript[1] !== 'ci') expect(scripts, command).toContain(npmScript[1]);
      const words = edgesimWords(command);
      if (words === null) continue;
      const help = edgesim([words[0]!, '--help'], ROOT);
      expect(help.status, `${words[0]} --help`).toBe(0);
      for (const flag of words.filter((w) => w.startsWith('--'))) expect(help.stdout, `${command}: ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}(\\s|$)`, 'm'));
    }
  });

  describe('run, in README order, in a folder holding the user files they name', () => {
    let dir = '';
    let port = 0;
    let server: ChildProcess | undefined;
    let serverErr = '';
    const env: Record<string, string> = {};
    /** what each README code block's commands printed (stdout and stderr) */
    const printed = new Map<number, string>();

    beforeAll(async () => {
      dir = tempDir('edgesim-readme-');
      setUp(dir);
      port = await freePort();
    });

    afterAll(() => {
      if (server !== undefined && server.exitCode === null) server.kill('SIGKILL');
    });

    for (const s of SHOWN.filter((x) => NOT_RUN[x.command] === undefined)) {
      it(`${s.command}${s.exit === 0 ? '' : `  (exit ${s.exit})`}`, async () => {
        // the mock API's port the README gives, taken by whatever else runs here: a free one instead
        const command = s.command.replaceAll('8787', String(port));
        const exported = /^export (\w+)=(\S+)$/.exec(command);
        if (exported !== null) {
          env[exported[1]!] = exported[2]!;
          return;
        }
        if (edgesimWords(command)?.[0] === 'serve') {
          // runs until Ctrl-C: started here, and stopped once every other command has run
          server = spawn('bash', ['-c', `edgesim() { exec "$EDGESIM_NODE" "$EDGESIM_BIN" "$@"; }\n${command}`], {
            cwd: dir,
            env: { ...process.env, EDGESIM_NODE: process.execPath, EDGESIM_BIN: BIN },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`serve did not start: ${serverErr}`)), 60_000);
            server!.stderr!.on('data', (b: Buffer) => {
              serverErr += b.toString('utf8');
              if (serverErr.includes('listening')) {
                clearTimeout(timer);
                resolve();
              }
            });
            server!.on('exit', () => {
              clearTimeout(timer);
              reject(new Error(`serve ended: ${serverErr}`));
            });
          });
          expect(serverErr).toContain(`API listening at http://127.0.0.1:${port}/client/v4`);
          return;
        }
        expect(edgesimWords(command) !== null || command === 'npm start', `neither edgesim nor npm start, and not in NOT_RUN: ${command}`).toBe(true);
        const r = command === 'npm start' ? runLine(command, ROOT, env) : runLine(command, dir, env);
        printed.set(s.block, (printed.get(s.block) ?? '') + r.stdout + r.stderr);
        expect(r.status, `${command}\n${r.stderr}`).toBe(s.exit);
        expect(r.stderr, command).not.toMatch(/\n\s+at /);
        if (command === 'npm start') expect(r.stdout).toContain('examples/demo.pcap (pcap): 4,526 packets, 39.192 s of traffic');
      }, 240_000);
    }

    it('the mock API stops on Ctrl-C, exit 0', async () => {
      expect(server, 'the README starts `edgesim serve`').toBeDefined();
      const exited = new Promise<number | null>((resolve) => server!.on('exit', (code) => resolve(code)));
      server!.kill('SIGINT');
      expect(await exited).toBe(0);
    });

    it('print the outputs the README shows after them', () => {
      let checked = 0;
      BLOCKS.forEach((block, index) => {
        if (block.lang !== 'text') return;
        const before = [...printed.keys()].filter((k) => k < index);
        expect(before.length, `the output block ${index} follows no command run here`).toBeGreaterThan(0);
        const source = Math.max(...before);
        // bench's figures are measured: its lines are compared with every number masked
        const measured = SHOWN.some((s) => s.block === source && edgesimWords(s.command)?.[0] === 'bench');
        const norm = (line: string): string => {
          const l = line.trim().replace(/ \(\d+\.\d+s\)$/, '');
          return measured ? l.replace(/\d[\d,.]*/g, '#').replace(/\s+/g, ' ') : l;
        };
        const got = new Set(printed.get(source)!.split('\n').map(norm));
        for (const line of block.body.split('\n')) {
          if (line.trim() === '' || line.trim() === '...') continue;
          expect(got.has(norm(line)), `README output line not printed by its commands:\n${line}`).toBe(true);
          checked++;
        }
      });
      expect(checked).toBeGreaterThan(20);
    });
  });
});
