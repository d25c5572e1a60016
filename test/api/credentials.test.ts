// Per-account credentials (`serve --credentials FILE`): each token or key + e-mail may read or write
// the accounts it lists, and anything else is a 403 in the vendor's envelope, which the official
// SDK reports as a PermissionDeniedError. The file is checked on load, each problem named by path.
import Cloudflare from 'cloudflare';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/api/auth.js';
import { loadCredentialsFile, parseCredentials, type Access } from '../../src/api/credentials.js';
import { CONDITIONS } from '../../src/api/errors.js';
import type { RunningServer } from '../../src/api/server.js';
import { ApiError } from '../../src/api/errors.js';
import { ConfigItemError, InputError } from '../../src/errors.js';
import { call, cfg, sdk, start, tempDir } from './helpers.js';

const WRITER = { authorization: 'Bearer writer' };
const KEY = { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'k1' };
const TABLE = {
  tokens: [{ token: 'writer', accounts: { a: 'write', b: 'read' } }],
  keys: [{ email: 'ops@example.com', key: 'k1', accounts: { '*': 'read', c: 'write' } }],
};

let server: RunningServer;
beforeAll(async () => {
  server = await start({ credentials: parseCredentials(TABLE, 'test') });
});
afterAll(() => server.close());

const status = (account: string) => `${cfg(server.url, account)}/tcp_protection_status`;

describe('grants', () => {
  const cases: Array<[string, string, string, Record<string, string>, number, keyof typeof CONDITIONS | null]> = [
    ['a write grant reads', 'GET', 'a', WRITER, 200, null],
    ['a write grant writes', 'PATCH', 'a', WRITER, 200, null],
    ['a read grant reads', 'GET', 'b', WRITER, 200, null],
    ['a read grant does not write', 'PATCH', 'b', WRITER, 403, 'not_permitted'],
    ['no grant, no read', 'GET', 'z', WRITER, 403, 'not_permitted'],
    ['"*" reads any account', 'GET', 'z', KEY, 200, null],
    ['"*": "read" does not write', 'PATCH', 'z', KEY, 403, 'not_permitted'],
    ['an account\'s own grant wins over "*"', 'PATCH', 'c', KEY, 200, null],
    ['a key with the wrong e-mail is refused', 'GET', 'a', { ...KEY, 'x-auth-email': 'other@example.com' }, 403, 'bad_credentials'],
    ['an unknown token is refused', 'GET', 'a', { authorization: 'Bearer nobody' }, 403, 'bad_credentials'],
    ['no credentials: 401', 'GET', 'a', {}, 401, 'missing_credentials'],
  ];
  for (const [name, method, account, headers, expected, condition] of cases) {
    it(`${name}: ${method} ${account} → ${expected}`, async () => {
      const r = await call(method, status(account), method === 'PATCH' ? { enabled: true } : undefined, headers);
      expect(r.status).toBe(expected);
      if (condition === null) expect(r.body.success).toBe(true);
      else expect(r.body).toEqual({ result: null, success: false, errors: [expect.objectContaining({ code: CONDITIONS[condition].code })], messages: [] });
    });
  }

  it('a refused write changes nothing', async () => {
    await call('PATCH', status('b'), { enabled: true }, WRITER);
    expect((await call('GET', status('b'), undefined, WRITER)).body.result).toEqual({ enabled: false });
  });

  it('grants add up when a client sends a token and a key', async () => {
    expect((await call('PATCH', status('a'), { enabled: false }, { ...KEY, ...WRITER })).status).toBe(200);
    expect((await call('PATCH', status('c'), { enabled: false }, { ...KEY, ...WRITER })).status).toBe(200);
  });

  it('validate-expr (no account) takes any accepted credentials', async () => {
    expect((await call('GET', `${server.url}/filters/validate-expr?expression=tcp.dstport%3D%3D1`, undefined, KEY)).status).toBe(200);
    expect((await call('GET', `${server.url}/filters/validate-expr?expression=tcp.dstport%3D%3D1`, undefined, { authorization: 'Bearer x' })).status).toBe(403);
  });

  it('the official SDK sees a 403 as PermissionDeniedError', async () => {
    const client = sdk(server.url, { apiToken: 'writer' });
    await expect(client.DDoSProtection.advancedTCPProtection.status.edit({ account_id: 'b', enabled: true }))
      .rejects.toBeInstanceOf(Cloudflare.PermissionDeniedError);
    await expect(client.DDoSProtection.advancedTCPProtection.status.get({ account_id: 'b' })).resolves.toEqual({ enabled: false });
  });
});

