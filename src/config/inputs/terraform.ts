// The output of `terraform show -json` (OpenTofu's is the same format) for a state or a plan:
// `cloudflare_ruleset`s of phase magic_transit, the v4 legacy `cloudflare_magic_firewall_ruleset`,
// and the IP lists (terraform-lists.ts), found in the root module and, recursively, its child
// modules, of one account (`--account` picks one where a state holds several). A plan is read as
// its planned configuration, or as either side of its resource changes (diff --plan); each rule is
// named as terraform-rule-names.ts says, the same on both sides. Values a plan knows only after
// apply that decide packets are refused, never guessed. The format has no lines: rules are located
// by resource address and position (`module.fw.cloudflare_ruleset.mt rules[3]`).
import { UserError } from '../../errors.js';
import type { JsonPath } from '../schema.js';
import { isObject, type ConfigurationDocument, type PlanSide } from './document.js';
import { anyUnknown, readLists, unknownAt } from './terraform-lists.js';
import { isPlan, priorResources, resourcesOf, type Resource } from './terraform-resources.js';
import { ruleNames, type RuleSide } from './terraform-rule-names.js';
import { legacyRulesetOf, ruleKeys, rulesetOf } from './terraform-values.js';
import { parseJsonFile } from './snapshot-file.js';

const FIREWALL_PHASE = 'magic_transit';
const OTHER_PHASE = /^magic_transit_/;
const LEGACY = 'cloudflare_magic_firewall_ruleset';
const ACCOUNT_TYPES = new Set(['cloudflare_ruleset', LEGACY, 'cloudflare_list', 'cloudflare_list_item']);

/** How to read a Terraform document beyond its side. */
export interface TerraformReadOptions {
  /** the account to read, where the document holds several (`--account`) */
  account?: string;
}

/** Whether a parsed JSON value is Terraform's JSON output (the empty workspace's is `{"format_version": "1.0"}` alone). */
export function isTerraformJson(value: unknown): boolean {
  if (!isObject(value) || !('format_version' in value)) return false;
  return Object.keys(value).length === 1 || 'terraform_version' in value || 'values' in value || 'planned_values' in value || 'resource_changes' in value;
}

function checkVersion(doc: Record<string, unknown>, file: string): void {
  const version = String(doc.format_version);
  if (version.split('.')[0] !== '1') throw new UserError(`Terraform JSON format_version ${JSON.stringify(version)} is not one edgesim reads (1.x)`, { source: file });
}

const isFirewall = (r: Resource): boolean => (r.type === 'cloudflare_ruleset' && r.values.phase === FIREWALL_PHASE) || r.type === LEGACY;

/** Refuses a ruleset whose rules, or a rule's action, expression, enabled or parameters, a plan knows only after apply. */
function checkKnown(r: Resource, file: string): void {
  const u = unknownAt(r.unknown, 'rules');
  const refuse = (what: string): never => {
    throw new UserError(`${r.address}${what} known only after apply (it depends on another resource); edgesim does not guess it`, { source: file });
  };
  if (u === true) refuse(': the rules are');
  if (!Array.isArray(u)) return;
  u.forEach((rule, j) => {
    if (rule === true) refuse(` rules[${j}]: the rule is`);
    for (const key of ['expression', 'action', 'enabled', 'action_parameters']) {
      if (anyUnknown(unknownAt(rule, key))) refuse(` rules[${j}]: ${key === 'expression' ? 'the expression' : key} ${key === 'action_parameters' ? 'are' : 'is'}`);
    }
  });
}

/** A firewall ruleset resource's rules as rule-names.ts pairs them. */
function sideOf(r: Resource): RuleSide {
  if (r.type === LEGACY) {
    const rules = legacyRulesetOf(r.values).ruleset.rules as Array<Record<string, unknown>>;
    return { rules, keys: rules.map(() => ({ id: null, ref: null })) };
  }
  return { rules: rulesetOf(r.values).rules as Array<Record<string, unknown>>, keys: ruleKeys(r.values) };
}

function accountOf(r: Resource): string | undefined {
  return typeof r.values.account_id === 'string' && r.values.account_id !== '' ? r.values.account_id : undefined;
}

/** The resources of the account to read: all when the document holds one account, else the one `--account` names. */
function ofAccount(resources: readonly Resource[], account: string | undefined, file: string): Resource[] {
  const byAccount = new Map<string, string[]>();
  for (const r of resources.filter((x) => ACCOUNT_TYPES.has(x.type) && (x.type !== 'cloudflare_ruleset' || isFirewall(x)))) {
    const id = accountOf(r);
    if (id !== undefined) byAccount.set(id, [...(byAccount.get(id) ?? []), r.address]);
  }
  const listed = (): string => [...byAccount].map(([id, addresses]) => `${id} (${addresses.join(', ')})`).join('; ');
  if (account === undefined) {
    if (byAccount.size > 1) throw new UserError(`the file holds ${byAccount.size} accounts: give --account ID to read one: ${listed()}`, { source: file });
    return [...resources];
  }
  if (byAccount.size > 0 && !byAccount.has(account)) throw new UserError(`--account ${account}: no firewall ruleset or list of this account in the file; its accounts: ${listed()}`, { source: file });
  return resources.filter((r) => accountOf(r) === undefined || accountOf(r) === account);
}

