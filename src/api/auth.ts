// Credentials as the vendor takes them: `Authorization: Bearer <token>`, or `X-Auth-Email` with
// `X-Auth-Key`. Missing or malformed ones are a 401. In open mode (no credential table) any
// well-formed credentials may do anything: a local mock has no users. With a table
// (credentials.ts), credentials it does not hold are a 403, and so is a request for an account the
// credentials hold no grant for, or a write with a read grant. A client may send several kinds at
// once (the official SDK does when configured so): their grants add up. An account's own grant
// takes precedence over a "*" grant. The check fails closed: only a grant of exactly "write", or
// of the access asked for, lets a request through.
import type { IncomingHttpHeaders } from 'node:http';
import type { Access, CredentialTable, Grants } from './credentials.js';
import { ApiError } from './errors.js';

interface Presented {
  token?: string;
  key?: string;
  email?: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function presented(headers: IncomingHttpHeaders): Presented {
  const out: Presented = {};
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const m = /^Bearer +(\S+)\s*$/i.exec(authorization);
    if (!m) throw new ApiError('missing_credentials', 'the Authorization header must be "Bearer <API token>"');
    out.token = m[1];
  }
  const key = header(headers, 'x-auth-key');
  const email = header(headers, 'x-auth-email');
  if (key !== undefined || email !== undefined) {
    if (!key || !email) throw new ApiError('missing_credentials', 'X-Auth-Key and X-Auth-Email must be sent together');
    if (!email.includes('@')) throw new ApiError('missing_credentials', `X-Auth-Email ${JSON.stringify(email)} is not an e-mail address`);
    out.key = key;
    out.email = email;
  }
  return out;
}

function permits(grants: Grants, account: string, access: Access): boolean {
  const granted = grants.get(account) ?? grants.get('*');
  return granted === 'write' || granted === access;
}

/**
 * Throws a 401 (missing or malformed credentials) or a 403 (credentials not in `table`, or without
 * `access` to `account`). `account` is undefined for routes outside any account (validate-expr),
 * which any accepted credentials may use.
 */
export function authenticate(headers: IncomingHttpHeaders, table: CredentialTable | undefined, account: string | undefined, access: Access): void {
  const p = presented(headers);
  if (p.token === undefined && p.key === undefined) {
    throw new ApiError('missing_credentials', 'missing credentials: send "Authorization: Bearer <API token>", or X-Auth-Email and X-Auth-Key');
  }
  if (table === undefined) return;
  const held: Grants[] = [
    ...table.tokens.filter((t) => t.token === p.token).map((t) => t.accounts),
    ...table.keys.filter((k) => k.key === p.key && k.email === p.email).map((k) => k.accounts),
  ];
  if (held.length === 0) throw new ApiError('bad_credentials', 'the credentials were not accepted');
  if (account === undefined) return;
  if (!held.some((grants) => permits(grants, account, access))) throw new ApiError('not_permitted', `these credentials may not ${access} account ${JSON.stringify(account)}`);
}
