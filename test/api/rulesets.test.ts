// Ruleset behaviour beyond the SDK walk-through: rule positions in every form and their errors,
// version history, refs (default and uniqueness), one root ruleset per phase, the 200-rule limit,
// PUT keeping rule identity, the phase entry point created by PUT, and named-list references; the
// phase answered in the request's spelling, rules' logging as the vendor stores it, the list by cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { call, start } from './helpers.js';

let server: RunningServer;
let n = 0;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

/** A fresh account per test, so tests stay independent. */
function account(): string {
  return `rs${++n}`;
}

const rule = (d: string, extra: object = {}) => ({ action: 'block', expression: `tcp.dstport == ${100 + d.charCodeAt(0)}`, description: d, ...extra });

async function ruleset(acct: string, descriptions: string[]): Promise<any> {
  const r = await call('POST', `${server.url}/accounts/${acct}/rulesets`, { name: 'fw', kind: 'root', phase: 'edge_transit', rules: descriptions.map((d) => rule(d)) });
  expect(r.status).toBe(200);
  return r.body.result;
}

const order = (rs: { rules: Array<{ description: string }> }) => rs.rules.map((r) => r.description).join('');

describe('rule positions', () => {
  const cases: Array<[string, (ids: string[]) => object | undefined, string]> = [
    ['no position appends', () => undefined, 'abcX'],
    ['before "" makes it first', () => ({ before: '' }), 'Xabc'],
    ['after "" makes it last', () => ({ after: '' }), 'abcX'],
    ['before b', (ids) => ({ before: ids[1] }), 'aXbc'],
    ['after b', (ids) => ({ after: ids[1] }), 'abXc'],
    ['index 1', () => ({ index: 1 }), 'Xabc'],
    ['index 3', () => ({ index: 3 }), 'abXc'],
    ['index 4 (one past the end)', () => ({ index: 4 }), 'abcX'],
  ];
  for (const [name, position, expected] of cases) {
    it(`add: ${name}`, async () => {
      const acct = account();
      const rs = await ruleset(acct, ['a', 'b', 'c']);
      const pos = position(rs.rules.map((r: { id: string }) => r.id));
      const r = await call('POST', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules`, pos ? { ...rule('X'), position: pos } : rule('X'));
      expect(r.status).toBe(200);
      expect(order(r.body.result)).toBe(expected);
    });
  }

  const bad: Array<[string, (ids: string[]) => object]> = [
    ['index 0', () => ({ index: 0 })],
    ['index 5 (out of range)', () => ({ index: 5 })],
    ['two keys', (ids) => ({ before: ids[0], index: 1 })],
    ['no key', () => ({})],
    ['unknown rule id', () => ({ after: '0123456789abcdef0123456789abcdef' })],
  ];
  for (const [name, position] of bad) {
    it(`add: ${name} is a 400 and changes nothing`, async () => {
      const acct = account();
      const rs = await ruleset(acct, ['a', 'b', 'c']);
      const r = await call('POST', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules`, { ...rule('X'), position: position(rs.rules.map((x: { id: string }) => x.id)) });
      expect(r.status).toBe(400);
      expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}`)).body.result).toEqual(rs);
    });
  }

  it('move: patch with only a position reorders without changing the rule or its version', async () => {
    const acct = account();
    const rs = await ruleset(acct, ['a', 'b', 'c']);
    const [a, , c] = rs.rules;
    const r = await call('PATCH', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${a.id}`, { position: { after: c.id } });
    expect(order(r.body.result)).toBe('bca');
    expect(r.body.result.rules[2]).toEqual(a);
    expect(r.body.result.version).toBe('2');
    const self = await call('PATCH', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${a.id}`, { position: { before: a.id } });
    expect(self.status).toBe(400);
    const outOfRange = await call('PATCH', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${a.id}`, { position: { index: 4 } });
    expect(outOfRange.status).toBe(400);
  });

  it('changing the action of a skip rule to block drops its action parameters', async () => {
    const acct = account();
    const created = await call('POST', `${server.url}/accounts/${acct}/rulesets`, {
      name: 'fw', kind: 'root', phase: 'edge_transit', rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 22' }],
    });
    const rs = created.body.result;
    const r = await call('PATCH', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { action: 'block' });
    expect(r.status).toBe(200);
    expect(r.body.result.rules[0]).not.toHaveProperty('action_parameters');
    const back = await call('PATCH', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { action: 'skip' });
    expect(back.status).toBe(400);
    expect(back.body.errors[0].message).toBe('action_parameters: is required for action "skip" (use {"ruleset":"current"})');
  });
});