describe('the credentials file', () => {
  const bad: Array<[string, unknown, string]> = [
    ['an unknown top-level key', { token: [] }, 'token: unknown key (expected one of: tokens, keys)'],
    ['a token without accounts', { tokens: [{ token: 't' }] }, 'tokens[0].accounts: is required'],
    ['a bad access', { tokens: [{ token: 't', accounts: { a: 'admin' } }] }, 'tokens[0].accounts.a: must be "read" or "write" (got "admin")'],
    ['a bad account id', { keys: [{ email: 'e@x', key: 'k', accounts: { 'a/b': 'read' } }] }, 'keys[0].accounts.a/b: an account id is letters, digits, "-" and "_" (at most 64), or "*"'],
    ['a bad e-mail', { keys: [{ email: 'nobody', key: 'k', accounts: {} }] }, 'keys[0].email: "nobody" is not an e-mail address'],
    ['nothing in it', {}, 'no credentials: give "tokens" and/or "keys"'],
  ];
  for (const [name, doc, message] of bad) {
    it(`${name} is one line naming the file and the path`, () => {
      let err: unknown;
      try {
        parseCredentials(doc, 'creds.json');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigItemError);
      const line = (err as ConfigItemError).message;
      expect(line.startsWith(`creds.json: ${message}`)).toBe(true);
      expect(line).not.toContain('\n');
    });
  }

  it('two problems: the first, then how many more', () => {
    expect(() => parseCredentials({ tokens: [{ token: '' , accounts: { a: 'x' } }], keys: 3 }, 'f')).toThrow('tokens[0].token: must not be empty (and 1 more problem)');
  });

  it('a missing file and bad JSON are one-line errors naming the file', async () => {
    const dir = tempDir();
    await expect(loadCredentialsFile(path.join(dir, 'none.json'))).rejects.toBeInstanceOf(InputError);
    await expect(loadCredentialsFile(path.join(dir, 'none.json'))).rejects.toThrow('cannot read the credentials: no such file');
    writeFileSync(path.join(dir, 'bad.json'), '{"tokens": [');
    const err = await loadCredentialsFile(path.join(dir, 'bad.json')).catch((e: unknown) => e);
    expect((err as ConfigItemError).message).toMatch(new RegExp(`^${path.join(dir, 'bad.json')}: invalid JSON`));
    writeFileSync(path.join(dir, 'good.json'), JSON.stringify(TABLE));
    expect(await loadCredentialsFile(path.join(dir, 'good.json'))).toEqual({
      tokens: [{ token: 'writer', accounts: new Map([['a', 'write'], ['b', 'read']]) }],
      keys: [{ email: 'ops@example.com', key: 'k1', accounts: new Map([['*', 'read'], ['c', 'write']]) }],
    });
  });
});

