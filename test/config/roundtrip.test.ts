// Export and import against a live mock: export walks every paginated list to the end, import
// replaces what the snapshot names, and export ∘ import ∘ export is the identity up to
// server-assigned fields (ids, timestamps, versions, counts) when importing into an empty account.
// The CLI commands are driven as a user would, with failures reported on one line.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { exportSnapshot, type ApiTarget } from '../../src/config/api-client.js';
import { describeImport, importSnapshot } from '../../src/config/import.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { SnapshotError } from '../../src/config/validate.js';
import { UserError } from '../../src/errors.js';
import { call, cfg, start, tempDir, TOKEN } from '../api/helpers.js';
import { BIN } from '../helpers/cli.js';
import { withoutServerFields } from './helpers.js';

let server: RunningServer;
const target = (account: string): ApiTarget => ({ url: server.url, account, token: TOKEN });

beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

/** A port nothing listens on (fetch refuses well-known ports such as 9 outright). */
async function closedPort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}


/** An account using every resource, with more prefixes and list items than one page holds. */
async function seed(account: string): Promise<void> {
  const base = cfg(server.url, account);
  await call('PATCH', `${base}/tcp_protection_status`, { enabled: true });
  await call('POST', `${base}/prefixes/bulk`, Array.from({ length: 230 }, (_, i) => ({ prefix: `10.${i}.0.0/16`, comment: `r${i}`, excluded: i % 7 === 0 })));
  await call('POST', `${base}/prefixes`, { prefix: '2001:db8::/32', comment: 'v6', excluded: false });
  await call('POST', `${base}/allowlist`, { prefix: '203.0.113.0/26', comment: 'Partner range', enabled: true });
  await call('POST', `${base}/allowlist`, { prefix: '192.0.2.127', comment: 'host', enabled: false });
  await call('POST', `${base}/syn_protection/rules`, { scope: 'global', name: 'global', mode: 'monitoring' });
  await call('POST', `${base}/syn_protection/rules`, { scope: 'region', name: 'WEUR', mode: 'enabled', rate_sensitivity: 'high', burst_sensitivity: 'low', mitigation_type: 'retransmit' });
  await call('POST', `${base}/syn_protection/filters`, { expression: 'ip.dst in { 192.0.2.0/24 }', mode: 'monitoring' });
  await call('POST', `${base}/tcp_flow_protection/rules`, { scope: 'datacenter', name: 'lax', mode: 'disabled' });
  await call('POST', `${base}/tcp_flow_protection/filters`, { expression: 'ip.dst in { 203.0.113.0/24 } and tcp.dstport in { 8000..8081 }', mode: 'disabled' });
  const lists = `${server.url}/accounts/${account}/rules/lists`;
  const list = (await call('POST', lists, { name: 'office', kind: 'ip', description: 'office ranges' })).body.result;
  await call('POST', `${lists}/${list.id}/items`, Array.from({ length: 1200 }, (_, i) => ({ ip: `172.16.${i >> 8}.${i & 255}`, comment: i === 0 ? 'first' : undefined })));
  await call('POST', lists, { name: 'empty_list', kind: 'ip' });
  await call('POST', `${server.url}/accounts/${account}/rulesets`, {
    name: 'Example ruleset', kind: 'root', phase: 'edge_transit', description: 'Example ruleset description',
    rules: [
      { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'ip.src in $office', description: 'office', ref: 'office-allow' },
      { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 8080 } ', description: 'Allow port 8080' },
      { action: 'block', expression: 'ip.geoip.country == "BR"', enabled: false },
      { action: 'block', expression: 'tcp.dstport in { 1..65535 }', description: 'Block all TCP ports' },
    ],
  });
}

