// The mock API under concurrent load: requests per second for reads and for writes, with 50
// clients on loopback, the server in its own process (as `edgesim serve` runs), once in memory and
// once persisting to a data directory (where every acknowledged write is fsynced; concurrent writes
// share one file write: group commit). Counts are fixed, so the suite's time is bounded. A bare
// fastify server answering a constant envelope, loaded the same way in the same run, is the peer:
// it shows what the load generator and loopback allow on this machine at this moment. Last, a
// 100,000-item list: how long a one-item add to it takes next to a write to a small account (the
// items log makes it an append, not a rewrite of every item), and how long another account waits
// while the 100,000 items are uploaded.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = 50;
const READS = 6000;
const WRITES = 2000;
const HEADERS = { authorization: 'Bearer bench', 'content-type': 'application/json' };

const BARE_FASTIFY = `const { default: Fastify } = await import('fastify');
const app = Fastify();
app.get('/client/v4/*', async () => ({ result: [], success: true, errors: [], messages: [] }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('http://127.0.0.1:' + app.server.address().port + '/client/v4');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));`;

function apiScript(data: string | undefined): string {
  const server = pathToFileUrl(path.join(ROOT, 'src/api/server.ts'));
  return `const { createServer } = await import(${JSON.stringify(server)});
const s = await createServer({ port: 0${data ? `, data: ${JSON.stringify(data)}` : ''} });
console.log(s.url);
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));`;
}

async function startServer(script: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`API server exited with ${code}`)));
  });
  return { url, child };
}

function pathToFileUrl(p: string): string {
  return new URL(`file://${p}`).href;
}

/** Runs `total` requests from CLIENTS concurrent workers; returns requests per second. */
async function load(total: number, request: (i: number) => Promise<Response>): Promise<number> {
  let next = 0;
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const r = await request(next++);
      await r.arrayBuffer();
      if (!r.ok) failures++;
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (failures > 0) throw new Error(`${failures} of ${total} requests failed`);
  return total / seconds;
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function peer(): Promise<BenchRow> {
  const { url, child } = await startServer(BARE_FASTIFY);
  try {
    await load(500, () => fetch(`${url}/warm`, { headers: HEADERS }));
    const value = await load(READS, () => fetch(`${url}/accounts/bench/x`, { headers: HEADERS }));
    return { suite: 'api', name: 'peer: bare fastify, constant envelope', value, unit: 'req/s', note: `${READS} requests, same load generator: the ceiling here` };
  } finally {
    await stop(child);
  }
}

async function measure(label: string, data: string | undefined): Promise<BenchRow[]> {
  const { url, child } = await startServer(apiScript(data));
  try {
    const cfg = `${url}/accounts/bench/edge/advanced_tcp_protection/configs`;
    const seed = Array.from({ length: 200 }, (_, i) => ({ prefix: `10.${i}.0.0/16`, comment: `range ${i}`, excluded: false }));
    await fetch(`${cfg}/prefixes/bulk`, { method: 'POST', headers: HEADERS, body: JSON.stringify(seed) });
    await load(500, () => fetch(`${cfg}/tcp_protection_status`, { headers: HEADERS })); // warm-up
    const reads = await load(READS, () => fetch(`${cfg}/prefixes?per_page=20`, { headers: HEADERS }));
    const writes = await load(WRITES, (i) => fetch(`${cfg}/allowlist`, {
      method: 'POST', headers: HEADERS, body: JSON.stringify({ prefix: `198.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, comment: 'bench', enabled: true }),
    }));
    const note = `${CLIENTS} concurrent clients, loopback, server in its own process`;
    return [
      { suite: 'api', name: `reads (GET prefixes page of 20), ${label}`, value: reads, unit: 'req/s', note: `${READS} requests, ${note}` },
      { suite: 'api', name: `writes (POST allowlist entry), ${label}`, value: writes, unit: 'req/s', note: `${WRITES} requests, ${note}${data ? '; each acknowledged write fsynced' : ''}` },
    ];
  } finally {
    await stop(child);
  }
}

/** Mean milliseconds of `n` sequential requests. */
async function meanMs(n: number, request: (i: number) => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await request(i)).arrayBuffer();
  return (performance.now() - t0) / n;
}

async function bigList(data: string): Promise<BenchRow[]> {
  const { url, child } = await startServer(apiScript(data));
  try {
    const status = `${url}/accounts/small/edge/advanced_tcp_protection/configs/tcp_protection_status`;
    const lists = `${url}/accounts/big/rules/lists`;
    const list = ((await (await fetch(lists, { method: 'POST', headers: HEADERS, body: '{"name":"big","kind":"ip"}' })).json()) as { result: { id: string } }).result.id;
    const items = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, comment: `item ${i}` })));
    let waiting = true;
    let longest = 0;
    const prober = (async () => {
      while (waiting) {
        const t0 = performance.now();
        await (await fetch(status, { headers: HEADERS })).arrayBuffer();
        longest = Math.max(longest, performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const upload = await fetch(`${lists}/${list}/items`, { method: 'POST', headers: HEADERS, body: items });
    waiting = false;
    await prober;
    if (!upload.ok) throw new Error(`the 100,000-item upload failed: HTTP ${upload.status}`);
    const N = 50;
    const small = await meanMs(N, (i) => fetch(status, { method: 'PATCH', headers: HEADERS, body: `{"enabled":${i % 2 === 0}}` }));
    const add = await meanMs(N, (i) => fetch(`${lists}/${list}/items`, { method: 'POST', headers: HEADERS, body: `[{"ip":"192.0.2.${i}"}]` }));
    return [
      { suite: 'api', name: 'one-item add to a 100,000-item list / a write to a small account, with --data', value: add / small, unit: 'ratio', note: `${add.toFixed(1)} ms vs ${small.toFixed(1)} ms, ${N} sequential requests each` },
      { suite: 'api', name: 'longest wait of another account during a 100,000-item upload', value: longest, unit: 'ms', note: 'a GET every 5 ms from another account while the items are validated and stored' },
    ];
  } finally {
    await stop(child);
  }
}

export const suite: BenchSuite = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-bench-api-'));
  const big = mkdtempSync(path.join(tmpdir(), 'edgesim-bench-api-'));
  try {
    return [await peer(), ...await measure('in memory', undefined), ...await measure('with --data', dir), ...await bigList(big)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(big, { recursive: true, force: true });
  }
};
