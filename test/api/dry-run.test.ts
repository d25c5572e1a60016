// `?dry_run=true` on the writes of rulesets and lists, as the vendor's Rulesets API takes it since
// 2026-09-17 (developers.cloudflare.com/ruleset-engine/rulesets-api/dry-run/: POST, PUT, PATCH and
// DELETE; the same authorization and validation as the write; nothing created, changed or
// deleted; only true and false, anything else a 400; the SDK 7.3.0's own words: "Responses that
// normally return 200 return `result: null`; endpoints that normally return 204 continue to return
// 204"). The official SDK sends it as its `dry_run` parameter; serve does the same on lists.
import type Cloudflare from 'cloudflare';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCredentials } from '../../src/api/credentials.js';
import type { RunningServer } from '../../src/api/server.js';
import { call, sdk, start, tempDir } from './helpers.js';

let server: RunningServer;
let cf: Cloudflare;
let n = 0;
const account = (): string => `dry${++n}`;

beforeAll(async () => {
  server = await start({ maxRules: 3 });
  cf = sdk(server.url);
});
afterAll(() => server.close());

const RULES = [
  { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 8080 }', description: 'Allow port 8080' },
  { action: 'block', expression: 'tcp.dstport in { 1..65535 }', description: 'Block all TCP ports' },
];

/** An account with a root ruleset (two rules) and a list "office" (one item); its URLs and the whole state as GETs read it. */
async function seeded(url = server.url, acct = account()) {
  const base = `${url}/accounts/${acct}`;
  const list = (await call('POST', `${base}/rules/lists`, { name: 'office', kind: 'ip', description: 'office ranges' })).body.result;
  await call('POST', `${base}/rules/lists/${list.id}/items`, [{ ip: '172.16.0.1' }]);
  const rs = (await call('POST', `${base}/rulesets`, { name: 'fw', kind: 'root', phase: 'magic_transit', rules: RULES })).body.result;
  const state = async () => ({
    rulesets: (await call('GET', `${base}/rulesets`)).body.result,
    ruleset: (await call('GET', `${base}/rulesets/${rs.id}`)).body,
    versions: (await call('GET', `${base}/rulesets/${rs.id}/versions`)).body.result,
    lists: (await call('GET', `${base}/rules/lists`)).body.result,
    items: (await call('GET', `${base}/rules/lists/${list.id}/items`)).body.result,
  });
  return { acct, base, rs, list, state };
}

