// `edgesim import`: a snapshot written into an account of a running API, touching only what the
// file names, and never leaving the account half-written.
//
// - What it touches: each Advanced TCP Protection resource present in the file replaces the
//   account's; each list the file names (by name) is created or has its description and items
//   replaced, and the account's other lists are left alone; `rulesets` replaces the root ruleset
//   of the network-firewall phase (kept, with a new version, when the name is the same). A key
//   absent from the file leaves that resource as it is.
// - Before the first write: the file is validated, the account is read (an export), every list a
//   rule uses must be managed, in the file or in the account, no rule but `skip` carries `logging`
//   (the vendor refuses it at deploy time), and the server is asked whether these credentials may
//   write and whether it takes that many rules: a ruleset body of that many empty rules is refused
//   either way, and the refusal says whether the count is over the server's limit (`serve --max-rules`).
// - The plan: what would be created (+), changed (~) and destroyed (-), object by object, with a
//   `terraform plan`-like total; `--dry-run` prints it and writes nothing. A resource already as
//   the file has it is not written.
// - A write that fails: every resource written so far, and the one that failed, is put back as it
//   was (objects re-created get new ids), and the one-line error says where it stopped, what was
//   put back, and what could not be.
import { ConfigItemError, UserError } from '../errors.js';
import { counted } from '../numbers.js';
import { Api, body, chunks, exportSnapshot, ITEMS_PER_REQUEST, refusal, type ApiTarget, type Obj } from './api-client.js';
import { CONFLICTS, loggingIssues } from './checks.js';
import { unknownListIssues } from './references.js';
import {
  ALLOWLIST_ENTRY, FILTER, FLOW_RULE, LIMITS, LIST, LIST_ITEM, PHASE, PHASE_SPELLINGS, PREFIX, RULESET, RULESET_RULE, SYN_RULE, type Resource,
} from './resources.js';
import type { Issue } from './schema.js';
import type { AccountList, Ruleset, RulesetRule, Snapshot } from './snapshot.js';
import { firstIssueError, validateSnapshot } from './validate.js';

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

/** One line of a plan: an object created (+), changed (~) or destroyed (-). */
export interface PlannedChange {
  change: '+' | '~' | '-';
  what: string;
}

/** A resource the import writes: how to make it as the file has it, and as it was. */
interface Part {
  /** what errors call it: `prefixes`, `list "office"`, `the root ruleset` */
  label: string;
  changes: PlannedChange[];
  write(api: Api): Promise<void>;
  restore(api: Api): Promise<void>;
}

/** What an import would do, read from the account before any write. */
export interface ImportPlan {
  changes: PlannedChange[];
  summary: ImportSummary;
  parts: Part[];
}