describe('export', () => {
  it('reads every resource and walks every page', async () => {
    await seed('source');
    const s = await exportSnapshot(target('source'));
    expect(s.tcp_protection_status).toEqual({ enabled: true });
    expect(s.prefixes).toHaveLength(231);
    expect(s.allowlist).toHaveLength(2);
    expect(s.syn_protection?.rules).toHaveLength(2);
    expect(s.tcp_flow_protection?.filters).toHaveLength(1);
    expect(s.rulesets?.[0].rules?.map((r) => r.ref)).toEqual(['office-allow', ...(s.rulesets?.[0].rules?.slice(1).map((r) => r.id) ?? [])]);
    expect(s.lists?.map((l) => [l.name, l.items?.length])).toEqual([['office', 1200], ['empty_list', 0]]);
  });

  it('a server that ignores ?page is detected instead of looping forever', async () => {
    const stuck = createHttpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: _req.url?.includes('tcp_protection_status') ? { enabled: false } : [{ id: 'same' }], success: true, errors: [], messages: [] }));
    });
    await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
    const port = (stuck.address() as { port: number }).port;
    const err = await exportSnapshot({ url: `http://127.0.0.1:${port}/client/v4`, account: 'a', token: 't' }).catch((e: Error) => e);
    stuck.close();
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/prefixes: page 2 repeats page 1; the server ignores pagination$/);
  });

  /**
   * A server whose every list is empty but the rulesets' and the prefixes': `rulesets(n)` and
   * `prefixes(page)` answer page n (from 1). Counts the requests made to each path.
   */
  async function endless(rulesets: (n: number) => { result: unknown[]; cursor?: string }, prefixes: (page: number) => unknown[] = () => []) {
    const requests = new Map<string, number>();
    const fake = createHttpServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      requests.set(u.pathname, (requests.get(u.pathname) ?? 0) + 1);
      res.setHeader('content-type', 'application/json');
      const ok = (result: unknown, result_info?: unknown) => res.end(JSON.stringify({ result, result_info, success: true, errors: [], messages: [] }));
      if (u.pathname.endsWith('tcp_protection_status')) return ok({ enabled: false });
      if (u.pathname.endsWith('/rulesets')) {
        const n = Number(u.searchParams.get('cursor')?.slice(1) ?? '1');
        const page = rulesets(n);
        return ok(page.result, page.cursor === undefined ? {} : { cursor: page.cursor });
      }
      if (u.pathname.endsWith('/prefixes')) return ok(prefixes(Number(u.searchParams.get('page'))));
      return ok([]);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(fake.address() as { port: number }).port}/client/v4`;
    return { url, requests: (suffix: string) => [...requests].filter(([p]) => p.endsWith(suffix)).reduce((a, [, c]) => a + c, 0), close: () => new Promise((resolve) => fake.close(resolve)) };
  }

  /** `edgesim export` against `url`, as a user runs it. */
  const exportCli = (url: string): Promise<{ status: number | null; stdout: string; stderr: string }> => new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'export', '--api', url, '--account', 'a', '--token', 't'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

  it('a server that answers empty pages with new cursors without end: the list ends at the first empty page', async () => {
    const fake = await endless((n) => ({ result: [], cursor: `c${n + 1}` }));
    const r = await exportCli(fake.url);
    await fake.close();
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(r.stdout).rulesets).toEqual([]);
    expect(fake.requests('/rulesets')).toBe(1);
  });

  it('a server that answers new pages without end is stopped at 1,000 pages with one line; a repeated cursor too', async () => {
    const rulesetPages = await endless((n) => ({ result: [{ id: `r${n}`, name: `r${n}`, kind: 'custom', phase: 'magic_transit' }], cursor: `c${n + 1}` }));
    const r = await exportCli(rulesetPages.url);
    await rulesetPages.close();
    expect(r).toEqual({ status: 1, stdout: '', stderr: `edgesim: GET ${rulesetPages.url}/accounts/a/rulesets: stopped after 1,000 pages, as the server keeps answering with more; the list was not read to its end\n` });
    expect(rulesetPages.requests('/rulesets')).toBe(1000);

    const prefixPages = await endless(() => ({ result: [] }), (page) => [{ id: `p${page}`, prefix: `10.${page % 256}.${page >> 8}.0/24` }]);
    const err = await exportSnapshot({ url: prefixPages.url, account: 'a', token: 't' }).catch((e: Error) => e);
    await prefixPages.close();
    expect((err as Error).message).toBe(`GET ${prefixPages.url}/accounts/a/magic/advanced_tcp_protection/configs/prefixes: stopped after 1,000 pages, as the server keeps answering with more; the list was not read to its end`);

    const repeated = await endless((n) => ({ result: [{ id: `r${n}`, name: `r${n}`, kind: 'custom', phase: 'magic_transit' }], cursor: n < 3 ? `c${n + 1}` : 'c2' }));
    const again = await exportSnapshot({ url: repeated.url, account: 'a', token: 't' }).catch((e: Error) => e);
    await repeated.close();
    expect((again as Error).message).toBe(`GET ${repeated.url}/accounts/a/rulesets: the server returned cursor "c2" twice; the list was not read to its end`);
  });

  it('an unreachable API and an HTTP error are one-line errors naming the URL', async () => {
    const port = await closedPort();
    const unreachable = await exportSnapshot({ url: `http://127.0.0.1:${port}/client/v4`, account: 'a', token: 't' }).catch((e: Error) => e);
    expect((unreachable as Error).message).toBe(`cannot reach the API at http://127.0.0.1:${port}/client/v4/accounts/a/magic/advanced_tcp_protection/configs/tcp_protection_status: connection refused (is the server running?)`);
    const unauthorised = await exportSnapshot({ url: server.url, account: 'a' }).catch((e: Error) => e);
    expect(unauthorised).toBeInstanceOf(UserError);
    expect((unauthorised as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/client\/v4\/accounts\/a\/magic\/advanced_tcp_protection\/configs\/tcp_protection_status: HTTP 401: missing credentials/);
  });
});

