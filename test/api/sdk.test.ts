// The official `cloudflare` SDK (7.3.0) as the conformance client: every Advanced TCP Protection
// resource and the rulesets API, through the vendor's paths (`magic`, `magic_transit`).
import type Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { sdk, start } from './helpers.js';

const account_id = '023e105f4ecef8ad9ca31a8372d0c353';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let server: RunningServer;
let cf: Cloudflare;

beforeAll(async () => {
  server = await start();
  cf = sdk(server.url);
});
afterAll(() => server.close());

describe('Advanced TCP Protection through the official SDK', () => {
  const atp = () => cf.DDoSProtection.advancedTCPProtection;

  it('status: starts disabled, edit turns it on and off', async () => {
    expect(await atp().status.get({ account_id })).toEqual({ enabled: false });
    expect(await atp().status.edit({ account_id, enabled: true })).toEqual({ enabled: true });
    expect(await atp().status.get({ account_id })).toEqual({ enabled: true });
    expect(await atp().status.edit({ account_id, enabled: false })).toEqual({ enabled: false });
  });

  it('prefixes: create, bulkCreate, paginated list with for-await, get, edit, delete, bulkDelete', async () => {
    const one = await atp().prefixes.create({ account_id, prefix: '198.51.100.0/24', comment: 'single', excluded: false });
    expect(one).toMatchObject({ prefix: '198.51.100.0/24', comment: 'single', excluded: false });
    expect(one.id).toMatch(UUID);
    expect(one.created_on).toMatch(ISO);

    const body = Array.from({ length: 250 }, (_, i) => ({ prefix: `10.${i}.0.0/16`, comment: `range ${i}`, excluded: i % 2 === 1 }));
    const created = [];
    for await (const p of atp().prefixes.bulkCreate({ account_id, body })) created.push(p);
    expect(created.map((p) => p.prefix)).toEqual(body.map((p) => p.prefix));

    const listed = [];
    for await (const p of atp().prefixes.list({ account_id, per_page: 40 })) listed.push(p);
    expect(listed).toHaveLength(251);
    expect(new Set(listed.map((p) => p.id)).size).toBe(251);
    // default order is by prefix
    expect(listed.map((p) => p.prefix)).toEqual([...listed.map((p) => p.prefix)].sort());

    const edited = await atp().prefixes.items.edit(one.id!, { account_id, comment: 'changed', excluded: true });
    expect(edited).toMatchObject({ id: one.id, prefix: '198.51.100.0/24', comment: 'changed', excluded: true });
    expect(await atp().prefixes.items.get(one.id!, { account_id })).toEqual(edited);

    const deleted = await atp().prefixes.items.delete(one.id!, { account_id });
    expect(deleted).toEqual({ success: true, errors: [], messages: [] });
    await expect(atp().prefixes.items.get(one.id!, { account_id })).rejects.toMatchObject({ status: 404 });

    expect(await atp().prefixes.bulkDelete({ account_id })).toEqual({ success: true, errors: [], messages: [] });
    const after = [];
    for await (const p of atp().prefixes.list({ account_id })) after.push(p);
    expect(after).toEqual([]);
  });

  it('prefixes: bulkCreate refuses more than 300 and creates none of them', async () => {
    const body = Array.from({ length: 301 }, (_, i) => ({ prefix: `10.${i >> 8}.${i & 255}.0/24`, comment: '', excluded: false }));
    await expect(atp().prefixes.bulkCreate({ account_id, body })).rejects.toMatchObject({ status: 400 });
    const page = await atp().prefixes.list({ account_id });
    expect(page.result).toEqual([]);
  });

  it('allowlist: create (enabled defaults to false), list, get, edit, delete, bulkDelete', async () => {
    const a = await atp().allowlist.create({ account_id, prefix: '203.0.113.0/26', comment: 'Partner range', enabled: true });
    expect(a).toMatchObject({ prefix: '203.0.113.0/26', comment: 'Partner range', enabled: true });
    const single = await atp().allowlist.create({ account_id, prefix: '192.0.2.127', comment: 'one host' } as never);
    expect(single).toMatchObject({ prefix: '192.0.2.127', enabled: false });
    const all = [];
    for await (const e of atp().allowlist.list({ account_id })) all.push(e);
    expect(all.map((e) => e.prefix).sort()).toEqual(['192.0.2.127', '203.0.113.0/26']);
    expect(await atp().allowlist.items.edit(single.id!, { account_id, enabled: true })).toMatchObject({ enabled: true, comment: 'one host' });
    expect(await atp().allowlist.items.get(a.id!, { account_id })).toMatchObject({ id: a.id });
    expect(await atp().allowlist.items.delete(a.id!, { account_id })).toMatchObject({ success: true });
    expect(await atp().allowlist.bulkDelete({ account_id })).toMatchObject({ success: true });
    expect((await atp().allowlist.list({ account_id })).result).toEqual([]);
  });

  for (const component of ['synProtection', 'tcpFlowProtection'] as const) {
    it(`${component} rules: create (defaults), list, get, edit, delete, bulkDelete`, async () => {
      const rules = atp()[component].rules;
      const r = await rules.create({ account_id, scope: 'region', name: 'WEUR', mode: 'monitoring', rate_sensitivity: 'low', burst_sensitivity: 'low' });
      expect(r).toMatchObject({ scope: 'region', name: 'WEUR', mode: 'monitoring', rate_sensitivity: 'low', burst_sensitivity: 'low' });
      if (component === 'synProtection') expect(r).toMatchObject({ mitigation_type: 'challenge' });
      else expect(r).not.toHaveProperty('mitigation_type');
      const g = await rules.create({ account_id, scope: 'global', name: 'global', mode: 'enabled' } as never);
      expect(g).toMatchObject({ rate_sensitivity: 'medium', burst_sensitivity: 'medium' });
      const listed = [];
      for await (const x of rules.list({ account_id })) listed.push(x);
      expect(listed.map((x) => x.id)).toEqual([r.id, g.id]);
      const desc = await rules.list({ account_id, direction: 'DESC' } as never);
      expect(desc.result.map((x) => x.id)).toEqual([g.id, r.id]);
      const edited = await rules.items.edit(r.id!, { account_id, mode: 'enabled', rate_sensitivity: 'high' });
      expect(edited).toMatchObject({ id: r.id, scope: 'region', name: 'WEUR', mode: 'enabled', rate_sensitivity: 'high', burst_sensitivity: 'low' });
      expect(await rules.items.get(r.id!, { account_id })).toEqual(edited);
      await expect(rules.items.edit(r.id!, { account_id, mode: 'mitigate' })).rejects.toMatchObject({ status: 400 });
      expect(await rules.items.delete(g.id!, { account_id })).toMatchObject({ success: true });
      expect(await rules.bulkDelete({ account_id })).toMatchObject({ success: true });
      expect((await rules.list({ account_id })).result).toEqual([]);
    });

    it(`${component} filters: create, list filtered by mode, get, edit, delete, bulkDelete`, async () => {
      const filters = atp()[component].filters;
      const f1 = await filters.create({ account_id, expression: 'ip.dst in { 192.0.2.0/24 }', mode: 'monitoring' });
      const f2 = await filters.create({ account_id, expression: 'ip.dst in { 203.0.113.0/24 } and tcp.dstport in { 8000..8081 }', mode: 'disabled' });
      const f3 = await filters.create({ account_id, expression: 'tcp.srcport == 53', mode: 'enabled' });
      expect(f1).toMatchObject({ expression: 'ip.dst in { 192.0.2.0/24 }', mode: 'monitoring' });
      const disabled = [];
      for await (const f of filters.list({ account_id, mode: 'disabled' })) disabled.push(f);
      expect(disabled.map((f) => f.id)).toEqual([f2.id]);
      const all = [];
      for await (const f of filters.list({ account_id })) all.push(f);
      expect(all.map((f) => f.id)).toEqual([f1.id, f2.id, f3.id]);
      const edited = await filters.items.edit(f3.id!, { account_id, mode: 'monitoring', expression: 'tcp.srcport in { 53 }' });
      expect(edited).toMatchObject({ id: f3.id, mode: 'monitoring', expression: 'tcp.srcport in { 53 }' });
      // the filter scheme has only ip.src, ip.dst, tcp.srcport, tcp.dstport
      await expect(filters.create({ account_id, expression: 'ip.proto == "tcp"', mode: 'enabled' })).rejects.toMatchObject({ status: 400 });
      expect(await filters.items.get(f1.id!, { account_id })).toMatchObject({ id: f1.id });
      expect(await filters.items.delete(f1.id!, { account_id })).toMatchObject({ success: true });
      expect(await filters.bulkDelete({ account_id })).toMatchObject({ success: true });
      expect((await filters.list({ account_id })).result).toEqual([]);
    });
  }
});