/** What a file without a firewall ruleset holds instead, for the warning: resource types, and the phases of its rulesets. */
function foundInstead(resources: readonly Resource[]): string {
  if (resources.length === 0) return 'no resources at all (an empty workspace?)';
  const types = new Map<string, Set<string>>();
  for (const r of resources) {
    const phases = types.get(r.type) ?? new Set<string>();
    if (r.type === 'cloudflare_ruleset' && typeof r.values.phase === 'string') phases.add(r.values.phase);
    types.set(r.type, phases);
  }
  return [...types].map(([type, phases]) => (phases.size === 0 ? type : `${type} of phase ${[...phases].join(', ')}`)).join('; ');
}

export function readTerraformDocument(text: string, file: string, side: PlanSide = 'planned', options: TerraformReadOptions = {}): ConfigurationDocument {
  const doc = parseJsonFile(text, file);
  if (!isObject(doc) || !('format_version' in doc)) throw new UserError('not Terraform JSON (no format_version): give the output of terraform show -json', { source: file });
  checkVersion(doc, file);
  const notes: string[] = [];
  const empty = Object.keys(doc).length === 1 && side === 'planned';
  const resources = ofAccount(empty ? [] : resourcesOf(doc, side, file), options.account, file);
  // the other side of the plan, against which each ruleset's rules are named
  const other = side === 'before' ? new Map(resourcesOf(doc, 'after', file).map((r) => [r.address, r])) : priorResources(doc);
  const rulesets: Array<{ address: string; ruleset: Record<string, unknown>; userRef: boolean[] }> = [];
  const ignored: string[] = [];
  for (const r of resources) {
    if (r.type === 'cloudflare_ruleset' && OTHER_PHASE.test(String(r.values.phase))) notes.push(`${r.address}: phase ${String(r.values.phase)} is not simulated`);
    if (!isFirewall(r)) continue;
    checkKnown(r, file);
    let ruleset: Record<string, unknown>;
    if (r.type === LEGACY) {
      const read = legacyRulesetOf(r.values);
      if (read.allowRead) notes.push(`${r.address}: action "allow" read as "skip" with {"ruleset": "current"}, as the provider sends it`);
      ruleset = read.ruleset;
    } else {
      ruleset = rulesetOf(r.values, (j, names, action) => ignored.push(`${r.address} rules[${j}] (${names.join(', ')} on a ${String(action)} rule)`));
    }
    const counterpart = other.get(r.address);
    const paired = counterpart !== undefined && isFirewall(counterpart) ? sideOf(counterpart) : undefined;
    const names = side === 'before' ? ruleNames(r.address, sideOf(r), paired) : ruleNames(r.address, paired, sideOf(r));
    const own = side === 'before' ? names.before : names.after;
    (ruleset.rules as Array<Record<string, unknown>>).forEach((rule, j) => (rule.ref = own[j]));
    if (names.pairedByContent > 0) {
      notes.push(`${r.address}: ${names.pairedByContent} ${names.pairedByContent === 1 ? "rule's id is" : "rules' ids are"} known only after apply (no ref): matched to the rules in state by content and order; set ref on each rule to keep its name stable`);
    }
    rulesets.push({ address: r.address, ruleset, userRef: side === 'before' ? names.userRef.before : names.userRef.after });
  }
  if (ignored.length > 0) notes.push(`action parameters that do not apply to the rule's action are ignored: ${ignored.join('; ')}`);
  const lists = readLists(resources, doc, file, notes);
  const roots = rulesets.filter((r) => r.ruleset.kind === 'root');
  if (roots.length > 1) throw new UserError(`two root rulesets for phase magic_transit: ${roots[0]!.address} and ${roots[1]!.address} (an account has one entry point)`, { source: file });
  if (rulesets.length === 0) notes.push(`no network-firewall ruleset (cloudflare_ruleset of phase magic_transit) in ${isPlan(doc) ? 'this plan' : 'this state'}; it holds ${foundInstead(resources)}`);

  const document: Record<string, unknown> = {};
  if (rulesets.length > 0) document.rulesets = rulesets.map((r) => r.ruleset);
  if (lists.length > 0) document.lists = lists.map((l) => l.list);
  const ruleAddress = (i: number, j: number): string => `${rulesets[i]?.address ?? ''} rules[${j}]`;
  const refOf = (i: number, j: number): string => {
    const rule = (rulesets[i]?.ruleset.rules as unknown[] | undefined)?.[j];
    return rulesets[i]?.userRef[j] === true && isObject(rule) && typeof rule.ref === 'string' ? ` (ref ${rule.ref})` : '';
  };
  const origin = (path: JsonPath): JsonPath => {
    const [key, i, sub, j, ...rest] = path;
    if (key === 'rulesets' && typeof i === 'number') {
      if (sub === 'rules' && typeof j === 'number') return [`${ruleAddress(i, j)}${refOf(i, j)}`, ...rest];
      return [rulesets[i]?.address ?? '', ...path.slice(2)];
    }
    if (key === 'lists' && typeof i === 'number') return [lists[i]?.address ?? '', ...path.slice(2)];
    return path;
  };
  const madeRefs = rulesets.flatMap((r) => (r.ruleset.rules as Array<Record<string, unknown>>).filter((_rule, j) => !r.userRef[j]).map((rule) => String(rule.ref)));
  return { document, origin, locate: (i, j) => (rulesets[i] === undefined ? undefined : { file, address: j === undefined ? rulesets[i]!.address : ruleAddress(i, j) }), notes, madeRefs };
}