describe('ports', () => {
  it('reaches our server on a port fetch refuses (6000, X11; or another of its blocked list)', async () => {
    let blocked: RunningServer | undefined;
    for (const port of [6000, 6665, 6666, 6667, 6668, 6669, 10080, 6697]) {
      blocked = await start({ port }).catch(() => undefined);
      if (blocked) break;
    }
    if (!blocked) throw new Error('every candidate port is taken');
    await expect(fetch(`${blocked.url}/filters/validate-expr?expression=tcp.dstport%3D%3D1`)).rejects.toThrow();
    const s = await exportSnapshot({ url: blocked.url, account: 'blocked', token: TOKEN });
    expect(s.tcp_protection_status).toEqual({ enabled: false });
    await blocked.close();
  });
});

describe('import', () => {
  it('export ∘ import ∘ export is the identity up to server-assigned fields', async () => {
    const first = await exportSnapshot(target('source'));
    await importSnapshot(first, target('copy'));
    const second = await exportSnapshot(target('copy'));
    expect(withoutServerFields(second)).toEqual(withoutServerFields(first));
    await importSnapshot(second, target('copy2'));
    expect(withoutServerFields(await exportSnapshot(target('copy2')))).toEqual(withoutServerFields(second));
    // the ids really are new: the comparison is not vacuous
    expect(second.prefixes?.[0].id).not.toBe(first.prefixes?.[0].id);
  });

  it('replaces each resource the snapshot names and leaves the others alone', async () => {
    await seed('replace');
    const summary = await importSnapshot({
      prefixes: [{ prefix: '198.51.100.0/24' }],
      syn_protection: { filters: [] },
      rulesets: [{ name: 'new', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'udp.dstport == 53' }] }],
    }, target('replace'));
    expect(summary).toEqual({
      replaced: [{ key: 'prefixes', count: 1 }, { key: 'syn_protection.filters', count: 0 }, { key: 'rulesets', count: 1 }],
      left: ['tcp_protection_status', 'allowlist', 'syn_protection.rules', 'tcp_flow_protection.rules', 'tcp_flow_protection.filters', 'lists'],
    });
    expect(describeImport(summary)).toBe('replaced: 1 prefix, 0 SYN flood filters, 1 ruleset; left as they were: protection status, allowlist entries, SYN flood rules, out-of-state TCP rules, out-of-state TCP filters, lists');
    const s = await exportSnapshot(target('replace'));
    expect(s.prefixes?.map((p) => p.prefix)).toEqual(['198.51.100.0/24']);
    expect(s.syn_protection?.filters).toEqual([]);
    expect(s.syn_protection?.rules).toHaveLength(2); // not named: untouched
    expect(s.allowlist).toHaveLength(2);
    expect(s.lists?.map((l) => l.name)).toEqual(['office', 'empty_list']);
    expect(s.rulesets?.map((r) => r.name)).toEqual(['new']);
  });

  it('a snapshot of only {"rulesets": []} says it replaced the rulesets and left everything else', async () => {
    await seed('only-rulesets');
    const summary = await importSnapshot({ rulesets: [] }, target('only-rulesets'));
    expect(describeImport(summary)).toBe('replaced: 0 rulesets; left as they were: protection status, prefixes, allowlist entries, SYN flood rules, SYN flood filters, out-of-state TCP rules, out-of-state TCP filters, lists');
    const s = await exportSnapshot(target('only-rulesets'));
    expect(s.rulesets).toEqual([]);
    expect(s.prefixes?.length).toBeGreaterThan(0);
  });

  it('an invalid snapshot is refused before any request', async () => {
    await call('POST', `${cfg(server.url, 'untouched')}/prefixes`, { prefix: '10.0.0.0/8' });
    const err = await importSnapshot({ prefixes: [], allowlist: [{ prefix: '10.0.0.1/8' }] } as Snapshot, target('untouched')).catch((e: Error) => e);
    expect(err).toBeInstanceOf(SnapshotError);
    expect((await call('GET', `${cfg(server.url, 'untouched')}/prefixes`)).body.result).toHaveLength(1);
  });
});

