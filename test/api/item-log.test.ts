// The items of IP lists live in an append-only log beside the account file: a one-item add appends
// a line instead of rewriting every item; a restart (clean or after SIGKILL) replays the log to the
// same items; a torn last line is dropped, a damaged line is named; the log is compacted once it
// holds more than twice the live items; a version-1 file (items inside) still loads.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigItemError } from '../../src/errors.js';
import { BIN } from '../helpers/cli.js';
import { call, start, tempDir } from './helpers.js';

const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ ip: `10.${((from + i) >> 16) & 255}.${((from + i) >> 8) & 255}.${(from + i) & 255}`, comment: `item ${from + i}` }));

async function allItems(url: string, account: string, list: string): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  do {
    const r = await call('GET', `${url}/accounts/${account}/rules/lists/${list}/items?per_page=1000${cursor ? `&cursor=${cursor}` : ''}`);
    out.push(...r.body.result);
    cursor = r.body.result_info.cursors.after;
  } while (cursor);
  return out;
}

async function newList(url: string, account: string, name = 'l'): Promise<string> {
  return (await call('POST', `${url}/accounts/${account}/rules/lists`, { name, kind: 'ip' })).body.result.id;
}

describe('the list-items log', () => {
  it('a one-item add appends a short line; the account file holds no items; a restart gives the same items', async () => {
    const data = tempDir();
    const server = await start({ data });
    const list = await newList(server.url, 'acct');
    expect((await call('POST', `${server.url}/accounts/acct/rules/lists/${list}/items`, items(2000))).status).toBe(200);
    const log = path.join(data, 'acct.items.ndjson');
    const before = statSync(log).size;
    expect((await call('POST', `${server.url}/accounts/acct/rules/lists/${list}/items`, [{ ip: '192.0.2.1', comment: 'one more' }])).status).toBe(200);
    expect(statSync(log).size - before).toBeLessThan(400);
    expect(statSync(path.join(data, 'acct.json')).size).toBeLessThan(2000);
    const expected = await allItems(server.url, 'acct', list);
    expect(expected).toHaveLength(2001);
    await server.close();
    const again = await start({ data });
    expect(await allItems(again.url, 'acct', list)).toEqual(expected);
    await again.close();
  });

  it('any sequence of adds, replaces and deletes reads the same after a restart', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), from: fc.integer({ min: 0, max: 40 }), n: fc.integer({ min: 1, max: 10 }), tag: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant('put' as const), from: fc.integer({ min: 0, max: 40 }), n: fc.integer({ min: 0, max: 10 }), tag: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.integer({ min: 0, max: 1000 }) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      const data = tempDir();
      const server = await start({ data });
      const list = await newList(server.url, 'p');
      const url = `${server.url}/accounts/p/rules/lists/${list}/items`;
      for (const o of ops) {
        if (o.kind === 'delete') {
          const current = (await allItems(server.url, 'p', list)) as Array<{ id: string }>;
          if (current.length > 0) await call('DELETE', url, { items: [{ id: current[o.pick % current.length].id }] });
        } else {
          await call(o.kind === 'add' ? 'POST' : 'PUT', url, items(o.n, o.from).map((i) => ({ ...i, comment: `${i.comment}${o.tag}` })));
        }
      }
      const expected = await allItems(server.url, 'p', list);
      await server.close();
      const again = await start({ data });
      expect(await allItems(again.url, 'p', list)).toEqual(expected);
      await again.close();
    }), { numRuns: 15 });
  });

  it('a torn last line (a crash mid-append) is dropped; a damaged line before it is named', async () => {
    const data = tempDir();
    const server = await start({ data });
    const list = await newList(server.url, 'torn');
    await call('POST', `${server.url}/accounts/torn/rules/lists/${list}/items`, items(3));
    await server.close();
    const log = path.join(data, 'torn.items.ndjson');
    appendFileSync(log, `{"list":"${list}","op":"add","items":[{"ip":"10.9.9.9"`);
    const again = await start({ data });
    expect(await allItems(again.url, 'torn', list)).toHaveLength(3);
    await again.close();
    writeFileSync(log, `${readFileSync(log, 'utf8').split('\n')[0]}\n{"list":"${list}","op":"add","items":[{"ip":5}]}\n`);
    const err = await start({ data }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigItemError);
    expect((err as Error).message).toBe(`${log}: line 2: items[0].ip: must be a string (got integer)`);
  });

  it('the log is compacted once it holds more than twice the live items', async () => {
    const data = tempDir();
    const server = await start({ data });
    const list = await newList(server.url, 'compact');
    const url = `${server.url}/accounts/compact/rules/lists/${list}/items`;
    const log = path.join(data, 'compact.items.ndjson');
    const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    await call('PUT', url, items(12_000));
    await call('PUT', url, items(12_000, 1));
    expect(lines()).toBe(2);
    await call('PUT', url, items(12_000, 2)); // 36,000 entries > 2 × 12,000 + 10,000: compacted
    expect(lines()).toBe(1);
    const expected = await allItems(server.url, 'compact', list);
    await server.close();
    const again = await start({ data });
    expect(await allItems(again.url, 'compact', list)).toEqual(expected);
    await again.close();
  });

  it('a version-1 account file (items inside) loads; its items move to the log on the next write', async () => {
    const data = tempDir();
    const item = { id: 'a'.repeat(32), ip: '10.0.0.1', created_on: '2026-01-01T00:00:00.000000Z', modified_on: '2026-01-01T00:00:00.000000Z' };
    const list = { id: 'b'.repeat(32), name: 'old', kind: 'ip', created_on: item.created_on, modified_on: item.created_on, items: [item] };
    writeFileSync(path.join(data, 'old.json'), JSON.stringify({ format: 'edgesim-account-state', version: 1, account: 'old', state: { lists: [list] } }));
    const server = await start({ data });
    expect(await allItems(server.url, 'old', list.id)).toEqual([item]);
    await call('PATCH', `${server.url}/accounts/old/edge/advanced_tcp_protection/configs/tcp_protection_status`, { enabled: true });
    await server.close();
    expect(readFileSync(path.join(data, 'old.json'), 'utf8')).not.toContain('10.0.0.1');
    const again = await start({ data });
    expect(await allItems(again.url, 'old', list.id)).toEqual([item]);
    await again.close();
  });

  it('acknowledged item changes survive a SIGKILL of edgesim serve', async () => {
    const data = tempDir();
    const serve = (): Promise<{ child: ChildProcess; url: string }> => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
      return new Promise((resolve) => createInterface({ input: child.stdout! }).once('line', (url) => resolve({ child, url })));
    };
    const { child, url } = await serve();
    const list = await newList(url, 'kill');
    const base = `${url}/accounts/kill/rules/lists/${list}/items`;
    await call('PUT', base, items(500));
    const adds = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', base, [{ ip: `192.0.2.${i}` }])));
    expect(adds.every((r) => r.status === 200)).toBe(true);
    const current = (await allItems(url, 'kill', list)) as Array<{ id: string }>;
    await call('DELETE', base, { items: current.slice(0, 5).map((i) => ({ id: i.id })) });
    const expected = await allItems(url, 'kill', list);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const again = await serve();
    expect(await allItems(again.url, 'kill', list)).toEqual(expected);
    again.child.kill('SIGTERM');
    await new Promise((resolve) => again.child.once('exit', resolve));
  });
});