/** An ATP collection: where it lives, how an object is named in a plan, what identifies it. */
interface Collection {
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

const COLLECTIONS: readonly Collection[] = [
  {
    key: 'prefixes', path: 'prefixes', resource: PREFIX, what: 'prefix', of: (s) => objs(s.prefixes),
    label: (o) => String(o.prefix), identity: CONFLICTS.prefix.key, bulk: LIMITS.prefixesPerBulk,
  },
  { key: 'allowlist', path: 'allowlist', resource: ALLOWLIST_ENTRY, what: 'allowlist entry', of: (s) => objs(s.allowlist), label: (o) => String(o.prefix), identity: CONFLICTS.allowlist.key },
  { key: 'syn_protection.rules', path: 'syn_protection/rules', resource: SYN_RULE, what: 'SYN flood rule', of: (s) => objs(s.syn_protection?.rules), label: ruleLabel, identity: CONFLICTS.protectionRule.key },
  { key: 'syn_protection.filters', path: 'syn_protection/filters', resource: FILTER, what: 'SYN flood filter', of: (s) => objs(s.syn_protection?.filters), label: filterLabel, identity: filterIdentity },
  { key: 'tcp_flow_protection.rules', path: 'tcp_flow_protection/rules', resource: FLOW_RULE, what: 'out-of-state TCP rule', of: (s) => objs(s.tcp_flow_protection?.rules), label: ruleLabel, identity: CONFLICTS.protectionRule.key },
  { key: 'tcp_flow_protection.filters', path: 'tcp_flow_protection/filters', resource: FILTER, what: 'out-of-state TCP filter', of: (s) => objs(s.tcp_flow_protection?.filters), label: filterLabel, identity: filterIdentity },
];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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

async function setCollection(api: Api, c: Collection, items: readonly Obj[]): Promise<void> {
  const url = `${api.cfg}/${c.path}`;
  await api.call('DELETE', url);
  if (c.bulk !== undefined) {
    for (const chunk of chunks(items, c.bulk)) await api.call('POST', `${url}/bulk`, chunk.map((o) => body(c.resource, o)));
  } else {
    for (const o of items) await api.call('POST', url, body(c.resource, o));
  }
}

/** The account's list named `name` (from the API, now), if any. */
async function currentList(api: Api, name: string): Promise<Obj | undefined> {
  return (await api.result<Obj[]>('GET', `${api.account}/rules/lists`) ?? []).find((l) => l.name === name);
}

/** Makes the list named `name` hold what `target` holds, or removes it when `target` is undefined. */
async function setList(api: Api, name: string, target: AccountList | undefined): Promise<void> {
  const current = await currentList(api, name);
  if (target === undefined) {
    if (current) await api.call('DELETE', `${api.account}/rules/lists/${encodeURIComponent(String(current.id))}`);
    return;
  }
  const id = current ? String(current.id) : String((await api.result<Obj>('POST', `${api.account}/rules/lists`, body(LIST, target))).id);
  const url = `${api.account}/rules/lists/${encodeURIComponent(id)}`;
  if (current && (current.description ?? '') !== (target.description ?? '')) await api.call('PUT', url, { description: target.description ?? '' });
  const [first = [], ...rest] = chunks((target.items ?? []).map((i) => body(LIST_ITEM, i)), ITEMS_PER_REQUEST);
  if (current || first.length > 0) await api.call(current ? 'PUT' : 'POST', `${url}/items`, first);
  for (const chunk of rest) await api.call('POST', `${url}/items`, chunk);
}

const listItemsKey = (l: AccountList): string => JSON.stringify((l.items ?? []).map((i) => body(LIST_ITEM, i)).map((i) => JSON.stringify(i)).sort());

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

/** The account's root ruleset of the network-firewall phase (from the API, now), if any. */
async function currentRuleset(api: Api): Promise<Obj | undefined> {
  return (await api.allCursors(`${api.account}/rulesets`)).find((r) => r.kind === 'root' && PHASE_SPELLINGS.includes(String(r.phase)));
}

/** Makes the root ruleset `target` (a new version of the current one when the name is the same), or removes it. */
async function setRuleset(api: Api, target: Ruleset | undefined): Promise<void> {
  const current = await currentRuleset(api);
  const rules = (target?.rules ?? []).map(sentRule);
  if (target && current && current.name === target.name) {
    // the API keeps the description a PUT does not send; an empty one clears it
    const description = target.description ?? (current.description ? '' : undefined);
    await api.call('PUT', `${api.account}/rulesets/${encodeURIComponent(String(current.id))}`, { description, rules });
    return;
  }
  if (current) await api.call('DELETE', `${api.account}/rulesets/${encodeURIComponent(String(current.id))}`);
  if (target) await api.call('POST', `${api.account}/rulesets`, { ...body(RULESET, target), phase: PHASE.vendor, rules });
}

const rulesText = (rs: Ruleset): string => counted(rs.rules?.length ?? 0, 'rule');

function rulesetPart(before: Ruleset | undefined, after: Ruleset | undefined): Part {
  const changes: PlannedChange[] = [];
  const name = (rs: Ruleset): string => `ruleset ${JSON.stringify(rs.name)}`;
  if (before && after && before.name === after.name) {
    if (!sameRuleset(before, after)) changes.push({ change: '~', what: `${name(after)}: ${rulesText(before)} -> ${rulesText(after)}` });
  } else {
    if (before) changes.push({ change: '-', what: `${name(before)} (${rulesText(before)})` });
    if (after) changes.push({ change: '+', what: `${name(after)} (${rulesText(after)})` });
  }
  return { label: 'the root ruleset', changes, write: (api) => setRuleset(api, after), restore: (api) => setRuleset(api, before) };
}

function listPart(before: AccountList | undefined, after: AccountList): Part {
  const itemsText = (l: AccountList): string => counted(l.items?.length ?? 0, 'item');
  const changes: PlannedChange[] = [];
  const what = `list ${JSON.stringify(after.name)}`;
  if (!before) changes.push({ change: '+', what: `${what} (${itemsText(after)})` });
  else if (listItemsKey(before) !== listItemsKey(after) || (before.description ?? '') !== (after.description ?? '')) {
    changes.push({ change: '~', what: `${what}: ${itemsText(before)} -> ${itemsText(after)}` });
  }
  return { label: what, changes, write: (api) => setList(api, after.name, after), restore: (api) => setList(api, after.name, before) };
}

/** The problems the API would refuse that the file's schema does not catch, with the account's lists known. */
function accountIssues(file: Snapshot, account: Snapshot): Issue[] {
  const lists = new Set([...(account.lists ?? []), ...(file.lists ?? [])].map((l) => l.name));
  return (file.rulesets ?? []).flatMap((rs, i) => [
    ...unknownListIssues(rs.rules ?? [], lists, ['rulesets', i, 'rules']),
    ...loggingIssues(rs.rules ?? [], ['rulesets', i, 'rules']),
  ]);
}

/**
 * Asks the server, before any write, whether it lets these credentials write rulesets and takes
 * `count` rules in one: a body of that many empty rules, which every server refuses (400), is
 * refused for the count first when it is over the limit. The limit's message when it is, else
 * undefined; any other answer (401, 403, 5xx) is the error the first write would have met.
 */
async function ruleLimitProblem(api: Api, count: number): Promise<string | undefined> {
  const method = 'PUT';
  const answer = await api.send(method, `${api.account}/rulesets/phases/${PHASE.vendor}/entrypoint`, { rules: Array.from({ length: Math.max(count, 1) }, () => ({})) });
  if (answer.reply.status !== 400) throw refusal(method, answer);
  return answer.envelope.errors?.find((e) => e.source?.pointer === '/rules' && /at most \d+/.test(e.message ?? ''))?.message;
}

/** Reads the account and works out what importing `snapshot` does; throws if a write would be refused. */
export async function planImport(snapshot: Snapshot, target: ApiTarget, source = 'snapshot'): Promise<ImportPlan> {
  const file = validateSnapshot(snapshot, source, { unknownLists: 'allow' });
  const api = new Api(target);
  const account = await exportSnapshot(target);
  const issues = accountIssues(file, account);
  if (issues.length > 0) throw firstIssueError(issues, 0, source);
  const rules = file.rulesets?.[0]?.rules?.length ?? 0; // at most one: one root ruleset per phase
  const problem = await ruleLimitProblem(api, rules);
  if (problem !== undefined) throw new ConfigItemError('rulesets[0].rules', `the API at ${target.url} takes fewer rules per ruleset (${problem.replace(/^rules: /, '')})`, source);

  const parts: Part[] = [];
  const replaced: ImportSummary['replaced'] = [];
  if (file.tcp_protection_status) {
    const was = account.tcp_protection_status?.enabled ?? false;
    const now = file.tcp_protection_status.enabled;
    const onOff = (on: boolean): string => (on ? 'on' : 'off');
    const setStatus = (enabled: boolean) => (a: Api) => a.call('PATCH', `${a.cfg}/tcp_protection_status`, { enabled }).then(() => undefined);
    parts.push({ label: 'the protection status', changes: was === now ? [] : [{ change: '~', what: `protection status: ${onOff(was)} -> ${onOff(now)}` }], write: setStatus(now), restore: setStatus(was) });
    replaced.push({ key: 'tcp_protection_status', count: now ? 1 : 0 });
  }
  for (const c of COLLECTIONS) {
    const after = c.of(file);
    if (after === undefined) continue;
    const before = c.of(account) ?? [];
    parts.push({ label: `the ${NAMES[c.key][1]}`, changes: collectionChanges(c, before, after), write: (a) => setCollection(a, c, after), restore: (a) => setCollection(a, c, before) });
    replaced.push({ key: c.key, count: after.length });
  }
  if (file.lists) {
    for (const list of file.lists) parts.push(listPart(account.lists?.find((l) => l.name === list.name), list));
    replaced.push({ key: 'lists', count: file.lists.length, items: file.lists.reduce((n, l) => n + (l.items?.length ?? 0), 0) });
  }
  if (file.rulesets) {
    parts.push(rulesetPart(account.rulesets?.[0], file.rulesets[0]));
    replaced.push({ key: 'rulesets', count: file.rulesets.length });
  }
  replaced.sort((a, b) => RESOURCE_KEYS.indexOf(a.key) - RESOURCE_KEYS.indexOf(b.key));
  const summary = { replaced, left: RESOURCE_KEYS.filter((key) => !replaced.some((r) => r.key === key)) };
  const written = parts.filter((p) => p.changes.length > 0);
  return { changes: written.flatMap((p) => p.changes), summary, parts: written };
}

/**
 * Writes the plan's resources in order. When a write fails, puts back every resource written so far
 * and the one that failed, then throws one line saying where it stopped and what state the account is in.
 */
export async function applyImport(plan: ImportPlan, target: ApiTarget): Promise<void> {
  const api = new Api(target);
  for (const [i, part] of plan.parts.entries()) {
    try {
      await part.write(api);
    } catch (err) {
      throw await rollBack(api, plan.parts.slice(0, i + 1), part, err, target);
    }
  }
}

async function rollBack(api: Api, touched: Part[], failed: Part, cause: unknown, target: ApiTarget): Promise<UserError> {
  const putBack: string[] = [];
  const notPutBack: string[] = [];
  for (const part of [...touched].reverse()) {
    try {
      await part.restore(api);
      putBack.push(part.label);
    } catch (err) {
      notPutBack.push(`${part.label} (${(err as Error).message})`);
    }
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  const state = notPutBack.length === 0
    ? `put back ${putBack.join(', ')}: the account is as it was before the import`
    : `could not put back ${notPutBack.join(', ')}: ${notPutBack.length === 1 ? 'it is' : 'they are'} part-way between the account's and the file's (see edgesim export); everything else is as it was before the import`;
  return new UserError(`import into account ${target.account} stopped at ${failed.label}: ${reason}; ${state}`, { cause });
}

/** Plans, then writes; a failure part-way puts back what was written. */
export async function importSnapshot(snapshot: Snapshot, target: ApiTarget, source?: string): Promise<ImportSummary> {
  const plan = await planImport(snapshot, target, source);
  await applyImport(plan, target);
  return plan.summary;
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

/** The plan as `terraform plan` prints one: a line per object, then the totals. */
export function describePlan(plan: ImportPlan): string {
  if (plan.changes.length === 0) return 'No changes. The account already holds what the file names.\n';
  const count = (c: PlannedChange['change']): number => plan.changes.filter((x) => x.change === c).length;
  const lines = plan.changes.map((c) => `  ${c.change} ${c.what}`);
  return `${lines.join('\n')}\n\nPlan: ${count('+')} to add, ${count('~')} to change, ${count('-')} to destroy.\n`;
}

/**
 * The summary in words: `replaced: 2 prefixes, 0 rulesets, protection on; left as they were:
 * allowlist entries, …` (a resource in the snapshot, even empty, is replaced; one absent is left;
 * lists are only those named).
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
