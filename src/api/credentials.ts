// Who may use which account. The vendor's tokens and keys each carry permissions for some accounts;
// the mock models that as a table read from `serve --credentials FILE`:
//
//   {
//     "tokens": [ { "token": "T1", "accounts": { "acct-a": "write", "acct-b": "read" } } ],
//     "keys":   [ { "email": "ops@example.com", "key": "K1", "accounts": { "*": "read" } } ]
//   }
//
// "write" includes reading; "*" stands for every account. Reading is GET; every other method writes.
// Grants are kept in a Map: an account id may be any name, `constructor` and `__proto__` included,
// and indexing a plain object with it would find Object.prototype's members instead of no grant.
// Without a table the server is in open mode: any well-formed credentials may read and write every
// account (handy for local work, and what `serve` announces on start-up).
import { readFile } from 'node:fs/promises';
import { ConfigItemError, InputError } from '../errors.js';
import { parseJson } from '../config/json.js';
import { parseWithSchema, type Issue, type JsonSchema } from '../config/schema.js';
import { firstIssueError } from '../config/validate.js';

export type Access = 'read' | 'write';

/** What one token or key + e-mail may do, by account id ("*" = any account). */
export type Grants = ReadonlyMap<string, Access>;

export interface CredentialTable {
  tokens: ReadonlyArray<{ token: string; accounts: Grants }>;
  keys: ReadonlyArray<{ email: string; key: string; accounts: Grants }>;
}

/** The file format, as help text and error messages describe it. */
export const CREDENTIALS_FORMAT =
  '{"tokens": [{"token": "T", "accounts": {"ACCOUNT": "read"|"write", "*": ...}}], "keys": [{"email": "E", "key": "K", "accounts": {...}}]}';

const ACCOUNT_ID = /^([A-Za-z0-9_-]{1,64}|\*)$/;
const GRANTS: JsonSchema = { type: 'object' };
const nonEmpty: JsonSchema = { type: 'string', minLength: 1 };

const SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    tokens: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['token', 'accounts'], properties: { token: nonEmpty, accounts: GRANTS } },
    },
    keys: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['email', 'key', 'accounts'],
        properties: { email: { type: 'string', format: 'email' }, key: nonEmpty, accounts: GRANTS },
      },
    },
  },
};

const VOCABULARY = {
  formats: { email: (v: string) => (/^[^@\s]+@[^@\s]+$/.test(v) ? null : { kind: 'invalid_value' as const, message: `${JSON.stringify(v)} is not an e-mail address` }) },
  checks: {},
};

function grantIssues(grants: Record<string, unknown>, path: Array<string | number>): Issue[] {
  const issues: Issue[] = [];
  for (const [account, access] of Object.entries(grants)) {
    if (!ACCOUNT_ID.test(account)) issues.push({ path: [...path, account], kind: 'invalid_value', message: 'an account id is letters, digits, "-" and "_" (at most 64), or "*"' });
    else if (access !== 'read' && access !== 'write') issues.push({ path: [...path, account], kind: 'invalid_value', message: `must be "read" or "write" (got ${JSON.stringify(access)})` });
  }
  return issues;
}

/** Checks a parsed credentials document; the first problem is thrown as a ConfigItemError naming `source`. */
export function parseCredentials(doc: unknown, source: string): CredentialTable {
  const { value, issues, omitted } = parseWithSchema(SCHEMA, doc, VOCABULARY);
  const table = value as { tokens?: Array<{ token: string; accounts: Record<string, unknown> }>; keys?: Array<{ email: string; key: string; accounts: Record<string, unknown> }> };
  if (issues.length === 0) {
    table.tokens?.forEach((t, i) => issues.push(...grantIssues(t.accounts, ['tokens', i, 'accounts'])));
    table.keys?.forEach((k, i) => issues.push(...grantIssues(k.accounts, ['keys', i, 'accounts'])));
  }
  if (issues.length > 0) throw firstIssueError(issues, omitted, source);
  if (!table.tokens?.length && !table.keys?.length) {
    throw new ConfigItemError('', `no credentials: give "tokens" and/or "keys", as ${CREDENTIALS_FORMAT}`, source);
  }
  const grants = (accounts: Record<string, unknown>): Grants => new Map(Object.entries(accounts) as Array<[string, Access]>);
  return {
    tokens: (table.tokens ?? []).map((t) => ({ token: t.token, accounts: grants(t.accounts) })),
    keys: (table.keys ?? []).map((k) => ({ email: k.email, key: k.key, accounts: grants(k.accounts) })),
  };
}

/** Reads and checks a credentials file (see the top of this file for its format). */
export async function loadCredentialsFile(file: string): Promise<CredentialTable> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(file, err, 'cannot read the credentials');
  }
  let doc: unknown;
  try {
    doc = parseJson(text.replace(/^\uFEFF/, ''), { keysAreNames: true });
  } catch (err) {
    throw new ConfigItemError('', (err as Error).message, file);
  }
  return parseCredentials(doc, file);
}

/** A table granting `access` to every account for the given token and/or key (serve --token/--key). */
export function singleCredentials(given: { token?: string; key?: string; email?: string }): CredentialTable {
  const all: Grants = new Map([['*', 'write']]);
  return {
    tokens: given.token === undefined ? [] : [{ token: given.token, accounts: all }],
    keys: given.key === undefined || given.email === undefined ? [] : [{ email: given.email, key: given.key, accounts: all }],
  };
}
