// The resources `edgesim import` writes, one Part each (import-run.ts): the protection status, each
// Advanced TCP Protection collection, each list the file names, and the root ruleset. For each:
// its plan lines, what it holds (read from the API, in a form that compares), how it is made as the
// file has it and put back as it was, one request at a time, each request's answer saying what
// it then holds; and the requests a server that takes `?dry_run=true` can check before any write.
import { counted } from '../numbers.js';
import { PROTECTION_COMPONENTS, type ComponentName } from '../protection-components.js';
import { Api, body, chunks, ITEMS_PER_REQUEST, stored, type Obj } from './api-client.js';
import { CONFLICTS } from './checks.js';
import type { Held, Part, PlannedChange, Writes } from './import-run.js';
import { listsReferenced } from './references.js';
import {
  ALLOWLIST_ENTRY, COMPONENT_RULES, FILTER, LIMITS, LIST, LIST_ITEM, PHASE, PHASE_SPELLINGS, PREFIX, RULESET, RULESET_RULE, type Resource,
} from './resources.js';
import type { AccountList, Ruleset, RulesetRule, Snapshot } from './snapshot.js';

/** A resource of an account that an import replaces as a whole, named by its snapshot key. */
export type ResourceKey = 'tcp_protection_status' | 'prefixes' | 'allowlist' | ComponentKey | 'rulesets' | 'lists';

/** A protection component's rules or filters (src/protection-components.ts). */
export type ComponentKey = `${ComponentName}.${'rules' | 'filters'}`;

/** A write a server that takes `?dry_run=true` can check before the import writes anything. */
export interface DryRunRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** What of a part the server can check in a dry run: the routes that must take dry_run, the requests, and what they leave unchecked. */
export interface DryRunCheck {
  routes: 'rulesets' | 'lists';
  /** where the file holds the resource, e.g. `lists[1]` */
  path: string;
  requests: DryRunRequest[];
  /** what the requests cannot check, in words */
  notChecked?: string;
}

/** A part and what a server that takes dry_run can check of it. */
export interface ImportPart extends Part {
  dryRun?(api: Api): DryRunCheck;
}

/** An ATP collection: where it lives, how an object is named in a plan, what identifies it. */
export interface Collection {
  key: ResourceKey;
  path: string;
  resource: Resource;
  what: string;
  of(s: Snapshot): Obj[] | undefined;
  label(o: Obj): string;
  identity(o: Obj): string | undefined;
  /** objects per bulk create, when the collection has one */
  bulk?: number;
}

const ruleLabel = (o: Obj): string => `${String(o.scope)} ${JSON.stringify(o.name)}`;
const filterLabel = (o: Obj): string => JSON.stringify(o.expression);
const filterIdentity = (o: Obj): string => JSON.stringify([o.expression, o.mode]);
const objs = (items: unknown): Obj[] | undefined => items as Obj[] | undefined;

export const COLLECTIONS: readonly Collection[] = [
  {
    key: 'prefixes', path: 'prefixes', resource: PREFIX, what: 'prefix', of: (s) => objs(s.prefixes),
    label: (o) => String(o.prefix), identity: CONFLICTS.prefix.key, bulk: LIMITS.prefixesPerBulk,
  },
  { key: 'allowlist', path: 'allowlist', resource: ALLOWLIST_ENTRY, what: 'allowlist entry', of: (s) => objs(s.allowlist), label: (o) => String(o.prefix), identity: CONFLICTS.allowlist.key },
  ...PROTECTION_COMPONENTS.flatMap(({ name, rule, filter }): Collection[] => [
    { key: `${name}.rules`, path: `${name}/rules`, resource: COMPONENT_RULES[name], what: rule, of: (s) => objs(s[name]?.rules), label: ruleLabel, identity: CONFLICTS.protectionRule.key },
    { key: `${name}.filters`, path: `${name}/filters`, resource: FILTER, what: filter, of: (s) => objs(s[name]?.filters), label: filterLabel, identity: filterIdentity },
  ]),
];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
/** values as one string that does not depend on their order */
const unordered = (values: readonly unknown[]): string => JSON.stringify(values.map((v) => JSON.stringify(v)).sort());
const NONE: Held = { content: 'none', exact: 'none' };

// ---- the protection status

const statusHeld = (enabled: boolean): Held => ({ content: JSON.stringify(enabled) });

