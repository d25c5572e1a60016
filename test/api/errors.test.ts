// Error conditions: each HTTP status the API uses, the stable code of each condition, the
// credential rules, account isolation, the documented limits, and that a refused request never
// changes what the account holds.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleCredentials } from '../../src/api/credentials.js';
import { CONDITIONS } from '../../src/api/errors.js';
import type { RunningServer } from '../../src/api/server.js';
import { BEARER, call, cfg, KEY_AUTH, start } from './helpers.js';

let server: RunningServer;
let restricted: RunningServer;

beforeAll(async () => {
  server = await start({ bodyLimit: 64 * 1024 });
  restricted = await start({ credentials: singleCredentials({ token: 'right-token', key: 'right-key', email: 'ops@example.com' }) });
});
afterAll(async () => {
  await server.close();
  await restricted.close();
});

const codeOf = (name: keyof typeof CONDITIONS) => CONDITIONS[name].code;

describe('error envelope and statuses', () => {
  it('condition codes are distinct and >= 1000', () => {
    const codes = Object.values(CONDITIONS).map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Math.min(...codes)).toBeGreaterThanOrEqual(1000);
  });

  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, keyof typeof CONDITIONS]> = [
    ['unknown route', () => call('GET', `${server.url}/accounts/a1/nothing-here`), 404, 'route_not_found'],
    ['unknown id', () => call('GET', `${cfg(server.url, 'a1')}/prefixes/3f2c1e1a-0000-4000-8000-000000000000`), 404, 'not_found'],
    ['wrong method on a known route', () => call('PUT', `${cfg(server.url, 'a1')}/tcp_protection_status`, { enabled: true }), 405, 'method_not_allowed'],
    ['missing credentials', () => call('GET', `${cfg(server.url, 'a1')}/prefixes`, undefined, {}), 401, 'missing_credentials'],
    ['malformed Authorization', () => call('GET', `${cfg(server.url, 'a1')}/prefixes`, undefined, { authorization: 'Basic dXNlcjpwYXNz' }), 401, 'missing_credentials'],
    ['key without e-mail', () => call('GET', `${cfg(server.url, 'a1')}/prefixes`, undefined, { 'x-auth-key': 'k' }), 401, 'missing_credentials'],
    ['invalid JSON', async () => {
      const r = await fetch(`${cfg(server.url, 'a1')}/allowlist`, { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: '{"prefix": ' });
      return { status: r.status, body: await r.json() };
    }, 400, 'invalid_json'],
    ['non-JSON body', async () => {
      const r = await fetch(`${cfg(server.url, 'a1')}/allowlist`, { method: 'POST', headers: { ...BEARER, 'content-type': 'application/x-www-form-urlencoded' }, body: 'prefix=10.0.0.0/8' });
      return { status: r.status, body: await r.json() };
    }, 415, 'unsupported_media_type'],
    ['oversized body', () => call('POST', `${cfg(server.url, 'a1')}/allowlist`, { prefix: '10.0.0.0/8', comment: 'x'.repeat(70_000) }), 413, 'payload_too_large'],
    ['missing body', () => call('POST', `${cfg(server.url, 'a1')}/allowlist`), 400, 'missing_body'],
    ['bad enum', () => call('POST', `${cfg(server.url, 'a1')}/syn_protection/rules`, { scope: 'planet', name: 'x', mode: 'monitoring' }), 400, 'invalid_value'],
    ['missing required field', () => call('POST', `${cfg(server.url, 'a1')}/syn_protection/filters`, { mode: 'monitoring' }), 400, 'required'],
    ['wrong type', () => call('PATCH', `${cfg(server.url, 'a1')}/tcp_protection_status`, { enabled: 'yes' }), 400, 'invalid_type'],
    ['unknown key', () => call('POST', `${cfg(server.url, 'a1')}/allowlist`, { prefix: '10.0.0.0/8', enable: true }), 400, 'unknown_key'],
    ['bad page', () => call('GET', `${cfg(server.url, 'a1')}/prefixes?page=0`), 400, 'invalid_query'],
    ['bad order', () => call('GET', `${cfg(server.url, 'a1')}/prefixes?order=color`), 400, 'invalid_query'],
    ['bad mode filter', () => call('GET', `${cfg(server.url, 'a1')}/syn_protection/filters?mode=on`), 400, 'invalid_query'],
    ['bad account id', () => call('GET', `${cfg(server.url, 'a%2F..')}/prefixes`), 400, 'invalid_identifier'],
    ['an id over 100 characters', () => call('GET', `${cfg(server.url, 'a1')}/prefixes/${'x'.repeat(101)}`), 414, 'uri_too_long'],
    ['a malformed %-escape in the path', () => call('GET', `${cfg(server.url, 'a1')}/prefixes/%ff`), 400, 'invalid_url'],
    ['a malformed %-escape in the account', () => call('GET', `${cfg(server.url, '%ff')}/prefixes`), 400, 'invalid_url'],
  ];
  for (const [name, request, status, condition] of cases) {
    it(`${name}: HTTP ${status}, code ${codeOf(condition)}, failure envelope`, async () => {
      const r = await request();
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject({ result: null, success: false, messages: [] });
      expect(r.body.errors[0].code).toBe(codeOf(condition));
      expect(typeof r.body.errors[0].message).toBe('string');
    });
  }

  it('a 405 names the allowed methods in the Allow header', async () => {
    const r = await call('PUT', `${cfg(server.url, 'a1')}/prefixes`, []);
    expect(r.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('an invalid expression answers 400 with the Rules-language message exactly and a pointer to the field', async () => {
    const r = await call('POST', `${cfg(server.url, 'a1')}/syn_protection/filters`, { expression: 'ip.src==34', mode: 'enabled' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{
      code: codeOf('invalid_expression'),
      message: 'Filter parsing error (1:9):\nip.src==34\n        ^^ couldn\'t parse address in network: invalid IP address syntax\n',
      source: { pointer: '/expression' },
    }]);
  });

  it('every problem of a body is reported, each with its path', async () => {
    const r = await call('POST', `${server.url}/accounts/a1/rulesets`, {
      name: 'x', kind: 'root', phase: 'edge_transit',
      rules: [{ action: 'block', expression: 'tcp.dstport == 22' }, { action: 'allow', expression: 'foo == 1', colour: 'red' }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/rules/1/action', '/rules/1/expression', '/rules/1/colour']);
    expect(r.body.errors[0].message).toBe('rules[1].action: must be one of "block", "skip", "log" (got "allow")');
    expect(r.body.errors[1].message).toBe('Filter parsing error (1:1):\nfoo == 1\n^^^ unknown identifier\n');
  });

  it('filter expressions are checked against the ATP filter scheme, rule expressions against the firewall scheme', async () => {
    const r = await call('POST', `${cfg(server.url, 'a1')}/tcp_flow_protection/filters`, { expression: 'ip.src.country == "BR"', mode: 'enabled' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toContain('unknown identifier');
  });

  it('expression length limits: 4,096 characters for rules, 8,192 for filters', async () => {
    const long = (n: number) => `tcp.dstport in {${' 80'.repeat(Math.floor((n - 17) / 3))}}`.padEnd(n, ' ');
    const rule = (expression: string) => call('POST', `${server.url}/accounts/len/rulesets`, { name: 'x', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression }] });
    expect((await rule(long(4097))).status).toBe(400);
    const ok = await rule(long(4096));
    expect(ok.status).toBe(200);
    const filter = (expression: string) => call('POST', `${cfg(server.url, 'len')}/syn_protection/filters`, { expression, mode: 'enabled' });
    expect((await filter(long(8193))).status).toBe(400);
    expect((await filter(long(8192))).status).toBe(200);
  });

  it('the complexity limit refuses the documented example with the vendor message', async () => {
    const groups = Array.from({ length: 9 }, (_, i) => `(tcp.dstport == ${1000 + 2 * i} || tcp.dstport == ${1001 + 2 * i})`);
    const r = await call('POST', `${server.url}/filters/validate-expr`, { expression: groups.join(' && ') });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toContain('ruleset exceeds complexity constraints');
  });
});

describe('credentials', () => {
  const url = () => `${cfg(restricted.url, 'a1')}/tcp_protection_status`;

  it('by default any well-formed credentials are accepted, token or e-mail + key', async () => {
    expect((await call('GET', `${cfg(server.url, 'a1')}/tcp_protection_status`, undefined, { authorization: 'Bearer anything' })).status).toBe(200);
    expect((await call('GET', `${cfg(server.url, 'a1')}/tcp_protection_status`, undefined, KEY_AUTH)).status).toBe(200);
  });

  it('with --token/--key set, the right ones pass and other well-formed credentials get 403', async () => {
    expect((await call('GET', url(), undefined, { authorization: 'Bearer right-token' })).status).toBe(200);
    expect((await call('GET', url(), undefined, { 'x-auth-key': 'right-key', 'x-auth-email': 'ops@example.com' })).status).toBe(200);
    const wrong = await call('GET', url(), undefined, { authorization: 'Bearer wrong-token' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors[0].code).toBe(codeOf('bad_credentials'));
    expect((await call('GET', url(), undefined, { 'x-auth-key': 'right-key', 'x-auth-email': 'other@example.com' })).status).toBe(403);
    expect((await call('GET', url(), undefined, {})).status).toBe(401);
  });

  it('credentials are checked before the URL: a bad URL without credentials is a 401, with wrong ones a 403', async () => {
    const long = `${cfg(restricted.url, 'a1')}/prefixes/${'x'.repeat(101)}`;
    const bad = `${cfg(restricted.url, 'a1')}/prefixes/%ff`;
    for (const url of [long, bad]) {
      expect((await call('GET', url, undefined, {})).body.errors[0].code).toBe(codeOf('missing_credentials'));
      const wrong = await call('GET', url, undefined, { authorization: 'Bearer wrong-token' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ result: null, success: false, messages: [] });
    }
    expect((await call('GET', long, undefined, { authorization: 'Bearer right-token' })).status).toBe(414);
    expect((await call('GET', bad, undefined, { authorization: 'Bearer right-token' })).status).toBe(400);
  });

  it('credentials are checked before the body: an unauthenticated bad body is a 401', async () => {
    expect((await call('PATCH', url(), { enabled: 'no' }, { authorization: 'Bearer wrong' })).status).toBe(403);
    expect((await call('PATCH', url(), { enabled: 'no' }, {})).status).toBe(401);
  });
});

describe('error amplification', () => {
  it('300,000 unknown keys (3.5 MB) answer with the first 20 problems and one counting the rest', async () => {
    const big = await start();
    const body: Record<string, unknown> = { prefix: '10.0.0.0/8', comment: '', enabled: true };
    for (let i = 0; i < 300_000; i++) body[`k${i}`] = 1;
    const r = await fetch(`${cfg(big.url, 'amp')}/allowlist`, { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    await big.close();
    expect(r.status).toBe(400);
    expect(text.length).toBeLessThan(4096);
    const { errors } = JSON.parse(text);
    expect(errors).toHaveLength(21);
    expect(errors.slice(0, 20).map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(Array.from({ length: 20 }, (_, i) => `/k${i}`));
    expect(errors[20]).toEqual({ code: codeOf('more_errors'), message: 'and 299980 more problems of the same request' });
  });

  it('the cap holds for problems found after validation (unknown item ids of a list delete)', async () => {
    const list = (await call('POST', `${server.url}/accounts/amp/rules/lists`, { name: 'amp', kind: 'ip' })).body.result;
    const items = Array.from({ length: 500 }, (_, i) => ({ id: i.toString(16).padStart(32, '0') }));
    const r = await call('DELETE', `${server.url}/accounts/amp/rules/lists/${list.id}/items`, { items });
    expect(r.status).toBe(400);
    expect(r.body.errors).toHaveLength(21);
    expect(r.body.errors[20].message).toBe('and 480 more problems of the same request');
  });
});

describe('isolation and refused requests', () => {
  it('accounts do not see each other', async () => {
    await call('POST', `${cfg(server.url, 'alpha')}/allowlist`, { prefix: '198.51.100.7', comment: 'alpha only', enabled: true });
    await call('PATCH', `${cfg(server.url, 'alpha')}/tcp_protection_status`, { enabled: true });
    expect((await call('GET', `${cfg(server.url, 'beta')}/allowlist`)).body.result).toEqual([]);
    expect((await call('GET', `${cfg(server.url, 'beta')}/tcp_protection_status`)).body.result).toEqual({ enabled: false });
    expect((await call('GET', `${cfg(server.url, 'alpha')}/allowlist`)).body.result).toHaveLength(1);
  });

  it('a bulk create with one bad item creates nothing', async () => {
    const r = await call('POST', `${cfg(server.url, 'bulk')}/prefixes/bulk`, [
      { prefix: '10.0.0.0/8', comment: 'fine', excluded: false },
      { prefix: '10.1.2.3/8', comment: 'host bits', excluded: false },
    ]);
    expect(r.status).toBe(400);
    expect((await call('GET', `${cfg(server.url, 'bulk')}/prefixes`)).body.result).toEqual([]);
  });

  it('duplicates are refused, against stored objects and within one request', async () => {
    const base = cfg(server.url, 'dups');
    expect((await call('POST', `${base}/prefixes`, { prefix: '10.0.0.0/8', comment: '', excluded: false })).status).toBe(200);
    const again = await call('POST', `${base}/prefixes`, { prefix: '10.0.0.0/8', comment: '', excluded: true });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].code).toBe(codeOf('conflict'));
    const inBody = await call('POST', `${base}/prefixes/bulk`, [{ prefix: '2001:db8::/32' }, { prefix: '2001:DB8:0::/32' }]);
    expect(inBody.status).toBe(400);
    expect(inBody.body.errors[0].source.pointer).toBe('/1/prefix');
    const rule = { scope: 'region', name: 'WEUR', mode: 'monitoring' };
    expect((await call('POST', `${base}/syn_protection/rules`, rule)).status).toBe(200);
    expect((await call('POST', `${base}/syn_protection/rules`, { ...rule, name: 'weur' })).status).toBe(400);
    expect((await call('POST', `${base}/tcp_flow_protection/rules`, rule)).status).toBe(200);
    expect((await call('GET', `${base}/prefixes`)).body.result).toHaveLength(1);
  });

  it('a refused PATCH leaves the object as it was', async () => {
    const base = cfg(server.url, 'patch');
    const f = (await call('POST', `${base}/syn_protection/filters`, { expression: 'tcp.dstport == 80', mode: 'monitoring' })).body.result;
    expect((await call('PATCH', `${base}/syn_protection/filters/${f.id}`, { expression: 'tcp.dstport == ', mode: 'enabled' })).status).toBe(400);
    expect((await call('PATCH', `${base}/syn_protection/filters/${f.id}`, { id: 'x' })).status).toBe(400);
    expect((await call('GET', `${base}/syn_protection/filters/${f.id}`)).body.result).toEqual(f);
  });

  it('prefixes, scope and name cannot be changed by PATCH', async () => {
    const base = cfg(server.url, 'fixed');
    const p = (await call('POST', `${base}/prefixes`, { prefix: '10.0.0.0/8' })).body.result;
    const r = await call('PATCH', `${base}/prefixes/${p.id}`, { prefix: '11.0.0.0/8' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toBe('prefix: unknown key (expected one of: comment, excluded)');
  });
});

describe('arbitrary bodies', () => {
  it('any JSON body to any writing route gets a 2xx, a 400, or a 404 (a rule an earlier PUT removed), never a 5xx', async () => {
    const base = cfg(server.url, 'fuzz');
    const rs = (await call('POST', `${server.url}/accounts/fuzz/rulesets`, { name: 'x', kind: 'root', phase: 'edge_transit', rules: [{ action: 'block', expression: 'tcp.dstport == 1' }] })).body.result;
    const list = (await call('POST', `${server.url}/accounts/fuzz/rules/lists`, { name: 'l', kind: 'ip' })).body.result;
    const filter = (await call('POST', `${base}/syn_protection/filters`, { expression: 'tcp.dstport == 1', mode: 'enabled' })).body.result;
    const routes: Array<[string, string]> = [
      ['PATCH', `${base}/tcp_protection_status`],
      ['POST', `${base}/prefixes`], ['POST', `${base}/prefixes/bulk`], ['POST', `${base}/allowlist`],
      ['POST', `${base}/syn_protection/rules`], ['POST', `${base}/tcp_flow_protection/rules`],
      ['POST', `${base}/tcp_flow_protection/filters`], ['PATCH', `${base}/syn_protection/filters/${filter.id}`],
      ['POST', `${server.url}/accounts/fuzz/rulesets`], ['PUT', `${server.url}/accounts/fuzz/rulesets/${rs.id}`],
      ['POST', `${server.url}/accounts/fuzz/rulesets/${rs.id}/rules`], ['PATCH', `${server.url}/accounts/fuzz/rulesets/${rs.id}/rules/${rs.rules[0].id}`],
      ['PUT', `${server.url}/accounts/fuzz/rulesets/phases/edge_transit/entrypoint`],
      ['POST', `${server.url}/accounts/fuzz/rules/lists`], ['POST', `${server.url}/accounts/fuzz/rules/lists/${list.id}/items`],
      ['DELETE', `${server.url}/accounts/fuzz/rules/lists/${list.id}/items`],
      ['POST', `${server.url}/filters/validate-expr`],
    ];
    await fc.assert(fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue({ maxDepth: 3 }), async ([method, url], body) => {
      const r = await call(method, url, body);
      expect([200, 400, 404]).toContain(r.status);
      if (r.status !== 200) expect(r.body.success).toBe(false);
    }), { numRuns: 400 });
  });
});
