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
// Export walks every paginated list to its end: page-number lists until an empty page (as the
// official SDK does), cursor lists until no cursor is returned. A server that ignores `page` would
// make that loop endless, so a page that repeats the previous one is an error.
//
// Import has replace semantics per resource: each key present in the snapshot replaces that
// resource in the account (the ATP collections are bulk-deleted first, edge_transit rulesets and IP
// lists are deleted one by one); a key absent from the snapshot leaves that resource untouched, and
// the summary says which were replaced and which were left as they were.
// Server-assigned fields (ids, timestamps, versions, counts) are dropped before sending, but a
// rule's `ref` is kept, so reports name the same rules after an import. The snapshot is validated
// locally before the first request, so a bad file changes nothing. So `export(import(S))` equals
// `S` except for server-assigned fields, when importing into an empty account.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { systemErrorText, UserError } from '../errors.js';
import {
  ALLOWLIST_ENTRY, FILTER, FLOW_RULE, LIMITS, LIST, LIST_ITEM, PREFIX, RULESET, RULESET_RULE, SYN_RULE, type Resource,
} from './resources.js';
import type {
  AccountList, AllowlistEntry, ListItem, Prefix, ProtectionComponent, ProtectionFilter, ProtectionRule, ProtectionStatus, Ruleset, RulesetRule, Snapshot,
} from './snapshot.js';
import { validateSnapshot } from './validate.js';
import { counted } from '../numbers.js';

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

/** A resource of an account that an import replaces as a whole, named by its snapshot key. */
export type ResourceKey =
  | 'tcp_protection_status' | 'prefixes' | 'allowlist'
  | 'syn_protection.rules' | 'syn_protection.filters' | 'tcp_flow_protection.rules' | 'tcp_flow_protection.filters'
  | 'rulesets' | 'lists';

const RESOURCE_KEYS: readonly ResourceKey[] = [
  'tcp_protection_status', 'prefixes', 'allowlist',
  'syn_protection.rules', 'syn_protection.filters', 'tcp_flow_protection.rules', 'tcp_flow_protection.filters',
  'rulesets', 'lists',
];

/** What an import did: each resource replaced (with how many objects it now holds), and the ones left as they were. */
export interface ImportSummary {
  replaced: Array<{ key: ResourceKey; count: number; items?: number }>;
  left: ResourceKey[];
}

type Obj = Record<string, unknown>;

interface Envelope {
  result?: unknown;
  result_info?: { cursor?: string; cursors?: { after?: string } };
  success?: boolean;
  errors?: Array<{ message?: string }>;
}

const PAGE_SIZE = 100;
const ITEMS_PAGE_SIZE = 500;
const ITEMS_PER_REQUEST = 10_000;
const TIMEOUT_MS = 60_000;
const PHASES = new Set(['edge_transit', 'magic_transit']);

const COMPONENTS = [
  { key: 'syn_protection', path: 'syn_protection', rule: SYN_RULE },
  { key: 'tcp_flow_protection', path: 'tcp_flow_protection', rule: FLOW_RULE },
] as const;

interface Reply {
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

class Api {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(readonly target: ApiTarget) {
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