export function statusPart(was: boolean, now: boolean): ImportPart {
  const onOff = (on: boolean): string => (on ? 'on' : 'off');
  const set = (enabled: boolean) => async (w: Writes): Promise<void> => {
    await w.send('PATCH', `${w.api.cfg}/tcp_protection_status`, { enabled }, () => statusHeld(enabled));
  };
  return {
    label: 'the protection status',
    changes: was === now ? [] : [{ change: '~', what: `protection status: ${onOff(was)} -> ${onOff(now)}` }],
    before: statusHeld(was),
    read: async (api) => statusHeld(Boolean((await api.result<{ enabled?: boolean } | null>('GET', `${api.cfg}/tcp_protection_status`))?.enabled)),
    write: set(now),
    restore: set(was),
  };
}

// ---- the ATP collections

/** A collection's objects: their content, and with ids and times when every object shows them (the vendor's prefix list does not). */
function collectionHeld(c: Collection, items: readonly Obj[]): Held {
  return {
    content: unordered(items.map((o) => body(c.resource, o))),
    exact: items.every((o) => o.id !== undefined) ? unordered(items.map(stored(c.resource))) : undefined,
  };
}

/** Plan lines for a collection going from `before` to `after`, objects matched by identity. */
function collectionChanges(c: Collection, before: readonly Obj[], after: readonly Obj[]): PlannedChange[] {
  const keyOf = (o: Obj): string => c.identity(o) ?? JSON.stringify(body(c.resource, o));
  const old = new Map(before.map((o) => [keyOf(o), o]));
  const changes: PlannedChange[] = [];
  for (const o of after) {
    const was = old.get(keyOf(o));
    old.delete(keyOf(o));
    if (was === undefined) changes.push({ change: '+', what: `${c.what} ${c.label(o)}` });
    else if (!same(body(c.resource, was), body(c.resource, o))) changes.push({ change: '~', what: `${c.what} ${c.label(o)}` });
  }
  for (const o of old.values()) changes.push({ change: '-', what: `${c.what} ${c.label(o)}` });
  return changes;
}

/** Empties the collection, then creates `items` (in bulk where it can); the objects created so far are what it holds. */
async function setCollection(w: Writes, c: Collection, items: readonly Obj[]): Promise<void> {
  const url = `${w.api.cfg}/${c.path}`;
  const created: Obj[] = [];
  await w.send('DELETE', url, undefined, () => collectionHeld(c, []));
  const create = async (path: string, sent: Obj[], payload: unknown): Promise<void> => {
    await w.send('POST', path, payload, (result, answered) => {
      if (!answered) return collectionHeld(c, [...created, ...sent]);
      created.push(...(Array.isArray(result) ? (result as Obj[]) : [result as Obj]));
      return collectionHeld(c, created);
    });
  };
  const bodies = items.map((o) => body(c.resource, o));
  if (c.bulk !== undefined) {
    for (const chunk of chunks(bodies, c.bulk)) await create(`${url}/bulk`, chunk, chunk);
  } else {
    for (const one of bodies) await create(url, [one], one);
  }
}

export function collectionPart(c: Collection, label: string, before: readonly Obj[], after: readonly Obj[]): ImportPart {
  return {
    label,
    changes: collectionChanges(c, before, after),
    before: collectionHeld(c, before),
    read: async (api) => collectionHeld(c, await api.allPages(`${api.cfg}/${c.path}`)),
    write: (w) => setCollection(w, c, after),
    restore: (w) => setCollection(w, c, before),
  };
}

// ---- lists

type ListState = Pick<AccountList, 'id' | 'description' | 'items'>;

const listItemsKey = (l: ListState): string => unordered((l.items ?? []).map((i) => body(LIST_ITEM, i)));

/** A list's description and items, and with its id when known; NONE when there is no such list. */
function listHeld(l: ListState | undefined): Held {
  if (l === undefined) return NONE;
  const content = JSON.stringify([l.description ?? '', listItemsKey(l)]);
  return { content, exact: l.id === undefined ? undefined : JSON.stringify([l.id, content]) };
}

/** The account's list named `name` (from the API, now), if any. */
async function currentList(api: Api, name: string): Promise<Obj | undefined> {
  return (await api.result<Obj[]>('GET', `${api.account}/rules/lists`) ?? []).find((l) => l.name === name);
}

const listUrl = (api: Api, id: unknown): string => `${api.account}/rules/lists/${encodeURIComponent(String(id))}`;

