// `edgesim import`: a snapshot written into an account of a running API, touching only what the
// file names, and never leaving the account half-written.
//
// - What it touches: each Advanced TCP Protection resource present in the file replaces the
//   account's; each list the file names (by name) is created or has its description and items
//   replaced, and the account's other lists are left alone; `rulesets` replaces the root ruleset
//   of the network-firewall phase (kept, with a new version, when the name is the same). A key
//   absent from the file leaves that resource as it is. (Each resource is a part: import-parts.ts.)
// - Before the first write: the file is validated, the account is read (an export), every list a
//   rule uses must be managed, in the file or in the account, no rule but `skip` carries `logging`
//   (the vendor refuses it at deploy time); a server that takes `?dry_run=true` (the vendor's
//   Rulesets API does since 2026-09-17; serve does on rulesets and lists) checks each ruleset and
//   list write that way; and, for a real import only, the server is asked whether these
//   credentials may write and whether it takes that many rules: a ruleset body of that many empty
//   rules is refused either way, and the refusal says whether the count is over the server's limit
//   (`serve --max-rules`).
// - The plan: what would be created (+), changed (~) and destroyed (-), object by object, with a
//   `terraform plan`-like total; `--dry-run` prints it, with what the server checked, and sends no
//   write (only dry_run=true ones). A resource already as the file has it is not written.
// - A write that fails, or a signal: what was written is put back, if it still holds what this
//   import wrote, and the one-line error says where it stopped, what was put back, what someone
//   else changed meanwhile, and what could not be put back (import-run.ts).
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import { ConfigItemError, UserError } from '../errors.js';
import { counted } from '../numbers.js';
import { Api, exportSnapshot, Interrupted, refusal, type ApiTarget, type Envelope } from './api-client.js';
import { loggingIssues } from './checks.js';
import { COLLECTIONS, collectionPart, listPart, rulesetPart, statusPart, type ComponentKey, type ImportPart, type ResourceKey } from './import-parts.js';
import { ImportRun, signalExitCode, writeParts, type PlannedChange } from './import-run.js';
import { unknownListIssues } from './references.js';
import { PHASE } from './resources.js';
import type { Issue } from './schema.js';
import type { Snapshot } from './snapshot.js';
import { firstIssueError, validateSnapshot } from './validate.js';

export { ImportRun, type PlannedChange, type ResourceKey };

const RESOURCE_KEYS: readonly ResourceKey[] = [
  'tcp_protection_status', 'prefixes', 'allowlist',
  ...PROTECTION_COMPONENTS.flatMap(({ name }) => [`${name}.rules`, `${name}.filters`] as const),
  'rulesets', 'lists',
];

/** What an import did: each resource replaced (with how many objects it now holds), and the ones left as they were. */
export interface ImportSummary {
  replaced: Array<{ key: ResourceKey; count: number; items?: number }>;
  left: ResourceKey[];
}

/** What the server checked of the writes with `?dry_run=true` before any write, and what was checked here only (with why). */
export interface ServerChecks {
  byServer: string[];
  here: string[];
  /** why nothing, or not everything, went to the server */
  why?: string;
}

/** What an import would do, read from the account before any write. */
export interface ImportPlan {
  changes: PlannedChange[];
  summary: ImportSummary;
  parts: ImportPart[];
  checks: ServerChecks;
}

/** How an import is run: `signal` (Ctrl-C) stops it between two requests; `run` records its writes, for the line a second signal prints. */
export interface ImportOptions {
  signal?: AbortSignal;
  run?: ImportRun;
}

/** The problems the API would refuse that the file's schema does not catch, with the account's lists known. */
function accountIssues(file: Snapshot, account: Snapshot): Issue[] {
  const lists = new Set([...(account.lists ?? []), ...(file.lists ?? [])].map((l) => l.name));
  return (file.rulesets ?? []).flatMap((rs, i) => [
    ...unknownListIssues(rs.rules ?? [], lists, ['rulesets', i, 'rules']),
    ...loggingIssues(rs.rules ?? [], ['rulesets', i, 'rules']),
  ]);
}

/** The rule limit a refusal names (`rules: must have at most 200 items (got 201)`), if it is one. */
function ruleLimit(envelope: Envelope): string | undefined {
  return envelope.errors?.find((e) => e.source?.pointer === '/rules' && /at most \d+/.test(e.message ?? ''))?.message;
}

