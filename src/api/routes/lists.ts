// Account IP lists (`/accounts/ID/rules/lists`): the named lists rule expressions use as `$name`.
// As the vendor: list CRUD; items listed with cursor pagination, added (an array body), replaced
// (PUT) and deleted by id, each of those three answering `{operation_id}` for a bulk operation
// whose status is then readable. The mock completes every operation before it answers, so the
// status is always `completed`. Adding an address already in the list updates its comment.
// A list used by a rule cannot be deleted (the rule would stop compiling).
// Every write takes `?dry_run=true` as the rulesets' do (routes/common.ts): checked, not kept, `result: null`.
// Items bodies (up to 100,000 items) are checked and prepared in chunks, letting other requests
// run in between, and only then applied, in one synchronous step.
import { CONFLICTS, findConflicts, VOCABULARY } from '../../config/checks.js';
import { listsReferenced } from '../../config/references.js';
import { arrayOf, createSchema, LIMITS, LIST, LIST_ITEM, patchSchema } from '../../config/resources.js';
import { MAX_ISSUES, parseWithSchema, type Issue, type JsonSchema } from '../../config/schema.js';
import type { AccountList, ListItem } from '../../config/snapshot.js';
import { formatCidr, parseCidr } from '../../net/cidr.js';
import { ok } from '../envelope.js';
import { ApiError } from '../errors.js';
import { CHUNK, yieldToOthers } from '../event-loop.js';
import { hexId, timestamp } from '../ids.js';
import { cursorPage } from '../pagination.js';
import type { ItemChanges } from '../item-log.js';
import type { AccountState, StoredList } from '../state.js';
import { accountOf, bodyOf, findById, ordered, param, queryOf, takeDryRun, withBody, writeOrCheck, type Obj, type RouteContext } from './common.js';

const MAX_OPERATIONS = 100;
const DEFAULT_ITEMS_PER_PAGE = 25;
const MAX_ITEMS_PER_PAGE = 1000;

const DELETE_ITEMS: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: arrayOf({ type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' } } }),
  },
};

function referencingRules(state: AccountState, name: string): Array<{ ruleset: string; rule: string }> {
  const out: Array<{ ruleset: string; rule: string }> = [];
  for (const rs of state.rulesets) {
    for (const rule of rs.rules) if (listsReferenced(rule.expression).includes(name)) out.push({ ruleset: rs.id, rule: rule.ref ?? rule.id ?? '' });
  }
  return out;
}

function present(state: AccountState, list: StoredList): AccountList {
  const { items, ...rest } = list;
  return ordered(LIST, { ...rest, num_items: items.length, num_referencing_filters: referencingRules(state, list.name).length });
}

function recordOperation(state: AccountState): { operation_id: string } {
  const op = { id: hexId(), status: 'completed' as const, completed: timestamp() };
  state.operations.push(op);
  if (state.operations.length > MAX_OPERATIONS) state.operations.splice(0, state.operations.length - MAX_OPERATIONS);
  return { operation_id: op.id };
}

const canonical = (ip: string): string => formatCidr(parseCidr(ip));

/**
 * Each items array's index (canonical address -> position), built once and kept up to date by
 * upsert, the only code that changes an items array in place (a replace or a delete makes a new
 * array, which gets a new index): a one-item add to a 100,000-item list then costs one lookup, not
 * 100,000 address parses.
 */
const indexes = new WeakMap<ListItem[], Map<string, number>>();

function indexOf(items: ListItem[]): Map<string, number> {
  let index = indexes.get(items);
  if (!index) {
    index = new Map(items.map((item, i) => [canonical(item.ip), i]));
    indexes.set(items, index);
  }
  return index;
}

/** An item of a request, checked, with its canonical address and the id it takes if it is new. */
interface IncomingItem {
  item: ListItem;
  key: string;
  id: string;
}

const ITEMS_ARRAY: JsonSchema = { type: 'array', maxItems: LIMITS.itemsPerList };
const ITEM = createSchema(LIST_ITEM);