describe('rulesets', () => {
  it('refs default to the id, may be set, and must be unique within a ruleset', async () => {
    const acct = account();
    const created = await call('POST', `${server.url}/accounts/${acct}/rulesets`, {
      name: 'fw', kind: 'root', phase: 'edge_transit', rules: [rule('a', { ref: 'ssh' }), rule('b')],
    });
    const rs = created.body.result;
    expect(rs.rules[0].ref).toBe('ssh');
    expect(rs.rules[1].ref).toBe(rs.rules[1].id);
    const dup = await call('POST', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules`, rule('c', { ref: 'ssh' }));
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].message).toBe('rules[2].ref: ref "ssh" is already used by rules[0]');
    const inBody = await call('POST', `${server.url}/accounts/${account()}/rulesets`, {
      name: 'fw', kind: 'root', phase: 'edge_transit', rules: [rule('a', { ref: 'x' }), rule('b', { ref: 'x' })],
    });
    expect(inBody.status).toBe(400);
  });

  it('one root ruleset per phase, whichever spelling names the phase', async () => {
    const acct = account();
    await ruleset(acct, ['a']);
    const second = await call('POST', `${server.url}/accounts/${acct}/rulesets`, { name: 'other', kind: 'root', phase: 'magic_transit', rules: [] });
    expect(second.status).toBe(400);
    expect(second.body.errors[0].message).toMatch(/^phase: phase edge_transit already has a root ruleset \(ruleset [0-9a-f]{32}\)/);
  });

  it('a ruleset holds at most 200 rules', async () => {
    const acct = account();
    const rules = Array.from({ length: 200 }, (_, i) => ({ action: 'block', expression: `tcp.dstport == ${i + 1}` }));
    const full = await call('POST', `${server.url}/accounts/${acct}/rulesets`, { name: 'fw', kind: 'root', phase: 'edge_transit', rules });
    expect(full.status).toBe(200);
    const more = await call('POST', `${server.url}/accounts/${acct}/rulesets/${full.body.result.id}/rules`, rule('z'));
    expect(more.status).toBe(400);
    expect(more.body.errors[0].message).toBe('a ruleset holds at most 200 rules');
    const tooMany = await call('POST', `${server.url}/accounts/${account()}/rulesets`, { name: 'fw', kind: 'root', phase: 'edge_transit', rules: [...rules, rule('z')] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].message).toBe('rules: must have at most 200 items (got 201)');
  });

  it('serve --max-rules raises (or lowers) the limit, for create, PUT, the entry point and single adds', async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ action: 'block', expression: `tcp.dstport == ${i + 1}` }));
    const raised = await start({ maxRules: 250 });
    const big = await call('POST', `${raised.url}/accounts/big/rulesets`, { name: 'fw', kind: 'root', phase: 'edge_transit', rules: rules(250) });
    expect(big.status).toBe(200);
    expect(big.body.result.rules).toHaveLength(250);
    expect((await call('POST', `${raised.url}/accounts/big/rulesets/${big.body.result.id}/rules`, rule('z'))).body.errors[0].message).toBe('a ruleset holds at most 250 rules');
    await raised.close();

    const lowered = await start({ maxRules: 3 });
    const put = await call('PUT', `${lowered.url}/accounts/small/rulesets/phases/edge_transit/entrypoint`, { rules: rules(4) });
    expect(put.status).toBe(400);
    expect(put.body.errors[0]).toMatchObject({ message: 'rules: must have at most 3 items (got 4)', source: { pointer: '/rules' } });
    const three = await call('PUT', `${lowered.url}/accounts/small/rulesets/phases/edge_transit/entrypoint`, { rules: rules(3) });
    expect(three.status).toBe(200);
    expect((await call('PUT', `${lowered.url}/accounts/small/rulesets/${three.body.result.id}`, { rules: rules(4) })).status).toBe(400);
    await lowered.close();
  });

  it('PUT keeps the identity and version of rules sent back unchanged, bumps changed ones, refuses a renamed ruleset', async () => {
    const acct = account();
    const rs = await ruleset(acct, ['a', 'b']);
    const [a, b] = rs.rules;
    const put = await call('PUT', `${server.url}/accounts/${acct}/rulesets/${rs.id}`, {
      rules: [a, { ...b, expression: 'tcp.dstport == 9' }, rule('c')],
    });
    expect(put.status).toBe(200);
    const [a2, b2, c2] = put.body.result.rules;
    expect(a2).toEqual(a);
    expect(b2).toMatchObject({ id: b.id, ref: b.ref, version: '2', expression: 'tcp.dstport == 9' });
    expect(c2.version).toBe('2');
    const renamed = await call('PUT', `${server.url}/accounts/${acct}/rulesets/${rs.id}`, { name: 'new name', rules: [] });
    expect(renamed.status).toBe(400);
    const unknownId = await call('PUT', `${server.url}/accounts/${acct}/rulesets/${rs.id}`, { rules: [{ ...rule('q'), id: '0123456789abcdef0123456789abcdef' }] });
    expect(unknownId.status).toBe(400);
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}`)).body.result).toEqual(put.body.result);
  });

  it('versions: each change is a version; old versions stay readable; unknown version is a 404', async () => {
    const acct = account();
    const rs = await ruleset(acct, ['a']);
    await call('POST', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules`, rule('b'));
    await call('DELETE', `${server.url}/accounts/${acct}/rulesets/${rs.id}/rules/${rs.rules[0].id}`);
    const versions = await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}/versions`);
    expect(versions.body.result.map((v: { version: string }) => v.version)).toEqual(['1', '2', '3']);
    expect(versions.body.result[0]).not.toHaveProperty('rules');
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}/versions/1`)).body.result).toEqual(rs);
    expect(order((await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}/versions/2`)).body.result)).toBe('ab');
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/phases/edge_transit/entrypoint/versions/3`)).body.result.version).toBe('3');
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/${rs.id}/versions/9`)).status).toBe(404);
  });

  it('PUT on the phase entry point creates the root ruleset when there is none', async () => {
    const acct = account();
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/phases/edge_transit/entrypoint`)).status).toBe(404);
    const r = await call('PUT', `${server.url}/accounts/${acct}/rulesets/phases/magic_transit/entrypoint`, { description: 'entry', rules: [rule('a')] });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ name: 'default', kind: 'root', phase: 'magic_transit', description: 'entry', version: '1' });
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/phases/edge_transit/entrypoint`)).body.result).toEqual({ ...r.body.result, phase: 'edge_transit' });
    expect((await call('GET', `${server.url}/accounts/${acct}/rulesets/phases/http_request_firewall_custom/entrypoint`)).status).toBe(404);
  });

  it('a rule may use an account list only once it exists; a used list cannot be deleted', async () => {
    const acct = account();
    const lists = `${server.url}/accounts/${acct}/rules/lists`;
    const body = { name: 'fw', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'ip.src in $office' }] };
    const early = await call('POST', `${server.url}/accounts/${acct}/rulesets`, body);
    expect(early.status).toBe(400);
    expect(early.body.errors[0].message).toMatch(/^rules\[0\]\.expression: unknown list \$office/);
    const list = (await call('POST', lists, { name: 'office', kind: 'ip' })).body.result;
    const rs = await call('POST', `${server.url}/accounts/${acct}/rulesets`, body);
    expect(rs.status).toBe(200);
    expect((await call('GET', `${lists}/${list.id}`)).body.result.num_referencing_filters).toBe(1);
    const del = await call('DELETE', `${lists}/${list.id}`);
    expect(del.status).toBe(400);
    expect(del.body.errors[0].message).toContain('list "office" is used by rule');
    await call('DELETE', `${server.url}/accounts/${acct}/rulesets/${rs.body.result.id}`);
    expect((await call('DELETE', `${lists}/${list.id}`)).body.result).toEqual({ id: list.id });
  });

  it('a rule may not use a $svc./$cf. name that is not a managed list, though the expression alone is valid', async () => {
    const acct = account();
    const body = { name: 'fw', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'ip.dst in $svc.malware' }, { action: 'block', expression: 'ip.dst in $svc.mal' }] };
    const r = await call('POST', `${server.url}/accounts/${acct}/rulesets`, body);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^rules\[1\]\.expression: unknown list \$svc\.mal: not a managed list/), source: { pointer: '/rules/1/expression' } })]);
  });
});