async function readList(api: Api, name: string): Promise<Held> {
  const list = await currentList(api, name);
  if (list === undefined) return NONE;
  return listHeld({ id: list.id as string, description: list.description as string | undefined, items: await api.listItems(list.id) as unknown as AccountList['items'] });
}

/**
 * Makes the list named `name` hold what `target` holds, or removes it when `target` is undefined;
 * `known` is what an existing list holds (its items are replaced last).
 */
async function setList(w: Writes, name: string, target: AccountList | undefined, known: AccountList | undefined): Promise<void> {
  const current = await currentList(w.api, name);
  if (target === undefined) {
    if (current) await w.send('DELETE', listUrl(w.api, current.id), undefined, () => NONE);
    return;
  }
  const now: ListState = current
    ? { id: current.id as string, description: current.description as string | undefined, items: [...(known?.items ?? [])] }
    : { description: target.description, items: [] };
  if (!current) {
    await w.send('POST', `${w.api.account}/rules/lists`, body(LIST, target), (result, answered) => {
      if (answered) now.id = (result as Obj).id as string;
      return listHeld(now);
    });
  }
  const url = listUrl(w.api, now.id);
  if (current && (current.description ?? '') !== (target.description ?? '')) {
    await w.send('PUT', url, { description: target.description ?? '' }, () => listHeld(Object.assign(now, { description: target.description ?? '' })));
  }
  const [first = [], ...rest] = chunks((target.items ?? []).map((i) => body(LIST_ITEM, i)), ITEMS_PER_REQUEST);
  if (current || first.length > 0) await w.send(current ? 'PUT' : 'POST', `${url}/items`, first, () => listHeld(Object.assign(now, { items: [...first] })));
  for (const chunk of rest) await w.send('POST', `${url}/items`, chunk, () => listHeld(Object.assign(now, { items: [...(now.items ?? []), ...chunk] })));
}

export function listPart(before: AccountList | undefined, after: AccountList, index: number): ImportPart {
  const itemsText = (l: AccountList): string => counted(l.items?.length ?? 0, 'item');
  const changes: PlannedChange[] = [];
  const what = `list ${JSON.stringify(after.name)}`;
  if (!before) changes.push({ change: '+', what: `${what} (${itemsText(after)})` });
  else if (listItemsKey(before) !== listItemsKey(after) || (before.description ?? '') !== (after.description ?? '')) {
    changes.push({ change: '~', what: `${what}: ${itemsText(before)} -> ${itemsText(after)}` });
  }
  return {
    label: what,
    changes,
    before: listHeld(before),
    read: (api) => readList(api, after.name),
    write: (w) => setList(w, after.name, after, before),
    restore: (w) => setList(w, after.name, before, after),
    dryRun(api) {
      if (!before) return { routes: 'lists', path: `lists[${index}]`, requests: [{ method: 'POST', path: `${api.account}/rules/lists`, body: body(LIST, after) }], notChecked: 'not its items, as the list does not exist until it is created' };
      const url = listUrl(api, before.id);
      const requests: DryRunRequest[] = [];
      if ((before.description ?? '') !== (after.description ?? '')) requests.push({ method: 'PUT', path: url, body: { description: after.description ?? '' } });
      const [first = [], ...rest] = chunks((after.items ?? []).map((i) => body(LIST_ITEM, i)), ITEMS_PER_REQUEST);
      requests.push({ method: 'PUT', path: `${url}/items`, body: first });
      return { routes: 'lists', path: `lists[${index}]`, requests, notChecked: rest.length > 0 ? `not its items after the first ${counted(ITEMS_PER_REQUEST, 'item')}` : undefined };
    },
  };
}

// ---- the root ruleset

/** A rule as sent: no server fields, its `ref` kept (its id when it had none, so reports keep naming it). */
function sentRule(r: RulesetRule): Obj {
  const { id, ...rest } = body(RULESET_RULE, r);
  return { ...rest, ref: r.ref ?? id };
}

/** A rule as the server would store it, for comparison: a skip rule's logging defaults to on; no ref when the file gives none. */
function storedForm(r: RulesetRule, withRef: boolean): Obj {
  const { ref, ...rest } = sentRule(r);
  const rule = r.action === 'skip' && r.logging === undefined ? { ...rest, logging: { enabled: true } } : rest;
  return withRef ? { ...rule, ref } : rule;
}