/**
 * Checks an items body (an array of at most 100,000 items, each a list item) and prepares each
 * item, a chunk at a time with the event loop free in between (a 100,000-item upload would
 * otherwise hold every other account for the whole check). Problems are reported as the body
 * validator reports them: each with its path, the first MAX_ISSUES in full.
 */
async function prepareItems(body: unknown): Promise<IncomingItem[]> {
  if (body === undefined || body === null) throw new ApiError('missing_body', 'the request needs a JSON body');
  const outer = parseWithSchema(ITEMS_ARRAY, body, VOCABULARY);
  if (outer.issues.length > 0) throw ApiError.fromIssues(outer.issues, outer.omitted);
  const raw = body as unknown[];
  const prepared: IncomingItem[] = [];
  const issues: Issue[] = [];
  let omitted = 0;
  for (let start = 0; start < raw.length; start += CHUNK) {
    if (start > 0) await yieldToOthers();
    for (let i = start; i < Math.min(raw.length, start + CHUNK); i++) {
      const checked = parseWithSchema(ITEM, raw[i], VOCABULARY, [i]);
      for (const issue of checked.issues) {
        if (issues.length < MAX_ISSUES) issues.push(issue);
        else omitted++;
      }
      omitted += checked.omitted;
      if (issues.length === 0) {
        const item = checked.value as ListItem;
        prepared.push({ item, key: canonical(item.ip), id: hexId() });
      }
    }
  }
  if (issues.length > 0) throw ApiError.fromIssues(issues, omitted);
  return prepared;
}

/**
 * Adds (or updates the comment of) each item; throws before changing anything if over the limit.
 * Returns the items as added or updated (for the item log).
 */
function upsert(list: StoredList, incoming: readonly IncomingItem[]): ListItem[] {
  const index = indexOf(list.items);
  const fresh = new Set(incoming.map((i) => i.key).filter((k) => !index.has(k)));
  if (list.items.length + fresh.size > LIMITS.itemsPerList) {
    throw new ApiError('limit_exceeded', `a list holds at most ${LIMITS.itemsPerList} items (it has ${list.items.length}, the request adds ${fresh.size})`);
  }
  const now = timestamp();
  const changed: ListItem[] = [];
  for (const { item, key, id } of incoming) {
    let at = index.get(key);
    if (at === undefined) {
      at = list.items.length;
      index.set(key, at);
      list.items.push(ordered(LIST_ITEM, { id, ...item, created_on: now, modified_on: now }));
    } else {
      const existing = list.items[at];
      list.items[at] = ordered(LIST_ITEM, { ...existing, comment: item.comment ?? existing.comment, modified_on: now });
    }
    changed.push(list.items[at]);
  }
  list.modified_on = now;
  return changed;
}

function itemsPage(list: StoredList, query: Record<string, string | undefined>): { result: ListItem[]; info: unknown } {
  const search = query.search;
  const items = search === undefined ? list.items : list.items.filter((i) => i.ip.startsWith(search));
  const { result, after, before } = cursorPage(items, query, DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE);
  const cursors: Record<string, string> = {};
  if (after !== undefined) cursors.after = after;
  if (before !== undefined) cursors.before = before;
  return { result, info: { cursors } };
}

