// Durability: state survives a clean restart and a crash (SIGKILL of the real `edgesim serve`
// process right after acknowledged writes), concurrent writers lose nothing, --in-memory keeps
// nothing, and a damaged state file is reported rather than silently replaced.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/api/directory-lock.js';
import { AccountStore } from '../../src/api/store.js';
import { ConfigItemError, UserError } from '../../src/errors.js';
import { BIN } from '../helpers/cli.js';
import { call, cfg, start, tempDir } from './helpers.js';

function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (url) => resolve({ child, url }));
    child.once('exit', (code) => reject(new Error(`edgesim serve exited with ${code}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('persistence', () => {
  it('50 parallel creates all survive a restart', async () => {
    const data = tempDir();
    const first = await start({ data });
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      call('POST', `${cfg(first.url, 'acct')}/allowlist`, { prefix: `198.51.100.${i}`, comment: `entry ${i}`, enabled: i % 2 === 0 })));
    expect(created.map((r) => r.status)).toEqual(Array(50).fill(200));
    await first.close();

    const second = await start({ data });
    const listed = await call('GET', `${cfg(second.url, 'acct')}/allowlist?per_page=100`);
    expect(listed.body.result).toHaveLength(50);
    expect(new Set(listed.body.result.map((e: { prefix: string }) => e.prefix))).toEqual(new Set(created.map((r) => r.body.result.prefix)));
    await second.close();
    expect(readdirSync(data)).toEqual(['acct.json']); // one file per account, no temporary files left
  });

  it('acknowledged writes survive a crash (SIGKILL) of edgesim serve', async () => {
    const data = tempDir();
    const { child, url } = await serve(['--data', data]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    const base = cfg(url, 'crash');
    await call('PATCH', `${base}/tcp_protection_status`, { enabled: true });
    const writes = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      call('POST', `${base}/syn_protection/filters`, { expression: `tcp.dstport == ${1000 + i}`, mode: 'monitoring' })));
    expect(writes.every((w) => w.status === 200)).toBe(true);
    const rs = await call('POST', `${url}/accounts/crash/rulesets`, { name: 'r', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'udp.dstport == 53' }] });
    child.kill('SIGKILL');
    expect((await exited(child)).signal).toBe('SIGKILL');

    const again = await serve(['--data', data]);
    const filters = await call('GET', `${cfg(again.url, 'crash')}/syn_protection/filters?per_page=100`);
    expect(filters.body.result.map((f: { id: string }) => f.id).sort()).toEqual(writes.map((w) => w.body.result.id).sort());
    expect((await call('GET', `${cfg(again.url, 'crash')}/tcp_protection_status`)).body.result).toEqual({ enabled: true });
    expect((await call('GET', `${again.url}/accounts/crash/rulesets/${rs.body.result.id}`)).body.result).toEqual(rs.body.result);
    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toEqual({ code: 0, signal: null });
  });

  it('--in-memory writes nothing and forgets on restart', async () => {
    const cwd = tempDir();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--in-memory'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    expect((await call('POST', `${cfg(url, 'mem')}/prefixes`, { prefix: '10.0.0.0/8' })).status).toBe(200);
    child.kill('SIGINT');
    expect((await exited(child)).code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);

    const mem = await start();
    expect((await call('GET', `${cfg(mem.url, 'mem')}/prefixes`)).body.result).toEqual([]);
    await mem.close();
  });

  it('a damaged state file stops the start-up with one line naming the file', async () => {
    const data = tempDir();
    writeFileSync(path.join(data, 'broken.json'), '{"format": "edgesim-account-state", "state": ');
    const err = await start({ data }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toMatch(new RegExp(`^${path.join(data, 'broken.json')}: not an edgesim account state file: invalid JSON[^\n]*$`));
  });

  it('a state file with wrong types is refused on load, naming the file and the JSON path', async () => {
    const data = tempDir();
    const state = { prefixes: [{ prefix: 5 }], tcp_protection_status: { enabled: 'yes' } };
    writeFileSync(path.join(data, 'typed.json'), JSON.stringify({ format: 'edgesim-account-state', version: 1, account: 'typed', state }));
    const err = await start({ data }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigItemError);
    expect((err as UserError).message).toBe(`${path.join(data, 'typed.json')}: state.prefixes[0].prefix: must be a string (got integer) (and 1 more problem)`);
  });

  it('temporary files left by a crash are removed on start; reads of unknown accounts keep nothing', async () => {
    const data = tempDir();
    const first = await start({ data });
    await call('PATCH', `${cfg(first.url, 'kept')}/tcp_protection_status`, { enabled: true });
    await first.close();
    writeFileSync(path.join(data, '.kept.json.4242.7.tmp'), '{"format": "edgesim-acc');
    const second = await start({ data });
    expect(readdirSync(data).sort()).toEqual(['kept.json', LOCK_FILE]);
    expect((await call('GET', `${cfg(second.url, 'kept')}/tcp_protection_status`)).body.result).toEqual({ enabled: true });
    for (let i = 0; i < 50; i++) expect((await call('GET', `${cfg(second.url, `unknown${i}`)}/prefixes`)).status).toBe(200);
    await second.close();
    expect(readdirSync(data)).toEqual(['kept.json']); // reads do not write
  });

  it('an account that was only read is not kept in memory', async () => {
    const store = await AccountStore.open(undefined);
    for (let i = 0; i < 1000; i++) expect(await store.read(`id${i}`, (s) => s.prefixes.length)).toBe(0);
    expect(store.size).toBe(0);
    await expect(store.write('refused', () => {
      throw new Error('refused before any change');
    })).rejects.toThrow('refused before any change');
    expect(store.size).toBe(0);
    await store.write('written', (s) => s.prefixes.push({ prefix: '10.0.0.0/8', comment: '', excluded: false }));
    expect(store.size).toBe(1);
    expect(await store.read('written', (s) => s.prefixes.length)).toBe(1);
  });

  it('a data folder that cannot be created is a one-line error, not a spin (/proc/nope)', async () => {
    const err = await AccountStore.open('/proc/nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe('/proc/nope: the directory cannot be created or written: no such file');
  });

  it('serve refuses a --data path that is not a usable directory', async () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', path.join(file, 'sub')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => { stderr += d; });
    expect((await exited(child)).code).toBe(1);
    expect(stderr).toBe(`edgesim: ${path.join(file, 'sub')}: the directory cannot be created or written: a part of the path is not a directory\n`);
  });

  it('serve refuses a port in use with a one-line error', async () => {
    const taken = await start();
    const port = new URL(taken.url).port;
    const child = spawn(process.execPath, [BIN, 'serve', '--port', port, '--in-memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => { stderr += d; });
    expect((await exited(child)).code).toBe(1);
    expect(stderr).toBe(`edgesim: cannot listen on 127.0.0.1:${port}: the address is already in use\n`);
    await taken.close();
  });
});

describe('one server per data folder', () => {
  it('a second store on a folder in use is refused, naming the folder and the holder; once closed, the folder opens again', async () => {
    const data = tempDir();
    const first = await AccountStore.open(data);
    expect(readFileSync(path.join(data, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    const err = await AccountStore.open(data).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toMatch(new RegExp(`^${data}: in use by another edgesim serve \\(pid ${process.pid}\\); `));
    await first.close();
    expect(existsSync(path.join(data, LOCK_FILE))).toBe(false);
    await (await AccountStore.open(data)).close();
  });

  it('a lock whose pid no longer runs, or that holds no pid, is taken over', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    for (const content of [`${gone.stdout}\n`, '', 'garbage']) {
      const data = tempDir();
      writeFileSync(path.join(data, LOCK_FILE), content);
      const store = await AccountStore.open(data);
      expect(readFileSync(path.join(data, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
      await store.close();
    }
  });

  it('a start-up that fails on a damaged file leaves the folder unlocked', async () => {
    const data = tempDir();
    writeFileSync(path.join(data, 'broken.json'), '{');
    await expect(AccountStore.open(data)).rejects.toBeInstanceOf(UserError);
    expect(existsSync(path.join(data, LOCK_FILE))).toBe(false);
  });
});
