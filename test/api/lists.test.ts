// Account IP lists: CRUD, items added (upsert), replaced and deleted through completed bulk
// operations, cursor pagination to the end, and the 100,000-item limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { call, sdk, start } from './helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

const lists = (acct: string) => `${server.url}/accounts/${acct}/rules/lists`;

describe('account lists', () => {
  it('create, get, update the description, list, delete; names are validated and unique', async () => {
    const created = await call('POST', lists('l1'), { name: 'office_v4', kind: 'ip', description: 'office ranges' });
    expect(created.status).toBe(200);
    const list = created.body.result;
    expect(list).toMatchObject({ name: 'office_v4', kind: 'ip', description: 'office ranges', num_items: 0, num_referencing_filters: 0 });
    expect(list.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await call('POST', lists('l1'), { name: 'office_v4', kind: 'ip' })).status).toBe(400);
    expect((await call('POST', lists('l1'), { name: 'Office', kind: 'ip' })).body.errors[0].message)
      .toBe('name: "Office" is not a list name (only lowercase letters, digits and the underscore)');
    expect((await call('POST', lists('l1'), { name: 'hosts', kind: 'hostname' })).status).toBe(400);
    const updated = await call('PUT', `${lists('l1')}/${list.id}`, { description: 'new' });
    expect(updated.body.result.description).toBe('new');
    expect((await call('GET', lists('l1'))).body.result.map((l: { id: string }) => l.id)).toEqual([list.id]);
    expect((await call('DELETE', `${lists('l1')}/${list.id}`)).body.result).toEqual({ id: list.id });
    expect((await call('GET', `${lists('l1')}/${list.id}`)).status).toBe(404);
  });

  it('items: add (existing addresses get their comment updated), replace, delete by id, each a completed operation', async () => {
    const list = (await call('POST', lists('l2'), { name: 'blocked', kind: 'ip' })).body.result;
    const items = `${lists('l2')}/${list.id}/items`;
    const add = await call('POST', items, [{ ip: '10.0.0.1' }, { ip: '10.10.0.0/24', comment: 'lab' }, { ip: '2001:db8::/48' }]);
    expect(add.status).toBe(200);
    const op = await call('GET', `${lists('l2')}/bulk_operations/${add.body.result.operation_id}`);
    expect(op.body.result).toMatchObject({ id: add.body.result.operation_id, status: 'completed' });
    await call('POST', items, [{ ip: '10.10.0.0/24', comment: 'lab 2' }]);
    const all = (await call('GET', items)).body.result;
    expect(all.map((i: { ip: string; comment?: string }) => [i.ip, i.comment])).toEqual([['10.0.0.1', undefined], ['10.10.0.0/24', 'lab 2'], ['2001:db8::/48', undefined]]);
    expect((await call('GET', `${items}/${all[1].id}`)).body.result).toEqual(all[1]);
    expect((await call('GET', `${lists('l2')}/${list.id}`)).body.result.num_items).toBe(3);

    expect((await call('DELETE', items, { items: [{ id: all[0].id }, { id: 'nope' }] })).status).toBe(400);
    await call('DELETE', items, { items: [{ id: all[0].id }] });
    expect((await call('GET', items)).body.result.map((i: { ip: string }) => i.ip)).toEqual(['10.10.0.0/24', '2001:db8::/48']);

    await call('PUT', items, [{ ip: '192.0.2.0/24' }]);
    expect((await call('GET', items)).body.result.map((i: { ip: string }) => i.ip)).toEqual(['192.0.2.0/24']);
    expect((await call('POST', items, [{ ip: '192.0.2.1/24' }])).status).toBe(400);
  });

  it('items are paginated by cursor; the official SDK walks them to the end', async () => {
    const list = (await call('POST', lists('l3'), { name: 'many', kind: 'ip' })).body.result;
    const body = Array.from({ length: 1234 }, (_, i) => ({ ip: `10.${i >> 8}.${i & 255}.0/24` }));
    await call('POST', `${lists('l3')}/${list.id}/items`, body);
    const first = await call('GET', `${lists('l3')}/${list.id}/items?per_page=500`);
    expect(first.body.result).toHaveLength(500);
    expect(first.body.result_info.cursors.after).toBeTruthy();
    const seen = [];
    for await (const item of sdk(server.url).rules.lists.items.list(list.id, { account_id: 'l3', per_page: 100 })) seen.push((item as { ip: string }).ip);
    expect(seen).toEqual(body.map((i) => i.ip));
  });

  it('a list holds at most 100,000 items; a request going over adds none', async () => {
    const list = (await call('POST', lists('l4'), { name: 'big', kind: 'ip' })).body.result;
    const items = `${lists('l4')}/${list.id}/items`;
    const ips = (from: number, count: number) => Array.from({ length: count }, (_, k) => {
      const i = from + k;
      return { ip: `${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24` };
    });
    expect((await call('POST', items, ips(0, 100_000))).status).toBe(200);
    const over = await call('POST', items, [...ips(99_999, 1), ...ips(100_000, 1)]);
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toBe('a list holds at most 100000 items (it has 100000, the request adds 1)');
    expect((await call('GET', `${lists('l4')}/${list.id}`)).body.result.num_items).toBe(100_000);
    expect((await call('POST', items, ips(5, 3))).status).toBe(200); // updates, not additions
  });
});