/** Registers the list routes under `{prefix}/accounts/:account/rules/lists`. */
export function registerListRoutes({ app, store }: RouteContext, prefix: string): void {
  const base = `${prefix}/accounts/:account/rules/lists`;
  takeDryRun(app, base);
  const listOf = (state: AccountState, id: string) => findById(state.lists, id, 'list');
  const mutate = <B>(fn: (state: AccountState, list: StoredList, body: B, items: ItemChanges) => unknown) => async (req: Parameters<typeof accountOf>[0]) => {
    return ok(await writeOrCheck(store, req, (state, items) => fn(state, listOf(state, param(req, 'id')), bodyOf<B>(req), items)));
  };

  app.get(base, async (req) => ok(await store.read(accountOf(req), (state) => state.lists.map((l) => present(state, l)))));
  app.post(base, withBody(createSchema(LIST)), async (req) => {
    return ok(await writeOrCheck(store, req, (state) => {
      const body = bodyOf<AccountList>(req);
      const conflicts = findConflicts(CONFLICTS.list, [body as unknown as Obj], () => [], state.lists as unknown as Obj[], (l) => `list ${String(l.id)}`);
      if (conflicts.length > 0) throw ApiError.fromIssues(conflicts);
      const now = timestamp();
      const list: StoredList = { id: hexId(), ...body, created_on: now, modified_on: now, items: [] };
      state.lists.push(list);
      return present(state, list);
    }));
  });
  app.get(`${base}/bulk_operations/:operation`, async (req) => {
    return ok(await store.read(accountOf(req), (state) => findById(state.operations, param(req, 'operation'), 'bulk operation')));
  });
  app.get(`${base}/:id`, async (req) => {
    return ok(await store.read(accountOf(req), (state) => present(state, listOf(state, param(req, 'id')))));
  });
  app.put(`${base}/:id`, withBody(patchSchema(LIST)), mutate<Partial<AccountList>>((state, list, body) => {
    if (body.description !== undefined) list.description = body.description;
    list.modified_on = timestamp();
    return present(state, list);
  }));
  app.delete(`${base}/:id`, mutate<undefined>((state, list) => {
    const users = referencingRules(state, list.name);
    if (users.length > 0) {
      const { ruleset, rule } = users[0];
      throw new ApiError('conflict', `list "${list.name}" is used by rule ${JSON.stringify(rule)} of ruleset ${ruleset}${users.length > 1 ? ` and ${users.length - 1} more` : ''}; change those rules first`);
    }
    state.lists.splice(state.lists.indexOf(list), 1);
    return { id: list.id };
  }));

  app.get(`${base}/:id/items`, async (req) => {
    const { result, info } = await store.read(accountOf(req), (state) => itemsPage(listOf(state, param(req, 'id')), queryOf(req)));
    return ok(result, info);
  });
  app.get(`${base}/:id/items/:item`, async (req) => {
    return ok(await store.read(accountOf(req), (state) => findById(listOf(state, param(req, 'id')).items, param(req, 'item'), 'list item')));
  });
  // items bodies are checked by prepareItems (in chunks), not by the route's body schema
  const withItems = (fn: (state: AccountState, list: StoredList, incoming: IncomingItem[], items: ItemChanges) => unknown) => async (req: Parameters<typeof accountOf>[0]) => {
    const incoming = await prepareItems(req.body);
    return ok(await writeOrCheck(store, req, (state, items) => fn(state, listOf(state, param(req, 'id')), incoming, items)));
  };
  app.post(`${base}/:id/items`, withItems((state, list, incoming, items) => {
    items.record({ list: list.id, op: 'add', items: upsert(list, incoming) });
    return recordOperation(state);
  }));
  app.put(`${base}/:id/items`, withItems((state, list, incoming, items) => {
    const replaced: StoredList = { ...list, items: [] };
    upsert(replaced, incoming);
    list.items = replaced.items;
    list.modified_on = replaced.modified_on;
    items.record({ list: list.id, op: 'set', items: list.items });
    return recordOperation(state);
  }));
  app.delete(`${base}/:id/items`, withBody(DELETE_ITEMS), mutate<{ items: Array<{ id: string }> }>((state, list, body, items) => {
    const ids = new Set(list.items.map((i) => i.id));
    const unknown = body.items.map((item, i) => ({ item, i })).filter(({ item }) => !ids.has(item.id));
    if (unknown.length > 0) {
      throw ApiError.fromIssues(unknown.map(({ item, i }) => ({ path: ['items', i, 'id'], kind: 'not_found', message: `no item with id ${JSON.stringify(item.id)} in this list` })));
    }
    const gone = new Set(body.items.map((i) => i.id));
    list.items = list.items.filter((i) => !gone.has(i.id as string));
    items.record({ list: list.id, op: 'remove', ids: [...gone] });
    list.modified_on = timestamp();
    return recordOperation(state);
  }));
}
