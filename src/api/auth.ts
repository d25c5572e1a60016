// Credentials as the vendor takes them: `Authorization: Bearer <token>`, or `X-Auth-Email` with
// `X-Auth-Key`. By default any well-formed credentials are accepted (a local mock has no users);
// missing or malformed ones are a 401. When the server is started with a token and/or a key, only
// those are accepted, and other well-formed credentials are a 403. A client may send several kinds
// at once (the official SDK does when configured so); one accepted kind is enough.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './errors.js';

/** Credentials the server insists on; none set = accept any well-formed credentials. */
export interface RequiredCredentials {
  token?: string;
  key?: string;
  email?: string;
}

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

/** Throws a 401 (missing or malformed credentials) or a 403 (credentials not accepted). */
export function authenticate(headers: IncomingHttpHeaders, required: RequiredCredentials): void {
  const p = presented(headers);
  if (p.token === undefined && p.key === undefined) {
    throw new ApiError('missing_credentials', 'missing credentials: send "Authorization: Bearer <API token>", or X-Auth-Email and X-Auth-Key');
  }
  const restricted = required.token !== undefined || required.key !== undefined;
  if (!restricted) return;
  const tokenOk = required.token !== undefined && p.token === required.token;
  const keyOk = required.key !== undefined && p.key === required.key && (required.email === undefined || p.email === required.email);
  if (!tokenOk && !keyOk) throw new ApiError('bad_credentials', 'the credentials were not accepted');
}
