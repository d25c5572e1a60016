// Reading a whole configuration from a running API into a snapshot, and writing a snapshot back.
//
// The client speaks the vendor's spelling on the wire (path segment `magic`, phase
// `magic_transit`), which the mock accepts as aliases, so the same code can also read the vendor's
// API. Everything read is reduced to the fields the snapshot schema knows and validated, so an
// export is always a snapshot file that loads.
//
// Requests go through node:http(s) rather than fetch: fetch refuses ports on its blocked list
// (6000, 6665-6669, ...), and the client must reach any port our own server listens on.
//
// Export walks every paginated list to its end: page-number lists until an empty page, cursor
// lists until no cursor is returned or a page is empty (the official SDK stops on an empty page
// too). A server that ignores `page`, repeats a cursor, or keeps answering pages would make that
// loop endless: a page that repeats the previous one, a cursor seen before, and more than
// MAX_PAGES pages are each an error of one line.
//
// A signal (Ctrl-C) given to an Api stops it between two requests, never in the middle of one: the
// request in flight is answered, and the next one throws Interrupted instead of being sent.
//
// Server-assigned fields (ids, timestamps, versions, counts) are kept in an export and dropped
// from request bodies (`body`). Writing a snapshot into an account is import.ts, over this client.
// An export file spells the phase as the vendor does (`inVendorSpelling`), so it can go to the
// vendor's API unchanged; the snapshot loader reads either spelling.
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { systemErrorText, UserError } from '../errors.js';
import { groupDigits } from '../numbers.js';
import {
  ALLOWLIST_ENTRY, COMPONENT_RULES, FILTER, LIST, LIST_ITEM, PHASE, PHASE_SPELLINGS, PREFIX, RULESET, RULESET_RULE, type Resource,
} from './resources.js';
import type { ProtectionStatus, Snapshot } from './snapshot.js';
import { validateSnapshot } from './validate.js';

/** Where the API is and how to authenticate. */
export interface ApiTarget {
  /** base URL, e.g. `http://127.0.0.1:8787/client/v4` */
  url: string;
  account: string;
  /** API token (`Authorization: Bearer`) */
  token?: string;
  /** API key and e-mail (`X-Auth-Key`, `X-Auth-Email`) */
  key?: string;
  email?: string;
}

export type Obj = Record<string, unknown>;

export interface Envelope {
  result?: unknown;
  result_info?: { cursor?: string; cursors?: { after?: string } };
  success?: boolean;
  errors?: Array<{ message?: string; source?: { pointer?: string } }>;
}

const PAGE_SIZE = 100;
const ITEMS_PAGE_SIZE = 500;
export const ITEMS_PER_REQUEST = 10_000;
const TIMEOUT_MS = 60_000;
/** pages read from one list at most: 100,000 prefixes at 100 a page, 500,000 list items at 500 */
export const MAX_PAGES = 1_000;


export interface Reply {
  status: number;
  statusText: string;
  text: string;
}