function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('edgesim export / import', () => {
  it('export to a file, import into another account, export again: same configuration', async () => {
    const dir = tempDir('edgesim-cli-');
    const file = path.join(dir, 'snap.json');
    const exported = await runCliAsync(['export', '--api', server.url, '--account', 'source', '--token', TOKEN, '--out', file]);
    expect(exported).toMatchObject({ status: 0, stdout: '', stderr: '' });
    // the vendor's spelling, so the file can go to the vendor's API unchanged (and the loader reads it)
    expect(JSON.parse(readFileSync(file, 'utf8')).rulesets.map((r: { phase: string }) => r.phase)).toEqual(['magic_transit']);
    const imported = await runCliAsync(['import', file, '--api', server.url, '--account', 'cli-copy'], { EDGESIM_API_TOKEN: TOKEN });
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toBe(`imported ${file} into account cli-copy: replaced: protection on, 231 prefixes, 2 allowlist entries, 2 SYN flood rules, 1 SYN flood filter, 1 out-of-state TCP rule, 1 out-of-state TCP filter, 1 ruleset, 2 lists (1,200 items)\n`);
    const again = await runCliAsync(['export', '--api', server.url, '--account', 'cli-copy', '--token', TOKEN]);
    expect(again.status).toBe(0);
    expect(withoutServerFields(JSON.parse(again.stdout))).toEqual(withoutServerFields(JSON.parse(readFileSync(file, 'utf8'))));
  });

  it('import of a broken file names the file and the path, exit 1, nothing sent', async () => {
    const file = path.join(tempDir('edgesim-cli-'), 'broken.json');
    writeFileSync(file, JSON.stringify({ syn_protection: { filters: [{ expression: 'ip.proto == "tcp"', mode: 'enabled' }] } }));
    const r = await runCliAsync(['import', file, '--api', 'http://127.0.0.1:9/client/v4', '--account', 'x', '--token', 't']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`edgesim: ${file}: syn_protection.filters[0].expression: Filter parsing error (1:1):\nip.proto == "tcp"\n^^^^^^^^ unknown identifier\n`);
  });

  it('an unreachable API is a one-line error with exit 1', async () => {
    const port = await closedPort();
    const r = await runCliAsync(['export', '--api', `http://127.0.0.1:${port}/client/v4`, '--account', 'x', '--token', 't']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`edgesim: cannot reach the API at http://127.0.0.1:${port}/client/v4/accounts/x/magic/advanced_tcp_protection/configs/tcp_protection_status: connection refused (is the server running?)\n`);
  });

  it('usage mistakes exit 2', async () => {
    const r = await runCliAsync(['export', '--api', 'localhost:8787', '--account', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('edgesim: --api: "localhost:8787" is not an http(s) URL\n');
  });
});