  async call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Envelope> {
    const qs = new URLSearchParams(query).toString();
    const url = `${this.base}${path}${qs ? `?${qs}` : ''}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = text === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
    let response: Reply;
    try {
      response = await send(url, method, headers, text);
    } catch (err) {
      throw new UserError(`cannot reach the API at ${url}: ${systemErrorText(err)}`);
    }
    if (response.status === 204) return { success: true };
    let envelope: Envelope;
    try {
      envelope = JSON.parse(response.text) as Envelope;
    } catch {
      throw new UserError(`${method} ${url}: HTTP ${response.status}: the response is not JSON`);
    }
    if (response.status < 200 || response.status > 299 || envelope.success === false) {
      const messages = (envelope.errors ?? []).map((e) => (e.message ?? '').replace(/\n$/, '')).filter(Boolean);
      throw new UserError(`${method} ${url}: HTTP ${response.status}: ${messages.join('; ') || response.statusText || 'request failed'}`);
    }
    return envelope;
  }

  async result<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call(method, path, body)).result as T;
  }

  /** Every item of a page-number list: pages 1, 2, … until an empty page. */
  async allPages(path: string): Promise<Obj[]> {
    const out: Obj[] = [];
    let previous = '';
    for (let page = 1; ; page++) {
      const items = (await this.call('GET', path, undefined, { page: String(page), per_page: String(PAGE_SIZE) })).result;
      if (!Array.isArray(items)) throw new UserError(`GET ${this.base}${path}: the result is not a list`);
      if (items.length === 0) return out;
      const signature = JSON.stringify(items.map((i: Obj) => i.id ?? i));
      if (signature === previous) throw new UserError(`GET ${this.base}${path}: page ${page} repeats page ${page - 1}; the server ignores pagination`);
      previous = signature;
      out.push(...(items as Obj[]));
    }
  }

  /** Every item of a cursor list: follows `cursor` (or `cursors.after`) until none is returned. */
  async allCursors(path: string, query: Record<string, string> = {}): Promise<Obj[]> {
    const out: Obj[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const envelope = await this.call('GET', path, undefined, cursor === undefined ? query : { ...query, cursor });
      if (!Array.isArray(envelope.result)) throw new UserError(`GET ${this.base}${path}: the result is not a list`);
      out.push(...(envelope.result as Obj[]));
      cursor = envelope.result_info?.cursors?.after ?? envelope.result_info?.cursor ?? undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new UserError(`GET ${this.base}${path}: the server returned cursor ${cursor} twice`);
        seen.add(cursor);
      }
    } while (cursor);
    return out;
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

const stored = (resource: Resource) => (obj: Obj): Obj => pick(resource, obj, true);

/** Reads the account's whole configuration from the API into a validated snapshot. */
export async function exportSnapshot(target: ApiTarget): Promise<Snapshot> {
  const api = new Api(target);
  const status = await api.result<ProtectionStatus>('GET', `${api.cfg}/tcp_protection_status`);
  const snapshot: Obj = {
    tcp_protection_status: { enabled: Boolean(status?.enabled) },
    prefixes: (await api.allPages(`${api.cfg}/prefixes`)).map(stored(PREFIX)),
    allowlist: (await api.allPages(`${api.cfg}/allowlist`)).map(stored(ALLOWLIST_ENTRY)),
  };
  for (const c of COMPONENTS) {
    snapshot[c.key] = {
      rules: (await api.allPages(`${api.cfg}/${c.path}/rules`)).map(stored(c.rule)),
      filters: (await api.allPages(`${api.cfg}/${c.path}/filters`)).map(stored(FILTER)),
    };
  }
  const rulesets: Obj[] = [];
  for (const summary of await api.allCursors(`${api.account}/rulesets`)) {
    if (summary.kind !== 'root' || !PHASES.has(summary.phase as string)) continue;
    const full = await api.result<Obj>('GET', `${api.account}/rulesets/${encodeURIComponent(String(summary.id))}`);
    rulesets.push({ ...pick(RULESET, full, true), rules: ((full.rules ?? []) as Obj[]).map(stored(RULESET_RULE)) });
  }
  snapshot.rulesets = rulesets;
  const lists: Obj[] = [];
  for (const list of await api.result<Obj[]>('GET', `${api.account}/rules/lists`) ?? []) {
    if (list.kind !== 'ip') continue;
    const items = await api.allCursors(`${api.account}/rules/lists/${encodeURIComponent(String(list.id))}/items`, { per_page: String(ITEMS_PAGE_SIZE) });
    lists.push({ ...pick(LIST, list, true), items: items.map(stored(LIST_ITEM)) });
  }
  snapshot.lists = lists;
  return validateSnapshot(snapshot, `export of account ${target.account} from ${target.url}`);
}

const body = (resource: Resource, obj: object): Obj => pick(resource, obj as Obj, false);

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Writes `snapshot` into the account with replace semantics per resource present (see the top of
 * this file). The snapshot is validated first; nothing is sent if it is invalid.
 */
export async function importSnapshot(snapshot: Snapshot, target: ApiTarget): Promise<ImportSummary> {
  const s = validateSnapshot(snapshot, 'snapshot');
  const api = new Api(target);
  const replaced: ImportSummary['replaced'] = [];

  if (s.tcp_protection_status) {
    await api.call('PATCH', `${api.cfg}/tcp_protection_status`, { enabled: s.tcp_protection_status.enabled });
    replaced.push({ key: 'tcp_protection_status', count: s.tcp_protection_status.enabled ? 1 : 0 });
  }
  if (s.prefixes) {
    await api.call('DELETE', `${api.cfg}/prefixes`);
    for (const chunk of chunks(s.prefixes, LIMITS.prefixesPerBulk)) {
      await api.call('POST', `${api.cfg}/prefixes/bulk`, chunk.map((p: Prefix) => body(PREFIX, p)));
    }
    replaced.push({ key: 'prefixes', count: s.prefixes.length });
  }
  if (s.allowlist) {
    await api.call('DELETE', `${api.cfg}/allowlist`);
    for (const entry of s.allowlist as AllowlistEntry[]) await api.call('POST', `${api.cfg}/allowlist`, body(ALLOWLIST_ENTRY, entry));
    replaced.push({ key: 'allowlist', count: s.allowlist.length });
  }
  for (const c of COMPONENTS) {
    const component = s[c.key] as ProtectionComponent | undefined;
    if (component?.rules) {
      await api.call('DELETE', `${api.cfg}/${c.path}/rules`);
      for (const rule of component.rules as ProtectionRule[]) await api.call('POST', `${api.cfg}/${c.path}/rules`, body(c.rule, rule));
      replaced.push({ key: `${c.key}.rules`, count: component.rules.length });
    }
    if (component?.filters) {
      await api.call('DELETE', `${api.cfg}/${c.path}/filters`);
      for (const filter of component.filters as ProtectionFilter[]) await api.call('POST', `${api.cfg}/${c.path}/filters`, body(FILTER, filter));
      replaced.push({ key: `${c.key}.filters`, count: component.filters.length });
    }
  }

  if (s.rulesets) {
    for (const existing of await api.allCursors(`${api.account}/rulesets`)) {
      if (PHASES.has(existing.phase as string)) await api.call('DELETE', `${api.account}/rulesets/${encodeURIComponent(String(existing.id))}`);
    }
  }
  if (s.lists) {
    for (const existing of await api.result<Obj[]>('GET', `${api.account}/rules/lists`) ?? []) {
      if (existing.kind === 'ip') await api.call('DELETE', `${api.account}/rules/lists/${encodeURIComponent(String(existing.id))}`);
    }
    let items = 0;
    for (const list of s.lists as AccountList[]) {
      const created = await api.result<Obj>('POST', `${api.account}/rules/lists`, body(LIST, list));
      for (const chunk of chunks(list.items ?? [], ITEMS_PER_REQUEST)) {
        await api.call('POST', `${api.account}/rules/lists/${encodeURIComponent(String(created.id))}/items`, chunk.map((i: ListItem) => body(LIST_ITEM, i)));
      }
      items += list.items?.length ?? 0;
    }
    replaced.push({ key: 'lists', count: s.lists.length, items });
  }
  if (s.rulesets) {
    for (const rs of s.rulesets as Ruleset[]) {
      const rules = (rs.rules ?? []).map((r: RulesetRule) => {
        const { id, ...rest } = body(RULESET_RULE, r);
        return { ...rest, ref: r.ref ?? id };
      });
      await api.call('POST', `${api.account}/rulesets`, { ...body(RULESET, rs), phase: 'magic_transit', rules });
    }
    replaced.push({ key: 'rulesets', count: s.rulesets.length });
  }
  replaced.sort((a, b) => RESOURCE_KEYS.indexOf(a.key) - RESOURCE_KEYS.indexOf(b.key));
  return { replaced, left: RESOURCE_KEYS.filter((key) => !replaced.some((r) => r.key === key)) };
}

const NAMES: Record<ResourceKey, [one: string, many: string]> = {
  tcp_protection_status: ['protection status', 'protection status'],
  prefixes: ['prefix', 'prefixes'],
  allowlist: ['allowlist entry', 'allowlist entries'],
  'syn_protection.rules': ['SYN flood rule', 'SYN flood rules'],
  'syn_protection.filters': ['SYN flood filter', 'SYN flood filters'],
  'tcp_flow_protection.rules': ['out-of-state TCP rule', 'out-of-state TCP rules'],
  'tcp_flow_protection.filters': ['out-of-state TCP filter', 'out-of-state TCP filters'],
  rulesets: ['ruleset', 'rulesets'],
  lists: ['list', 'lists'],
};

/**
 * The summary in words: `replaced: 2 prefixes, 0 rulesets, protection on; left as they were:
 * allowlist entries, …` (a resource in the snapshot, even empty, is replaced; one absent is left).
 */
export function describeImport(summary: ImportSummary): string {
  const replaced = summary.replaced.map(({ key, count, items }) => {
    if (key === 'tcp_protection_status') return `protection ${count === 1 ? 'on' : 'off'}`;
    const text = counted(count, ...NAMES[key]);
    return items === undefined ? text : `${text} (${counted(items, 'item')})`;
  });
  const parts = [`replaced: ${replaced.length > 0 ? replaced.join(', ') : 'nothing'}`];
  if (summary.left.length > 0) parts.push(`left as they were: ${summary.left.map((key) => NAMES[key][1]).join(', ')}`);
  return parts.join('; ');
}
