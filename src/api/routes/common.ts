// Small helpers every route module shares: reading the account, the query and the validated
// body from a request, finding an object by id (404 otherwise), and writing objects with their keys
// in the resource's declared order so responses and exports are stable and diffable.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Resource } from '../../config/resources.js';
import type { JsonSchema } from '../../config/schema.js';
import { ApiError } from '../errors.js';
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