// An account id is any of [A-Za-z0-9_-]{1,64}, so `constructor` or `__proto__` is an account like
// any other: a grant lookup must not find Object.prototype's members, and a grant for such an id
// (written in the file as a JSON key) must be kept.
describe('account ids named like built-in object members', () => {
  const BUILT_INS = Object.getOwnPropertyNames(Object.prototype);
  const ONE = { authorization: 'Bearer one' };
  const READER = { 'x-auth-email': 'reader@example.com', 'x-auth-key': 'ro' };
  const NARROW = {
    tokens: [{ token: 'one', accounts: { acc1: 'write' } }],
    keys: [{ email: 'reader@example.com', key: 'ro', accounts: { '*': 'read' } }],
  };

  it('there are 12 of them, and each is a valid account id', () => {
    expect(BUILT_INS).toHaveLength(12);
    for (const id of BUILT_INS) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('over HTTP: a token granted one account and a read-only key neither read nor write them beyond their grants', async () => {
    const narrow = await start({ credentials: parseCredentials(NARROW, 'test') });
    try {
      for (const id of BUILT_INS) {
        const base = cfg(narrow.url, encodeURIComponent(id));
        const add = await call('POST', `${base}/prefixes`, { prefix: '192.0.2.0/24' }, ONE);
        expect([id, add.status, add.body.errors[0]?.code]).toEqual([id, 403, CONDITIONS.not_permitted.code]);
        expect([id, (await call('GET', `${base}/prefixes`, undefined, ONE)).status]).toEqual([id, 403]);
        expect([id, (await call('PATCH', `${base}/tcp_protection_status`, { enabled: true }, READER)).status]).toEqual([id, 403]);
        expect([id, (await call('DELETE', `${base}/prefixes`, undefined, READER)).status]).toEqual([id, 403]);
        expect([id, (await call('GET', `${base}/prefixes`, undefined, READER)).status]).toEqual([id, 200]);
      }
      expect((await call('POST', `${cfg(narrow.url, 'acc1')}/prefixes`, { prefix: '192.0.2.0/24' }, ONE)).status).toBe(200);
    } finally {
      await narrow.close();
    }
  });

  it('a grant for such an id, read from a file, is kept and applies to that account only', async () => {
    const file = path.join(tempDir(), 'creds.json');
    writeFileSync(file, '{"tokens": [{"token": "p", "accounts": {"__proto__": "write", "constructor": "read"}}]}');
    const table = await loadCredentialsFile(file);
    expect(table.tokens[0].accounts).toEqual(new Map([['__proto__', 'write'], ['constructor', 'read']]));
    const headers = { authorization: 'Bearer p' };
    expect(() => authenticate(headers, table, '__proto__', 'write')).not.toThrow();
    expect(() => authenticate(headers, table, 'constructor', 'read')).not.toThrow();
    expect(() => authenticate(headers, table, 'constructor', 'write')).toThrow(ApiError);
    expect(() => authenticate(headers, table, 'toString', 'read')).toThrow(ApiError);
  });

  it('a grant whose value is an object under "__proto__" is refused, not made the prototype', () => {
    expect(() => parseCredentials(JSON.parse('{"tokens": [{"token": "t", "accounts": {"__proto__": {"a": "write"}}}]}'), 'f'))
      .toThrow('tokens[0].accounts.__proto__: must be "read" or "write" (got {"a":"write"})');
  });

  it('property: credentials may do exactly what their own grant, else their "*" grant, allows', () => {
    const id = fc.oneof(fc.constantFrom(...BUILT_INS, 'acc1', 'acc2'), fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/));
    const access = fc.constantFrom<Access>('read', 'write');
    const grants = fc.dictionary(fc.oneof(id, fc.constant('*')), access, { maxKeys: 4 });
    fc.assert(fc.property(grants, id, access, (accounts, account, wanted) => {
      // a JSON text, as the file is read: `__proto__` becomes an own key
      const table = parseCredentials(JSON.parse(JSON.stringify({ tokens: [{ token: 't', accounts }] })), 'f');
      const own = Object.hasOwn(accounts, account) ? accounts[account] : Object.hasOwn(accounts, '*') ? accounts['*'] : undefined;
      const allowed = own === 'write' || own === wanted;
      let refused: unknown = null;
      try {
        authenticate({ authorization: 'Bearer t' }, table, account, wanted);
      } catch (err) {
        refused = err;
      }
      expect(refused === null).toBe(allowed);
      if (refused !== null) expect((refused as ApiError).items[0].code).toBe(CONDITIONS.not_permitted.code);
    }), { numRuns: 2000 });
  });
});
