// Every example of the interface spec (and the vendor documentation examples it abstracts), sent
// word for word with plain HTTP: paths in the spec's canonical spelling (`edge`, `edge_transit`,
// `$svc.*`), Bearer credentials for the ATP endpoints and e-mail + key for rulesets and
// validate-expr (spec section 5), envelopes checked field by field.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/api/server.js';
import { BEARER, call, cfg, KEY_AUTH, start } from './helpers.js';

const ACCOUNT = '023e105f4ecef8ad9ca31a8372d0c353';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let server: RunningServer;
let base: string;

beforeAll(async () => {
  server = await start();
  base = cfg(server.url, ACCOUNT);
});
afterAll(() => server.close());

const okEnvelope = (result: unknown) => ({ result, success: true, errors: [], messages: [] });

describe('4.1 Advanced TCP Protection (spec examples)', () => {
  it('GET tcp_protection_status is {enabled:false} initially; PATCH {enabled:true} turns it on', async () => {
    expect(await call('GET', `${base}/tcp_protection_status`)).toMatchObject({ status: 200, body: okEnvelope({ enabled: false }) });
    expect(await call('PATCH', `${base}/tcp_protection_status`, { enabled: true })).toMatchObject({ status: 200, body: okEnvelope({ enabled: true }) });
    expect((await call('GET', `${base}/tcp_protection_status`)).body.result).toEqual({ enabled: true });
  });

  it('POST prefixes/bulk creates in request order with id and timestamps; GET prefixes lists them', async () => {
    const body = [
      { prefix: '192.0.2.0/24', comment: 'Game ranges', excluded: false },
      { prefix: '192.0.2.0/26', comment: 'Range for a specific game', excluded: true },
    ];
    const r = await call('POST', `${base}/prefixes/bulk`, body);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.result.map((p: object) => ({ ...p }))).toHaveLength(2);
    r.body.result.forEach((p: Record<string, unknown>, i: number) => {
      expect(Object.keys(p)).toEqual(['id', 'prefix', 'comment', 'excluded', 'created_on', 'modified_on']);
      expect(p).toMatchObject(body[i]);
      expect(p.id).toMatch(UUID);
      expect(p.created_on).toMatch(ISO);
    });
    const list = await call('GET', `${base}/prefixes`);
    expect(list.body.result.map((p: Record<string, unknown>) => [p.prefix, p.comment, p.excluded])).toEqual([
      ['192.0.2.0/24', 'Game ranges', false],
      ['192.0.2.0/26', 'Range for a specific game', true],
    ]);
  });

  it('the vendor docs example 192.0.2.2/26 has host bits set and is refused with the likely intended prefix', async () => {
    const r = await call('POST', `${base}/prefixes/bulk`, [{ prefix: '192.0.2.2/26', comment: 'Range for a specific game', excluded: true }]);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ code: 1007, message: '[0].prefix: "192.0.2.2/26": host bits are set (did you mean 192.0.2.0/26?)', source: { pointer: '/0/prefix' } }]);
  });

  it('POST allowlist echoes the object with id and timestamps; GET allowlist lists it', async () => {
    const body = { prefix: '203.0.113.0/26', comment: 'Partner range', enabled: true };
    const r = await call('POST', `${base}/allowlist`, body);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject(body);
    expect(Object.keys(r.body.result)).toEqual(['id', 'prefix', 'comment', 'enabled', 'created_on', 'modified_on']);
    expect((await call('GET', `${base}/allowlist`)).body.result).toEqual([r.body.result]);
  });

  it('POST syn_protection/rules and tcp_flow_protection/rules', async () => {
    const syn = { scope: 'region', name: 'WEUR', mode: 'monitoring', rate_sensitivity: 'medium', burst_sensitivity: 'medium' };
    const r1 = await call('POST', `${base}/syn_protection/rules`, syn);
    expect(r1.status).toBe(200);
    expect(r1.body.result).toMatchObject({ ...syn, mitigation_type: 'challenge' });
    expect(r1.body.result.id).toMatch(UUID);
    const oos = { scope: 'region', name: 'WEUR', mode: 'monitoring', rate_sensitivity: 'low', burst_sensitivity: 'low' };
    const r2 = await call('POST', `${base}/tcp_flow_protection/rules`, oos);
    expect(r2.status).toBe(200);
    expect(r2.body.result).toMatchObject(oos);
    expect(r2.body.result).not.toHaveProperty('mitigation_type');
  });

  it('POST syn_protection/filters and tcp_flow_protection/filters', async () => {
    const f1 = { expression: 'ip.dst in { 192.0.2.0/24 }', mode: 'monitoring' };
    const f2 = { expression: 'ip.dst in { 203.0.113.0/24 } and tcp.dstport in { 8000..8081 }', mode: 'disabled' };
    const r1 = await call('POST', `${base}/syn_protection/filters`, f1);
    const r2 = await call('POST', `${base}/tcp_flow_protection/filters`, f2);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.body.result).toMatchObject(f1);
    expect(r2.body.result).toMatchObject(f2);
    expect(Object.keys(r2.body.result)).toEqual(['id', 'expression', 'mode', 'created_on', 'modified_on']);
  });

  it('the vendor spelling `magic` reaches the same account data', async () => {
    const viaMagic = await call('GET', `${cfg(server.url, ACCOUNT, 'magic')}/prefixes`);
    expect(viaMagic.body.result).toEqual((await call('GET', `${base}/prefixes`)).body.result);
  });
});