describe('answers like the vendor', () => {
  const rulesets = (acct: string) => `${server.url}/accounts/${acct}/rulesets`;
  const skip = (extra: object = {}) => ({ action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 22', ...extra });

  it('the phase is answered in the spelling the request used, and reads by id in the one last written', async () => {
    const acct = account();
    const created = (await call('POST', rulesets(acct), { name: 'fw', kind: 'root', phase: 'magic_transit', rules: [rule('a')] })).body.result;
    expect(created.phase).toBe('magic_transit');
    expect((await call('GET', `${rulesets(acct)}/${created.id}`)).body.result.phase).toBe('magic_transit');
    expect((await call('GET', rulesets(acct))).body.result.map((r: { phase: string }) => r.phase)).toEqual(['magic_transit']);
    expect((await call('GET', `${rulesets(acct)}/phases/magic_transit/entrypoint`)).body.result.phase).toBe('magic_transit');
    expect((await call('GET', `${rulesets(acct)}/phases/edge_transit/entrypoint`)).body.result.phase).toBe('edge_transit');
    expect((await call('GET', `${rulesets(acct)}/phases/magic_transit/entrypoint/versions`)).body.result[0].phase).toBe('magic_transit');
    const put = await call('PUT', `${rulesets(acct)}/phases/edge_transit/entrypoint`, { rules: [rule('b')] });
    expect(put.body.result.phase).toBe('edge_transit');
    expect((await call('GET', `${rulesets(acct)}/${created.id}`)).body.result.phase).toBe('edge_transit');
    const viaBody = await call('PUT', `${rulesets(acct)}/${created.id}`, { phase: 'magic_transit', rules: [rule('c')] });
    expect(viaBody.body.result.phase).toBe('magic_transit');
  });

  it('rules carry id, version, last_updated; a skip rule without logging gets {"enabled": true}; other actions have none', async () => {
    const acct = account();
    const r = await call('POST', rulesets(acct), { name: 'fw', kind: 'root', phase: 'magic_transit', rules: [skip(), skip({ logging: { enabled: false }, expression: 'tcp.dstport == 23' }), rule('a')] });
    expect(r.status).toBe(200);
    const [implicit, explicit, block] = r.body.result.rules;
    for (const x of [implicit, explicit, block]) expect(Object.keys(x)).toEqual(expect.arrayContaining(['id', 'version', 'last_updated']));
    expect(implicit.logging).toEqual({ enabled: true });
    expect(explicit.logging).toEqual({ enabled: false });
    expect(block).not.toHaveProperty('logging');
    // sent back as read, nothing changes: the stored logging is the rule's own
    const same = await call('PUT', `${rulesets(acct)}/${r.body.result.id}`, { rules: r.body.result.rules.map(({ version: _v, last_updated: _l, ...x }: any) => x) });
    expect(same.body.result.rules.map((x: { version: string }) => x.version)).toEqual(['1', '1', '1']);
    // a skip rule turned into block loses its logging with its parameters
    const patched = await call('PATCH', `${rulesets(acct)}/${r.body.result.id}/rules/${implicit.id}`, { action: 'block' });
    expect(patched.status).toBe(200);
    expect(patched.body.result.rules[0]).not.toHaveProperty('logging');
  });

  it('logging on a rule that is not skip is refused with the vendor\'s error 20018, wherever the rule comes in', async () => {
    const acct = account();
    const refused = await call('POST', rulesets(acct), { name: 'fw', kind: 'root', phase: 'magic_transit', rules: [rule('a'), rule('b', { logging: { enabled: true } })] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ code: 20018, message: 'rules[1].logging: only a "skip" rule takes logging (this rule\'s action is "block")', source: { pointer: '/rules/1/logging' } }]);
    const rs = await ruleset(acct, ['a']);
    expect((await call('POST', `${rulesets(acct)}/${rs.id}/rules`, rule('b', { logging: { enabled: false } }))).body.errors[0].code).toBe(20018);
    expect((await call('PATCH', `${rulesets(acct)}/${rs.id}/rules/${rs.rules[0].id}`, { logging: { enabled: true } })).body.errors[0].code).toBe(20018);
    expect((await call('GET', `${rulesets(acct)}/${rs.id}`)).body.result).toEqual(rs);
  });

  it('the list omits rules and pages by cursor: result_info {count, per_page}, and cursor only while more follow', async () => {
    const acct = account();
    const rs = await ruleset(acct, ['a']);
    const list = await call('GET', `${rulesets(acct)}?per_page=1`);
    expect(list.body.result).toEqual([{ id: rs.id, name: 'fw', kind: 'root', version: '1', last_updated: rs.last_updated, phase: 'edge_transit' }]);
    expect(list.body.result_info).toEqual({ count: 1, per_page: 1 });
    expect((await call('GET', `${rulesets(acct)}?per_page=0`)).status).toBe(400);
    expect((await call('GET', `${rulesets(acct)}?cursor=bm9wZQ`)).body.errors[0].message).toBe('cursor: "bm9wZQ" is not a cursor this API returned');
    expect((await call('GET', rulesets(account()))).body).toMatchObject({ result: [], result_info: { count: 0, per_page: 20 } });
  });
});
