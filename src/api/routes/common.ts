// Small helpers every route module shares: reading the account, the query and the validated
// body from a request, finding an object by id (404 otherwise), writing objects with their keys
// in the resource's declared order so responses and exports are stable and diffable, and a write
// that is only checked when the request says `?dry_run=true`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Resource } from '../../config/resources.js';
import type { JsonSchema } from '../../config/schema.js';
import { ApiError } from '../errors.js';
import type { ItemChanges } from '../item-log.js';
import type { AccountState } from '../state.js';
import type { AccountStore } from '../store.js';

export type Obj = Record<string, unknown>;

/** What route modules need from the server. */
export interface RouteContext {
  app: FastifyInstance;
  store: AccountStore;
  /** rules per ruleset (the vendor's default unless `serve --max-rules` says otherwise) */
  maxRules: number;
}

/** The account id of a request under `/accounts/:account`. */
export function accountOf(req: FastifyRequest): string {
  return (req.params as { account: string }).account;
}

/** A path parameter. */
export function param(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name];
}

/** The query string as single strings; a repeated parameter is an error. */
export function queryOf(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new ApiError('invalid_query', `${key}: must be given once`);
    out[key] = value;
  }
  return out;
}

/**
 * `?dry_run=`: `true` or `false` (absent: false), as the vendor's Rulesets API takes it; any other
 * value is a 400. Checked on every request of the routes that take it (a GET ignores it, but
 * refuses a bad value too, so a client can ask whether the server takes dry_run without writing).
 */
export function dryRunOf(req: FastifyRequest): boolean {
  const value = queryOf(req).dry_run;
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ApiError('invalid_query', `dry_run: must be "true" or "false" (got ${JSON.stringify(value)})`);
}

/** Makes every route under `base` take `?dry_run=`: a bad value is refused once the credentials are checked, before the body is read. */
export function takeDryRun(app: FastifyInstance, base: string): void {
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.url?.startsWith(base)) dryRunOf(req);
  });
}

/**
 * A write to the request's account, or with `?dry_run=true` only its check: `change` runs on a
 * copy of the account (the same validation, the same errors) and nothing is kept; the answer is
 * then null, as the vendor's `result: null`.
 */
export async function writeOrCheck<T>(store: AccountStore, req: FastifyRequest, change: (state: AccountState, items: ItemChanges) => T): Promise<T | null> {
  if (!dryRunOf(req)) return store.write(accountOf(req), change);
  await store.check(accountOf(req), change);
  return null;
}

/** The request body, already validated and normalised against the route's body schema. */
export function bodyOf<T = Obj>(req: FastifyRequest): T {
  return req.body as T;
}

/** A copy of `obj` with keys in the resource's field order (unknown and undefined keys dropped). */
export function ordered<T extends object>(resource: Resource, obj: T): T {
  const src = obj as Obj;
  const out: Obj = {};
  for (const key of Object.keys(resource.fields)) if (src[key] !== undefined) out[key] = src[key];
  return out as T;
}

/** The item with this id, or a 404 naming what was looked for. */
export function findById<T extends { id?: string }>(items: readonly T[], id: string, what: string): T {
  const item = items.find((i) => i.id === id);
  if (!item) throw new ApiError('not_found', `no ${what} with id ${JSON.stringify(id)}`);
  return item;
}

/** Route options declaring a body schema (validated by the server's validator compiler). */
export function withBody(body: JsonSchema): { schema: { body: JsonSchema } } {
  return { schema: { body } };
}