describe('4.2 Rulesets (spec examples, e-mail + key credentials)', () => {
  const rulesets = () => `${server.url}/accounts/${ACCOUNT}/rulesets`;

  it('POST a root edge_transit ruleset with a skip rule then a block rule keeps the order', async () => {
    const body = {
      name: 'Example ruleset', kind: 'root', phase: 'edge_transit', description: 'Example ruleset description',
      rules: [
        { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in { 8080 } ', description: 'Allow port 8080' },
        { action: 'block', expression: 'tcp.dstport in { 1..65535 }', description: 'Block all TCP ports' },
      ],
    };
    const r = await call('POST', rulesets(), body, KEY_AUTH);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(r.body.result).toMatchObject({ name: 'Example ruleset', kind: 'root', phase: 'edge_transit', version: '1', description: 'Example ruleset description' });
    expect(r.body.result.rules.map((x: Record<string, unknown>) => [x.action, x.action_parameters, x.expression, x.enabled])).toEqual([
      ['skip', { ruleset: 'current' }, 'tcp.dstport in { 8080 } ', true],
      ['block', undefined, 'tcp.dstport in { 1..65535 }', true],
    ]);
    const del = await call('DELETE', `${rulesets()}/${r.body.result.id}`, undefined, KEY_AUTH);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
  });

  it('accepts block rules on ip.geoip.country and on the managed list $svc.anonymizer (and $cf.anonymizer)', async () => {
    const body = {
      name: 'geo and lists', kind: 'root', phase: 'magic_transit', description: '',
      rules: [
        { action: 'block', expression: 'ip.geoip.country == "BR"', description: 'Block Brazil' },
        { action: 'block', expression: 'ip.src in $svc.anonymizer', description: 'Block anonymizers' },
        { action: 'block', expression: 'ip.src in $cf.botnetcc', description: 'vendor spelling' },
      ],
    };
    const r = await call('POST', rulesets(), body, KEY_AUTH);
    expect(r.status).toBe(200);
    expect(r.body.result.phase).toBe('magic_transit'); // answered in the spelling the request used
    expect(r.body.result.rules).toHaveLength(3);
  });
});

describe('4.3 Expression validation (spec and vendor examples)', () => {
  it('GET ?expression=ip.src==34: HTTP 400, result null, messages null, the engine message exactly', async () => {
    const r = await call('GET', `${server.url}/filters/validate-expr?expression=ip.src==34`, undefined, KEY_AUTH);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: null,
      success: false,
      errors: [{ message: 'Filter parsing error (1:9):\nip.src==34\n        ^^ couldn\'t parse address in network: invalid IP address syntax\n' }],
      messages: null,
    });
  });

  it('POST with the IPv6 mask /2000: the number-too-large reason under the mask', async () => {
    const expression = 'ip.src in {2400:cb00::/32 2405:8100::/2000 2c0f:f248::/32 2a06:98c0::/29}';
    const r = await call('POST', `${server.url}/filters/validate-expr`, { expression }, KEY_AUTH);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: null,
      success: false,
      errors: [{ message: `Filter parsing error (1:39):\n${expression}\n${' '.repeat(38)}^^^^ couldn't parse length in network: number too large to fit in target type\n` }],
      messages: null,
    });
  });

  it('a valid expression: HTTP 200 with the empty success envelope, by GET and POST', async () => {
    const ok = { result: null, success: true, errors: [], messages: [] };
    const expression = 'ip.dst in { 192.0.2.0/24 203.0.113.0/24 } and tcp.dstport in { 80 443 10000..65535 }';
    expect(await call('GET', `${server.url}/filters/validate-expr?expression=${encodeURIComponent(expression)}`, undefined, KEY_AUTH)).toMatchObject({ status: 200, body: ok });
    expect(await call('POST', `${server.url}/filters/validate-expr`, { expression }, KEY_AUTH)).toMatchObject({ status: 200, body: ok });
  });

  // reference/wirefilter.md §1.9: a list name is `[a-z0-9_.]+`, not starting or ending with ".",
  // and names are not checked at parse time: there is no "unknown list" error in the engine
  it('any well-formed list name is valid, managed or not, as the engine answers', async () => {
    const ok = { result: null, success: true, errors: [], messages: [] };
    for (const expression of ['ip.dst in $svc.mal', 'ip.src in $cf.anonymiser', 'ip.src in $office', 'ip.src in $constructor']) {
      expect(await call('POST', `${server.url}/filters/validate-expr`, { expression }, KEY_AUTH)).toMatchObject({ status: 200, body: ok });
    }
    const name = fc.stringMatching(/^[a-z0-9_]([a-z0-9_.]{0,20}[a-z0-9_])?$/);
    await fc.assert(fc.asyncProperty(fc.constantFrom('ip.src', 'ip.dst'), name, async (field, list) => {
      const r = await call('GET', `${server.url}/filters/validate-expr?expression=${encodeURIComponent(`${field} in $${list}`)}`, undefined, KEY_AUTH);
      expect([list, r.status, r.body]).toEqual([list, 200, ok]);
    }), { numRuns: 150 });
  });

  it('validation changes no configuration', async () => {
    const before = (await call('GET', `${server.url}/accounts/${ACCOUNT}/rulesets`, undefined, BEARER)).body.result;
    await call('POST', `${server.url}/filters/validate-expr`, { expression: 'tcp.dstport == 22' }, KEY_AUTH);
    expect((await call('GET', `${server.url}/accounts/${ACCOUNT}/rulesets`, undefined, BEARER)).body.result).toEqual(before);
  });
});
