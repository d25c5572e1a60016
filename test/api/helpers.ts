// Shared by the API tests: start a server on a free port, call it with fetch, or with the official
// SDK configured so that nothing leaks in from the environment and nothing is retried.
import Cloudflare from 'cloudflare';
import { createServer, type RunningServer, type ServerOptions } from '../../src/api/server.js';
import { tempDir as cleanedTempDir } from '../helpers/temp-dir.js';

export const TOKEN = 'test-token';
export const BEARER = { authorization: `Bearer ${TOKEN}` };
export const KEY_AUTH = { 'x-auth-email': 'user@example.com', 'x-auth-key': 'c2547eb745079dac9320b638f5e225cf483cc5cfdda41' };

/** A fresh folder, removed after the test that made it (or after the file's tests when made outside a test). */
export function tempDir(name = 'edgesim-api-'): string {
  return cleanedTempDir(name);
}

export async function start(options: ServerOptions = {}): Promise<RunningServer> {
  return createServer({ port: 0, ...options });
}

/** ATP configs base for an account, canonical `edge` spelling unless told otherwise. */
export function cfg(url: string, account: string, segment = 'edge'): string {
  return `${url}/accounts/${account}/${segment}/advanced_tcp_protection/configs`;
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** One request with a JSON body (when given) and Bearer credentials unless others are given. */
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = BEARER): Promise<Reply> {
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? undefined : JSON.parse(text), headers: r.headers };
}

/** The official SDK pointed at the mock, with explicit nulls for every credential read from the environment. */
export function sdk(url: string, auth: { apiToken?: string; apiKey?: string; apiEmail?: string } = { apiToken: TOKEN }): Cloudflare {
  return new Cloudflare({
    baseURL: url,
    apiToken: auth.apiToken ?? null,
    apiKey: auth.apiKey ?? null,
    apiEmail: auth.apiEmail ?? null,
    userServiceKey: null,
    maxRetries: 0,
  });
}
