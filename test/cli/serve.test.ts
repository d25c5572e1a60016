// `edgesim serve` as a user starts it: it says on start-up who may use the API (open mode by
// default), takes a credentials file (a bad one is one line naming the file and the JSON path), a
// rule limit, and refuses an unusable data folder with one line instead of spinning, or a data
// folder another serve holds (a killed one's lock is taken over).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { call, cfg, tempDir } from '../api/helpers.js';
import { BIN, runCliAsync } from '../helpers/cli.js';

interface Served {
  child: ChildProcess;
  url: string;
  notes: string[];
}

/** Starts serve (in memory unless `args` give --data); resolves with the URL (stdout) and the two start-up notes (stderr). */
function serve(args: string[]): Promise<Served> {
  const storage = args.includes('--data') ? [] : ['--in-memory'];
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...storage, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const notes: string[] = [];
    let url: string | undefined;
    const done = (): void => {
      if (url !== undefined && notes.length === 2) resolve({ child, url, notes });
    };
    createInterface({ input: child.stdout! }).once('line', (line) => { url = line; done(); });
    createInterface({ input: child.stderr! }).on('line', (line) => { notes.push(line); done(); });
    child.once('exit', (code) => reject(new Error(`edgesim serve exited with ${code}: ${notes.join('\n')}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('edgesim serve', () => {
  it('says on start-up that it is in open mode, and is', async () => {
    const { child, url, notes } = await serve([]);
    expect(notes[1]).toBe('edgesim: open mode: any well-formed credentials may read and write every account (--credentials FILE restricts them)');
    expect((await call('PATCH', `${cfg(url, 'anyone')}/tcp_protection_status`, { enabled: true }, { authorization: 'Bearer whatever' })).status).toBe(200);
    await stop(child);
  });

  it('--credentials limits each token to its accounts; --max-rules sets the rule limit', async () => {
    const file = path.join(tempDir(), 'credentials.json');
    writeFileSync(file, JSON.stringify({ tokens: [{ token: 'ops', accounts: { mine: 'write' } }] }));
    const { child, url, notes } = await serve(['--credentials', file, '--max-rules', '2']);
    expect(notes[1]).toBe(`edgesim: credentials from ${file}: 1 token(s), 0 key(s), each limited to its accounts`);
    const ops = { authorization: 'Bearer ops' };
    expect((await call('GET', `${cfg(url, 'mine')}/prefixes`, undefined, ops)).status).toBe(200);
    const other = await call('GET', `${cfg(url, 'theirs')}/prefixes`, undefined, ops);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ result: null, success: false, messages: [] });
    expect(other.body.errors[0].message).toBe('these credentials may not read account "theirs"');
    for (const builtIn of ['constructor', '__proto__', 'toString']) {
      expect([builtIn, (await call('PATCH', `${cfg(url, builtIn)}/tcp_protection_status`, { enabled: true }, ops)).status]).toEqual([builtIn, 403]);
    }
    const rules = Array.from({ length: 3 }, (_, i) => ({ action: 'block', expression: `tcp.dstport == ${i + 1}` }));
    const r = await call('PUT', `${url}/accounts/mine/rulesets/phases/edge_transit/entrypoint`, { rules }, ops);
    expect(r.body.errors[0].message).toBe('rules: must have at most 2 items (got 3)');
    await stop(child);
  });

  it('a bad credentials file is one line naming the file and the path, exit 1', async () => {
    const file = path.join(tempDir(), 'credentials.json');
    writeFileSync(file, JSON.stringify({ tokens: [{ token: 'ops', accounts: { mine: 'admin' } }] }));
    const r = await runCliAsync(['serve', '--port', '0', '--in-memory', '--credentials', file]);
    expect(r).toMatchObject({ status: 1, stdout: '' });
    expect(r.stderr).toBe(`edgesim: ${file}: tokens[0].accounts.mine: must be "read" or "write" (got "admin")\n`);
  });

  it('--credentials with --token is a usage error; so is a bad --max-rules', async () => {
    expect(await runCliAsync(['serve', '--credentials', 'x.json', '--token', 't'])).toMatchObject({ status: 2, stderr: 'edgesim: give either --credentials FILE or --token/--key, not both\n' });
    expect(await runCliAsync(['serve', '--max-rules', '0'])).toMatchObject({ status: 2, stderr: 'edgesim: --max-rules: "0" is not a whole number from 1 to 100000\n' });
  });

  it('a second serve on one data folder is refused with one line naming it and the holder\'s pid; a killed holder\'s lock is taken over', async () => {
    const data = tempDir();
    const first = await serve(['--data', data]);
    const status = `${cfg(first.url, 'acct')}/tcp_protection_status`;
    expect((await call('PATCH', status, { enabled: true })).status).toBe(200);
    const second = await runCliAsync(['serve', '--port', '0', '--data', data]);
    expect(second).toMatchObject({ status: 1, stdout: '' });
    expect(second.stderr).toBe(
      `edgesim: ${data}: in use by another edgesim serve (pid ${first.child.pid}); stop it or give another --data directory (if no such server runs, remove ${path.join(data, 'serve.lock')})\n`,
    );
    expect((await call('GET', status)).body.result).toEqual({ enabled: true });

    const killed = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await killed;
    expect(existsSync(path.join(data, 'serve.lock'))).toBe(true);
    const third = await serve(['--data', data]);
    expect((await call('GET', `${cfg(third.url, 'acct')}/tcp_protection_status`)).body.result).toEqual({ enabled: true });
    await stop(third.child);
    expect(existsSync(path.join(data, 'serve.lock'))).toBe(false);
  });

  it('a killed holder its parent has not reaped (a zombie, which kill(pid, 0) still finds) does not keep the lock', async () => {
    const data = tempDir();
    // the serve's parent becomes `sleep`, which never waits for a child: once killed, the serve stays a zombie while sleep runs
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" serve --port 0 --data "${data}" 2>/dev/null & exec sleep 600`], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const first = await new Promise<string>((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
      expect((await call('PATCH', `${cfg(first, 'acct')}/tcp_protection_status`, { enabled: true })).status).toBe(200);
      const pid = Number(readFileSync(path.join(data, 'serve.lock'), 'utf8'));
      process.kill(pid, 'SIGKILL');
      const state = (): string => { const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); return stat.slice(stat.lastIndexOf(')') + 2)[0]; };
      for (let i = 0; i < 100 && state() !== 'Z'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(state()).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow(); // what the lock's check relied on alone
      const second = await serve(['--data', data]);
      expect((await call('GET', `${cfg(second.url, 'acct')}/tcp_protection_status`)).body.result).toEqual({ enabled: true });
      await stop(second.child);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('a data folder that cannot be created (/proc/nope) is one line, not a spin', async () => {
    const r = await runCliAsync(['serve', '--port', '0', '--data', '/proc/nope']);
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: 'edgesim: /proc/nope: the directory cannot be created or written: no such file\n' });
  });
});