const limitError = (problem: string, target: ApiTarget, source: string): ConfigItemError =>
  new ConfigItemError('rulesets[0].rules', `the API at ${target.url} takes fewer rules per ruleset (${problem.replace(/^rules: /, '')})`, source);

/**
 * Before a real import's first write: asks the server whether it lets these credentials write
 * rulesets and takes `count` rules in one, with a body of that many empty rules, which every
 * server refuses (400), for the count first when it is over the limit. Nothing can be written by
 * it; any other answer (401, 403, 5xx) is the error the first write would have met. (A dry run
 * never sends it: see checkOnServer.)
 */
async function probeRuleLimit(api: Api, count: number, target: ApiTarget, source: string): Promise<void> {
  const method = 'PUT';
  const answer = await api.send(method, `${api.account}/rulesets/phases/${PHASE.vendor}/entrypoint`, { rules: Array.from({ length: Math.max(count, 1) }, () => ({})) });
  if (answer.reply.status !== 400) throw refusal(method, answer);
  const problem = ruleLimit(answer.envelope);
  if (problem !== undefined) throw limitError(problem, target, source);
}

/**
 * Sends each write a server can check in a dry run (lists and rulesets) with `?dry_run=true`, when
 * it takes dry_run there (asked with a GET first: nothing is sent with dry_run to a server that
 * would carry it out). A refusal is the error the write would meet, named by where the file holds
 * the resource. Credentials that may not write are that error in a real import, and a reason in a
 * dry run (whose plan is still worth reading).
 */
async function checkOnServer(parts: readonly ImportPart[], api: Api, target: ApiTarget, source: string, dryRun: boolean): Promise<ServerChecks> {
  const all = parts.map((p) => p.label);
  const checks = parts.map((part) => ({ part, check: part.dryRun?.(api) }));
  const routes = new Set(checks.flatMap(({ check }) => (check && check.requests.length > 0 ? [check.routes] : [])));
  const offered = new Set<string>();
  for (const r of routes) if (await api.takesDryRun(`${api.account}/${r === 'rulesets' ? 'rulesets' : 'rules/lists'}`)) offered.add(r);
  if (routes.size > 0 && offered.size === 0) {
    return { byServer: [], here: all, why: `the API at ${target.url} does not take dry_run=true, so nothing was sent to it (neither its rule limit nor what these credentials may write was checked)` };
  }
  const result: ServerChecks = { byServer: [], here: [] };
  for (const { part, check } of checks) {
    const how = check?.notChecked === undefined ? '' : ` (${check.notChecked})`;
    if (!check || check.requests.length === 0 || !offered.has(check.routes)) {
      result.here.push(`${part.label}${how}`);
      continue;
    }
    for (const r of check.requests) {
      const answer = await api.send(r.method, r.path, r.body, { dry_run: 'true' });
      const { status } = answer.reply;
      if (status >= 200 && status <= 299 && answer.envelope.success !== false) continue;
      if (status === 401 || status === 403) {
        if (!dryRun) throw refusal(r.method, answer);
        return { byServer: [], here: all, why: `the API refused to check the writes with these credentials: ${refusal(r.method, answer).message}` };
      }
      if (status >= 500) throw refusal(r.method, answer);
      const problem = check.routes === 'rulesets' ? ruleLimit(answer.envelope) : undefined;
      if (problem !== undefined) throw limitError(problem, target, source);
      throw new ConfigItemError(check.path, `the API at ${target.url} refuses ${part.label}: ${refusal(r.method, answer).message}`, source);
    }
    result.byServer.push(`${part.label}${how}`);
  }
  return result;
}

const interrupted = (err: Interrupted, target: ApiTarget): UserError =>
  new UserError(`import into account ${target.account} interrupted by ${err.signal} before its first write: the account is as it was before the import`, { cause: err, exitCode: signalExitCode(err.signal) });

/**
 * Reads the account and works out what importing `snapshot` does; throws if a write would be
 * refused. Sends no write: what the server can check, it checks with `?dry_run=true` (when it
 * takes it); `toWrite` adds, for an import about to write, the rule-limit probe every server answers.
 */
export async function planImport(snapshot: Snapshot, target: ApiTarget, source = 'snapshot', options: ImportOptions & { toWrite?: boolean } = {}): Promise<ImportPlan> {
  try {
    return await plan(snapshot, target, source, options);
  } catch (err) {
    throw err instanceof Interrupted ? interrupted(err, target) : err;
  }
}