describe('?dry_run=true on every write of rulesets and lists', () => {
  it('answers result: null (a 204 stays a 204) and changes nothing, on each route', async () => {
    const { base, rs, list, state } = await seeded();
    const before = await state();
    const empty = `${server.url}/accounts/${account()}`; // where a root ruleset may be created
    const writes: Array<[string, string, unknown?]> = [
      ['POST', `${empty}/rulesets`, { name: 'other', kind: 'root', phase: 'magic_transit', rules: RULES }],
      ['PUT', `${empty}/rulesets/phases/magic_transit/entrypoint`, { rules: RULES }],
      ['PUT', `${base}/rulesets/${rs.id}`, { rules: [RULES[1]] }],
      ['PUT', `${base}/rulesets/phases/magic_transit/entrypoint`, { rules: [RULES[1]] }],
      ['POST', `${base}/rulesets/${rs.id}/rules`, { action: 'block', expression: 'ip.src in $office', position: { index: 1 } }],
      ['PATCH', `${base}/rulesets/${rs.id}/rules/${rs.rules[1].id}`, { enabled: false }],
      ['DELETE', `${base}/rulesets/${rs.id}/rules/${rs.rules[0].id}`],
      ['POST', `${base}/rules/lists`, { name: 'labs', kind: 'ip' }],
      ['PUT', `${base}/rules/lists/${list.id}`, { description: 'changed' }],
      ['POST', `${base}/rules/lists/${list.id}/items`, [{ ip: '10.0.0.1' }]],
      ['PUT', `${base}/rules/lists/${list.id}/items`, [{ ip: '10.0.0.2' }]],
      ['DELETE', `${base}/rules/lists/${list.id}/items`, { items: [{ id: before.items[0].id }] }],
    ];
    for (const [method, url, body] of writes) {
      const r = await call(method, `${url}?dry_run=true`, body);
      expect([method, url, r.status, r.body]).toEqual([method, url, 200, { result: null, success: true, errors: [], messages: [] }]);
    }
    const deleted = await call('DELETE', `${base}/rulesets/${rs.id}?dry_run=true`);
    expect([deleted.status, deleted.body]).toEqual([204, undefined]);
    expect(await state()).toEqual(before);
    expect((await call('GET', `${empty}/rulesets`)).body.result).toEqual([]);
    // dry_run=false is the write itself
    expect((await call('PUT', `${base}/rulesets/${rs.id}?dry_run=false`, { rules: [RULES[1]] })).body.result.version).toBe('2');
  });

  it('validates as the write does: the same status and errors, and nothing changes', async () => {
    const { base, rs, list, state } = await seeded();
    const before = await state();
    const refused: Array<[string, string, unknown]> = [
      ['PUT', `${base}/rulesets/${rs.id}`, { rules: [...RULES, ...RULES] }], // over serve --max-rules 3
      ['PUT', `${base}/rulesets/${rs.id}`, { rules: [{ action: 'block', expression: 'ip.src in $nowhere' }] }],
      ['POST', `${base}/rulesets/${rs.id}/rules`, { action: 'block', expression: 'tcp.dstport == 1', logging: { enabled: true } }],
      ['POST', `${base}/rulesets`, { name: 'fw2', kind: 'root', phase: 'magic_transit', rules: [] }], // one root ruleset per phase
      ['POST', `${base}/rules/lists`, { name: 'office', kind: 'ip' }],
      ['PUT', `${base}/rules/lists/${list.id}/items`, [{ ip: 'not an address' }]],
      ['DELETE', `${base}/rules/lists/${list.id}`, undefined], // used by no rule, but the next one is
    ];
    await call('PUT', `${base}/rulesets/${rs.id}`, { rules: [{ action: 'block', expression: 'ip.src in $office' }] });
    const used = await state();
    for (const [method, url, body] of refused) {
      const real = await call(method, url, body);
      const dry = await call(method, `${url}?dry_run=true`, body);
      expect([method, url, dry.status, dry.body]).toEqual([method, url, real.status, real.body]);
      expect(real.status).toBe(400);
    }
    expect(await state()).toEqual(used);
    expect(used.lists).toEqual(before.lists.map((l: { num_referencing_filters: number }) => ({ ...l, num_referencing_filters: 1 })));
  });

  it('any value but true or false is a 400 naming dry_run, on a write and on a read; nothing changes', async () => {
    const { base, rs, state } = await seeded();
    const before = await state();
    for (const value of ['yes', '1', 'TRUE', '']) {
      const r = await call('PUT', `${base}/rulesets/${rs.id}?dry_run=${value}`, { rules: [RULES[1]] });
      expect([value, r.status, r.body.errors[0].message]).toEqual([value, 400, `dry_run: must be "true" or "false" (got ${JSON.stringify(value)})`]);
    }
    expect((await call('GET', `${base}/rulesets?dry_run=ask`)).status).toBe(400);
    expect((await call('GET', `${base}/rules/lists?dry_run=ask`)).status).toBe(400);
    expect((await call('GET', `${base}/rulesets?dry_run=true`)).status).toBe(200);
    expect((await call('PUT', `${base}/rulesets/${rs.id}?dry_run=true&dry_run=true`, { rules: [] })).status).toBe(400);
    expect(await state()).toEqual(before);
  });

  it('takes the credentials as the write does: a read-only token gets a 403', async () => {
    const guarded = await start({ credentials: parseCredentials({ tokens: [{ token: 'w', accounts: { '*': 'write' } }, { token: 'r', accounts: { '*': 'read' } }] }, 'test') });
    try {
      const r = await call('PUT', `${guarded.url}/accounts/a/rulesets/phases/magic_transit/entrypoint?dry_run=true`, { rules: [RULES[1]] }, { authorization: 'Bearer r' });
      expect(r.status).toBe(403);
      const w = await call('PUT', `${guarded.url}/accounts/a/rulesets/phases/magic_transit/entrypoint?dry_run=true`, { rules: [RULES[1]] }, { authorization: 'Bearer w' });
      expect([w.status, w.body.result]).toEqual([200, null]);
      expect((await call('GET', `${guarded.url}/accounts/a/rulesets`, undefined, { authorization: 'Bearer r' })).body.result).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('writes nothing to the data directory', async () => {
    const data = tempDir();
    const saved = await start({ data });
    try {
      const { acct, base, rs, list } = await seeded(saved.url);
      const files = (): string[] => ['json', 'items.ndjson'].map((ext) => readFileSync(path.join(data, `${acct}.${ext}`), 'utf8'));
      const before = files();
      await call('PUT', `${base}/rulesets/${rs.id}?dry_run=true`, { rules: [] });
      await call('PUT', `${base}/rules/lists/${list.id}/items?dry_run=true`, [{ ip: '10.9.9.9' }]);
      await call('DELETE', `${base}/rulesets/${rs.id}?dry_run=true`);
      expect(files()).toEqual(before);
    } finally {
      await saved.close();
    }
  });
});

describe('dry_run through the official SDK (cloudflare 7.3.0)', () => {
  type CreateParams = Parameters<Cloudflare['rulesets']['create']>[0];
  type UpdateParams = Parameters<Cloudflare['rulesets']['update']>[1];
  type PhaseParams = Parameters<Cloudflare['rulesets']['phases']['update']>[1];
  type AddParams = Parameters<Cloudflare['rulesets']['rules']['create']>[1];
  type EditParams = Parameters<Cloudflare['rulesets']['rules']['edit']>[1];

  it('its dry_run parameter on rulesets, phases and rules answers null and changes nothing; a refusal is the write\'s', async () => {
    const { acct: account_id, rs, state } = await seeded();
    const before = await state();
    const empty = account();
    expect(await cf.rulesets.create({ account_id: empty, name: 'other', kind: 'root', phase: 'magic_transit', rules: RULES, dry_run: true } as unknown as CreateParams)).toBeNull();
    await expect(cf.rulesets.phases.get('magic_transit', { account_id: empty })).rejects.toMatchObject({ status: 404 });
    expect(await cf.rulesets.update(rs.id, { account_id, rules: [RULES[1]], dry_run: true } as unknown as UpdateParams)).toBeNull();
    expect(await cf.rulesets.phases.update('magic_transit', { account_id, rules: [RULES[1]], dry_run: true } as unknown as PhaseParams)).toBeNull();
    expect(await cf.rulesets.rules.create(rs.id, { account_id, action: 'block', expression: 'ip.src in $office', dry_run: true } as unknown as AddParams)).toBeNull();
    expect(await cf.rulesets.rules.edit(rs.rules[0].id, { ruleset_id: rs.id, account_id, enabled: false, dry_run: true } as unknown as EditParams)).toBeNull();
    expect(await cf.rulesets.rules.delete(rs.rules[0].id, { ruleset_id: rs.id, account_id, dry_run: true })).toBeNull();
    await cf.rulesets.delete(rs.id, { account_id, dry_run: true });
    await expect(cf.rulesets.update(rs.id, { account_id, rules: [...RULES, ...RULES], dry_run: true } as unknown as UpdateParams))
      .rejects.toMatchObject({ status: 400, errors: [{ message: 'rules: must have at most 3 items (got 4)' }] });
    expect(await state()).toEqual(before);
  });

  it('lists take it as a query through the SDK\'s request options', async () => {
    const { acct: account_id, list, state } = await seeded();
    const before = await state();
    const dry = { query: { dry_run: true } };
    expect(await cf.rules.lists.create({ account_id, name: 'labs', kind: 'ip' }, dry)).toBeNull();
    expect(await cf.rules.lists.items.update(list.id, { account_id, body: [{ ip: '10.0.0.2' }] }, dry)).toBeNull();
    expect(await cf.rules.lists.delete(list.id, { account_id }, dry)).toBeNull();
    expect(await state()).toEqual(before);
  });
});