type CreateParams = Parameters<Cloudflare['rulesets']['create']>[0];
type AddParams = Parameters<Cloudflare['rulesets']['rules']['create']>[1];
type EditParams = Parameters<Cloudflare['rulesets']['rules']['edit']>[1];
type UpdateParams = Parameters<Cloudflare['rulesets']['update']>[1];
type PhaseParams = Parameters<Cloudflare['rulesets']['phases']['update']>[1];
/** The SDK types ruleset responses as `unknown`; this is their shape. */
interface RulesetResult {
  id: string;
  name: string;
  description?: string;
  version: string;
  last_updated: string;
  rules: Array<{ id: string; ref: string; version: string; action: string; expression: string; description?: string; enabled: boolean; logging?: { enabled: boolean } }>;
}

describe('rulesets through the official SDK', () => {
  const rules = [
    { action: 'skip' as const, action_parameters: { ruleset: 'current' as const }, expression: 'tcp.dstport in { 8080 } ', description: 'Allow port 8080' },
    { action: 'block' as const, expression: 'tcp.dstport in { 1..65535 }', description: 'Block all TCP ports' },
  ];

  it('create, get, list, update, rules add/edit/delete with positions, versions, phase entry point, delete', async () => {
    const rs = (await cf.rulesets.create({ account_id, name: 'Example ruleset', kind: 'root', phase: 'magic_transit', description: 'Example ruleset description', rules } as CreateParams)) as RulesetResult;
    expect(rs.id).toMatch(HEX32);
    expect(rs).toMatchObject({ name: 'Example ruleset', kind: 'root', phase: 'magic_transit', version: '1' });
    expect(rs.rules.map((r) => r.logging)).toEqual([{ enabled: true }, undefined]); // as the vendor stores a skip rule's
    expect(rs.rules.map((r) => [r.action, r.expression, r.enabled, r.version])).toEqual([
      ['skip', 'tcp.dstport in { 8080 } ', true, '1'],
      ['block', 'tcp.dstport in { 1..65535 }', true, '1'],
    ]);
    for (const r of rs.rules) {
      expect(r.id).toMatch(HEX32);
      expect(r.ref).toBe(r.id);
    }

    expect(await cf.rulesets.get(rs.id, { account_id })).toEqual(rs);
    const listed = [];
    for await (const x of cf.rulesets.list({ account_id })) listed.push(x);
    expect(listed).toEqual([{ id: rs.id, name: rs.name, description: rs.description, kind: 'root', version: '1', last_updated: rs.last_updated, phase: 'magic_transit' }]);

    const added = (await cf.rulesets.rules.create(rs.id, { account_id, action: 'block', expression: 'ip.src in $svc.anonymizer', description: 'anonymizers', position: { before: rs.rules[1].id! } } as AddParams)) as RulesetResult;
    expect(added.version).toBe('2');
    expect(added.rules.map((r) => r.description)).toEqual(['Allow port 8080', 'anonymizers', 'Block all TCP ports']);
    const newRule = added.rules[1];
    expect(newRule.version).toBe('2');

    const moved = (await cf.rulesets.rules.edit(newRule.id!, { ruleset_id: rs.id, account_id, position: { index: 1 } } as EditParams)) as RulesetResult;
    expect(moved.rules.map((r) => r.description)).toEqual(['anonymizers', 'Allow port 8080', 'Block all TCP ports']);
    expect(moved.version).toBe('3');
    expect(moved.rules[0].version).toBe('2'); // moving does not change a rule's version

    const edited = (await cf.rulesets.rules.edit(newRule.id!, { ruleset_id: rs.id, account_id, expression: 'ip.src in $cf.anonymizer', enabled: false } as EditParams)) as RulesetResult;
    expect(edited.rules[0]).toMatchObject({ id: newRule.id, expression: 'ip.src in $cf.anonymizer', enabled: false, version: '4' });

    const afterDelete = (await cf.rulesets.rules.delete(newRule.id!, { ruleset_id: rs.id, account_id })) as RulesetResult;
    expect(afterDelete.rules.map((r) => r.id)).toEqual(rs.rules.map((r) => r.id));
    expect(afterDelete.version).toBe('5');

    const versions = [];
    for await (const v of cf.rulesets.versions.list(rs.id, { account_id })) versions.push(v);
    expect(versions.map((v) => v.version)).toEqual(['1', '2', '3', '4', '5']);
    const v2 = (await cf.rulesets.versions.get('2', { ruleset_id: rs.id, account_id })) as RulesetResult;
    expect(v2.rules.map((r) => r.description)).toEqual(['Allow port 8080', 'anonymizers', 'Block all TCP ports']);

    const updated = (await cf.rulesets.update(rs.id, { account_id, description: 'only the block rule', rules: [rules[1]] } as UpdateParams)) as RulesetResult;
    expect(updated).toMatchObject({ description: 'only the block rule', version: '6' });
    expect(updated.rules).toHaveLength(1);

    const entry = (await cf.rulesets.phases.get('magic_transit', { account_id })) as RulesetResult;
    expect(entry.id).toBe(rs.id);
    const viaPhase = (await cf.rulesets.phases.update('magic_transit', { account_id, rules } as PhaseParams)) as RulesetResult;
    expect(viaPhase).toMatchObject({ id: rs.id, version: '7' });
    expect(viaPhase.rules).toHaveLength(2);

    await cf.rulesets.delete(rs.id, { account_id });
    await expect(cf.rulesets.get(rs.id, { account_id })).rejects.toMatchObject({ status: 404 });
    await expect(cf.rulesets.phases.get('magic_transit', { account_id })).rejects.toMatchObject({ status: 404 });
  });

  it('validate-expr through the SDK workaround path (zones/{zone}/filters/validate-expr)', async () => {
    const bad = await cf.post('/zones/z1/filters/validate-expr', { body: { expression: 'ip.src==34' } }).catch((e: { status: number; error: unknown }) => e);
    expect(bad).toMatchObject({ status: 400 });
    const good = await cf.post('/zones/z1/filters/validate-expr', { body: { expression: 'ip.src == 192.0.2.1' } });
    expect(good).toEqual({ result: null, success: true, errors: [], messages: [] });
    const viaGet = await cf.get('/filters/validate-expr', { query: { expression: 'tcp.dstport in { 80 443 }' } });
    expect(viaGet).toEqual({ result: null, success: true, errors: [], messages: [] });
  });
});