async function plan(snapshot: Snapshot, target: ApiTarget, source: string, options: ImportOptions & { toWrite?: boolean }): Promise<ImportPlan> {
  const file = validateSnapshot(snapshot, source, { unknownLists: 'allow' });
  const api = new Api(target, options.signal);
  const account = await exportSnapshot(target, api);
  const issues = accountIssues(file, account);
  if (issues.length > 0) throw firstIssueError(issues, 0, source);
  if (options.toWrite) await probeRuleLimit(api, file.rulesets?.[0]?.rules?.length ?? 0, target, source); // at most one ruleset: one root ruleset per phase

  const parts: ImportPart[] = [];
  const replaced: ImportSummary['replaced'] = [];
  if (file.tcp_protection_status) {
    const now = file.tcp_protection_status.enabled;
    parts.push(statusPart(account.tcp_protection_status?.enabled ?? false, now));
    replaced.push({ key: 'tcp_protection_status', count: now ? 1 : 0 });
  }
  for (const c of COLLECTIONS) {
    const after = c.of(file);
    if (after === undefined) continue;
    parts.push(collectionPart(c, `the ${NAMES[c.key][1]}`, c.of(account) ?? [], after));
    replaced.push({ key: c.key, count: after.length });
  }
  if (file.lists) {
    file.lists.forEach((list, i) => parts.push(listPart(account.lists?.find((l) => l.name === list.name), list, i)));
    replaced.push({ key: 'lists', count: file.lists.length, items: file.lists.reduce((n, l) => n + (l.items?.length ?? 0), 0) });
  }
  if (file.rulesets) {
    parts.push(rulesetPart(account.rulesets?.[0], file.rulesets[0], new Set((account.lists ?? []).map((l) => l.name))));
    replaced.push({ key: 'rulesets', count: file.rulesets.length });
  }
  replaced.sort((a, b) => RESOURCE_KEYS.indexOf(a.key) - RESOURCE_KEYS.indexOf(b.key));
  const summary = { replaced, left: RESOURCE_KEYS.filter((key) => !replaced.some((r) => r.key === key)) };
  const written = parts.filter((p) => p.changes.length > 0);
  const checks = await checkOnServer(written, api, target, source, !options.toWrite);
  return { changes: written.flatMap((p) => p.changes), summary, parts: written, checks };
}

/**
 * Writes the plan's resources in order. When a write fails, or a signal stops it, puts back what
 * was written that still holds what this import wrote, then throws one line saying where it
 * stopped and what state the account is in.
 */
export async function applyImport(plan: ImportPlan, target: ApiTarget, options: ImportOptions = {}): Promise<void> {
  await writeParts(plan.parts, target, options.run ?? new ImportRun(target.account), options.signal);
}

/** Plans, then writes; a failure part-way puts back what was written. */
export async function importSnapshot(snapshot: Snapshot, target: ApiTarget, source?: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = await planImport(snapshot, target, source, { ...options, toWrite: true });
  await applyImport(plan, target, options);
  return plan.summary;
}

const NAMES: Record<ResourceKey, [one: string, many: string]> = {
  tcp_protection_status: ['protection status', 'protection status'],
  prefixes: ['prefix', 'prefixes'],
  allowlist: ['allowlist entry', 'allowlist entries'],
  ...(Object.fromEntries(
    PROTECTION_COMPONENTS.flatMap(({ name, rule, filter }) => [
      [`${name}.rules`, [rule, `${rule}s`]],
      [`${name}.filters`, [filter, `${filter}s`]],
    ]),
  ) as Record<ComponentKey, [string, string]>),
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
 * What the server checked of the plan's writes, for a dry run's last lines: those it checked with
 * `?dry_run=true`, those checked here only, and why; nothing when the plan writes nothing.
 */
export function describeChecks(plan: ImportPlan): string {
  const { byServer, here, why } = plan.checks;
  const lines: string[] = [];
  if (byServer.length > 0) lines.push(`Checked by the API with dry_run=true: ${byServer.join(', ')}.`);
  if (why !== undefined) lines.push(`Checked here only, as ${why}: ${here.join(', ')}.`);
  else if (here.length > 0) lines.push(`Checked here only (the API has no dry run for them, or cannot check them before the other writes): ${here.join(', ')}.`);
  return lines.length > 0 ? `\n${lines.join('\n')}\n` : '';
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