/** One HTTP(S) request; rejects with the socket's error (ECONNREFUSED...) or ETIMEDOUT. */
function send(url: string, method: string, headers: IncomingHttpHeaders, body: string | undefined): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = request(url, { method, headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** A refused request as one line: the request, the HTTP status and the server's messages. */
export function refusal(method: string, { url, reply, envelope }: { url: string; reply: Reply; envelope: Envelope }): UserError {
  const messages = (envelope.errors ?? []).map((e) => (e.message ?? '').replace(/\n$/, '')).filter(Boolean);
  return new UserError(`${method} ${url}: HTTP ${reply.status}: ${messages.join('; ') || reply.statusText || 'request failed'}`);
}

/** A signal stopped an Api before a request was sent (the ones before it were answered). */
export class Interrupted extends Error {
  override name = 'Interrupted';

  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
  }
}

export class Api {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  /** `signal`: once aborted (its reason the signal's name, e.g. SIGINT), every later request throws Interrupted */
  constructor(readonly target: ApiTarget, private readonly signal?: AbortSignal) {
    this.base = target.url.replace(/\/+$/, '');
    this.headers = { accept: 'application/json' };
    if (target.token) this.headers.authorization = `Bearer ${target.token}`;
    if (target.key) this.headers['x-auth-key'] = target.key;
    if (target.email) this.headers['x-auth-email'] = target.email;
  }

  get cfg(): string {
    return `/accounts/${encodeURIComponent(this.target.account)}/magic/advanced_tcp_protection/configs`;
  }

  get account(): string {
    return `/accounts/${encodeURIComponent(this.target.account)}`;
  }

  /** One request and its answer, whatever its status; a server that cannot be reached or answers other than JSON is an error. */
  async send(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ url: string; reply: Reply; envelope: Envelope }> {
    if (this.signal?.aborted) throw new Interrupted(String(this.signal.reason));
    const qs = new URLSearchParams(query).toString();
    const url = `${this.base}${path}${qs ? `?${qs}` : ''}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = text === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
    let reply: Reply;
    try {
      reply = await send(url, method, headers, text);
    } catch (err) {
      throw new UserError(`cannot reach the API at ${url}: ${systemErrorText(err)}`);
    }
    if (reply.status === 204) return { url, reply, envelope: { success: true } };
    try {
      return { url, reply, envelope: JSON.parse(reply.text) as Envelope };
    } catch {
      throw new UserError(`${method} ${url}: HTTP ${reply.status}: the response is not JSON`);
    }
  }

  /** One request; an HTTP error or `success: false` is an error naming the request and the server's messages. */
  async call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Envelope> {
    const answer = await this.send(method, path, body, query);
    if (answer.reply.status < 200 || answer.reply.status > 299 || answer.envelope.success === false) throw refusal(method, answer);
    return answer.envelope;
  }

  async result<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call(method, path, body)).result as T;
  }

  /**
   * Whether the routes under `path` take `?dry_run=true`, asked without writing: a GET with a value
   * no server takes, which a server that reads the parameter refuses (a 400 naming dry_run) and
   * one that does not ignores. (The vendor documents dry_run on the writes of its Rulesets API
   * only; a server that ignores it on a GET is taken not to have it, so nothing is ever sent to it
   * with dry_run that it might carry out.)
   */
  async takesDryRun(path: string): Promise<boolean> {
    const answer = await this.send('GET', path, undefined, { dry_run: 'ask' });
    return answer.reply.status === 400 && (answer.envelope.errors ?? []).some((e) => (e.message ?? '').startsWith('dry_run:'));
  }

  /** Every item of a page-number list: pages 1, 2, … until an empty page. */
  async allPages(path: string): Promise<Obj[]> {
    const out: Obj[] = [];
    let previous = '';
    for (let page = 1; ; page++) {
      this.pageLimit(path, page);
      const items = (await this.call('GET', path, undefined, { page: String(page), per_page: String(PAGE_SIZE) })).result;
      if (!Array.isArray(items)) throw new UserError(`GET ${this.base}${path}: the result is not a list`);
      if (items.length === 0) return out;
      const signature = JSON.stringify(items.map((i: Obj) => i.id ?? i));
      if (signature === previous) throw new UserError(`GET ${this.base}${path}: page ${page} repeats page ${page - 1}; the server ignores pagination`);
      previous = signature;
      out.push(...(items as Obj[]));
    }
  }

  /** Every item of a cursor list: follows `cursor` (or `cursors.after`) until none is returned or a page is empty. */
  async allCursors(path: string, query: Record<string, string> = {}): Promise<Obj[]> {
    const out: Obj[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      this.pageLimit(path, page);
      const envelope = await this.call('GET', path, undefined, cursor === undefined ? query : { ...query, cursor });
      if (!Array.isArray(envelope.result)) throw new UserError(`GET ${this.base}${path}: the result is not a list`);
      if (envelope.result.length === 0) return out;
      out.push(...(envelope.result as Obj[]));
      cursor = envelope.result_info?.cursors?.after ?? envelope.result_info?.cursor ?? undefined;
      if (!cursor) return out;
      if (seen.has(cursor)) throw new UserError(`GET ${this.base}${path}: the server returned cursor ${JSON.stringify(cursor)} twice; the list was not read to its end`);
      seen.add(cursor);
    }
  }

  /** Every item of the account's list with this id. */
  listItems(id: unknown): Promise<Obj[]> {
    return this.allCursors(`${this.account}/rules/lists/${encodeURIComponent(String(id))}/items`, { per_page: String(ITEMS_PAGE_SIZE) });
  }

  private pageLimit(path: string, page: number): void {
    if (page > MAX_PAGES) {
      throw new UserError(`GET ${this.base}${path}: stopped after ${groupDigits(MAX_PAGES)} pages, as the server keeps answering with more; the list was not read to its end`);
    }
  }
}

/** The fields of `resource` that `obj` has, in the resource's order; optionally without server fields. */
function pick(resource: Resource, obj: Obj, withServerFields: boolean): Obj {
  const out: Obj = {};
  for (const [key, field] of Object.entries(resource.fields)) {
    if (obj[key] === undefined || field.snapshot) continue;
    if (!withServerFields && field.server) continue;
    out[key] = obj[key];
  }
  return out;
}

/** `obj` as the API stores it: the resource's fields, server fields (ids, times) included. */
export const stored = (resource: Resource) => (obj: Obj): Obj => pick(resource, obj, true);

/** Reads the account's whole configuration from the API into a validated snapshot. */
export async function exportSnapshot(target: ApiTarget, api = new Api(target)): Promise<Snapshot> {
  const status = await api.result<ProtectionStatus>('GET', `${api.cfg}/tcp_protection_status`);
  const snapshot: Obj = {
    tcp_protection_status: { enabled: Boolean(status?.enabled) },
    prefixes: (await api.allPages(`${api.cfg}/prefixes`)).map(stored(PREFIX)),
    allowlist: (await api.allPages(`${api.cfg}/allowlist`)).map(stored(ALLOWLIST_ENTRY)),
  };
  for (const { name } of PROTECTION_COMPONENTS) {
    snapshot[name] = {
      rules: (await api.allPages(`${api.cfg}/${name}/rules`)).map(stored(COMPONENT_RULES[name])),
      filters: (await api.allPages(`${api.cfg}/${name}/filters`)).map(stored(FILTER)),
    };
  }
  const rulesets: Obj[] = [];
  for (const summary of await api.allCursors(`${api.account}/rulesets`)) {
    if (summary.kind !== 'root' || !PHASE_SPELLINGS.includes(summary.phase as string)) continue;
    const full = await api.result<Obj>('GET', `${api.account}/rulesets/${encodeURIComponent(String(summary.id))}`);
    rulesets.push({ ...pick(RULESET, full, true), rules: ((full.rules ?? []) as Obj[]).map(stored(RULESET_RULE)) });
  }
  snapshot.rulesets = rulesets;
  const lists: Obj[] = [];
  for (const list of await api.result<Obj[]>('GET', `${api.account}/rules/lists`) ?? []) {
    if (list.kind !== 'ip') continue;
    const items = await api.listItems(list.id);
    lists.push({ ...pick(LIST, list, true), items: items.map(stored(LIST_ITEM)) });
  }
  snapshot.lists = lists;
  return validateSnapshot(snapshot, `export of account ${target.account} from ${target.url}`);
}

/** `snapshot` with its rulesets' phase in the vendor's spelling (`magic_transit`), for a file meant for the vendor's API. */
export function inVendorSpelling(snapshot: Snapshot): Snapshot {
  return snapshot.rulesets ? { ...snapshot, rulesets: snapshot.rulesets.map((rs) => ({ ...rs, phase: PHASE.vendor })) } : snapshot;
}

/** The fields of `obj` a request body may carry (no server fields). */
export const body = (resource: Resource, obj: object): Obj => pick(resource, obj as Obj, false);

/** `items` cut into runs of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