function sameRuleset(before: Ruleset, after: Ruleset): boolean {
  const a = after.rules ?? [];
  const b = before.rules ?? [];
  return before.name === after.name && (before.description ?? '') === (after.description ?? '') && a.length === b.length
    && a.every((r, i) => same(storedForm(r, r.ref !== undefined), storedForm(b[i], r.ref !== undefined)));
}

/** A ruleset's name, description and rules (refs aside), and with its id and version when known; NONE when there is none. */
function rulesetHeld(rs: Ruleset | undefined): Held {
  if (rs === undefined) return NONE;
  const content = JSON.stringify([rs.name, rs.description ?? '', (rs.rules ?? []).map((r) => storedForm(r, false))]);
  return { content, exact: rs.id === undefined || rs.version === undefined ? undefined : JSON.stringify([rs.id, rs.version]) };
}

/** The account's root ruleset of the network-firewall phase (from the API, now), if any. */
async function currentRuleset(api: Api): Promise<Obj | undefined> {
  return (await api.allCursors(`${api.account}/rulesets`)).find((r) => r.kind === 'root' && PHASE_SPELLINGS.includes(String(r.phase)));
}

const rulesetUrl = (api: Api, id: unknown): string => `${api.account}/rulesets/${encodeURIComponent(String(id))}`;

async function readRuleset(api: Api): Promise<Held> {
  const current = await currentRuleset(api);
  return current === undefined ? NONE : rulesetHeld(await api.result<Ruleset>('GET', rulesetUrl(api, current.id)));
}

/** Makes the root ruleset `target` (a new version of the current one when the name is the same), or removes it. */
async function setRuleset(w: Writes, target: Ruleset | undefined): Promise<void> {
  const current = await currentRuleset(w.api);
  const rules = (target?.rules ?? []).map(sentRule);
  const answered = (result: unknown, known: boolean): Held => rulesetHeld(known ? (result as Ruleset) : target);
  if (target && current && current.name === target.name) {
    // the API keeps the description a PUT does not send; an empty one clears it
    const description = target.description ?? (current.description ? '' : undefined);
    await w.send('PUT', rulesetUrl(w.api, current.id), { description, rules }, answered);
    return;
  }
  if (current) await w.send('DELETE', rulesetUrl(w.api, current.id), undefined, () => NONE);
  if (target) await w.send('POST', `${w.api.account}/rulesets`, { ...body(RULESET, target), phase: PHASE.vendor, rules }, answered);
}

const rulesText = (rs: Ruleset): string => counted(rs.rules?.length ?? 0, 'rule');

/** `accountLists`: the names of the lists the account holds before the import. */
export function rulesetPart(before: Ruleset | undefined, after: Ruleset | undefined, accountLists: ReadonlySet<string>): ImportPart {
  const changes: PlannedChange[] = [];
  const name = (rs: Ruleset): string => `ruleset ${JSON.stringify(rs.name)}`;
  if (before && after && before.name === after.name) {
    if (!sameRuleset(before, after)) changes.push({ change: '~', what: `${name(after)}: ${rulesText(before)} -> ${rulesText(after)}` });
  } else {
    if (before) changes.push({ change: '-', what: `${name(before)} (${rulesText(before)})` });
    if (after) changes.push({ change: '+', what: `${name(after)} (${rulesText(after)})` });
  }
  return {
    label: 'the root ruleset',
    changes,
    before: rulesetHeld(before),
    read: readRuleset,
    write: (w) => setRuleset(w, after),
    restore: (w) => setRuleset(w, before),
    dryRun(api) {
      const check: DryRunCheck = { routes: 'rulesets', path: 'rulesets[0]', requests: [] };
      if (after === undefined) {
        if (before) check.requests.push({ method: 'DELETE', path: rulesetUrl(api, before.id) });
        return check;
      }
      // the rules as the phase's entry point would take them: the same checks (rules, lists, the limit) whatever the ruleset's name
      const created = [...new Set((after.rules ?? []).flatMap((r) => listsReferenced(r.expression)))].filter((l) => !accountLists.has(l));
      if (created.length > 0) return { ...check, notChecked: `it uses lists this import creates first: ${created.map((l) => `$${l}`).join(', ')}` };
      check.requests.push({ method: 'PUT', path: `${api.account}/rulesets/phases/${PHASE.vendor}/entrypoint`, body: { description: after.description, rules: (after.rules ?? []).map(sentRule) } });
      return check;
    },
  };
}
