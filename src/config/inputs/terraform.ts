// The output of `terraform show -json` (OpenTofu's is the same format) for a state or a plan:
// `cloudflare_ruleset`s of phase magic_transit, the v4 legacy `cloudflare_magic_firewall_ruleset`,
// and `cloudflare_list` / `cloudflare_list_item` joined by list_id, found in the root module and,
// recursively, its child modules. A plan is read as its planned configuration, or as either side
// of its resource changes (diff --plan). The format has no lines: rules are located by resource
// address and position (`module.fw.cloudflare_ruleset.mt rules[3]`), and error lines add the ref.
import { UserError } from '../../errors.js';
import type { JsonPath } from '../schema.js';
import { isObject, type ConfigurationDocument, type PlanSide } from './document.js';
import { legacyRulesetOf, listItemOf, listOf, rulesetOf } from './terraform-values.js';
import { parseJsonFile } from './snapshot-file.js';

const FIREWALL_PHASE = 'magic_transit';
const OTHER_PHASE = /^magic_transit_/;

interface Resource {
  address: string;
  type: string;
  values: Record<string, unknown>;
  /** a plan's after_unknown for this resource: which values are known only after apply */
  unknown?: unknown;
}

/** Whether a parsed JSON value is Terraform's JSON output. */
export function isTerraformJson(value: unknown): boolean {
  return isObject(value) && 'format_version' in value && ('terraform_version' in value || 'values' in value || 'planned_values' in value || 'resource_changes' in value);
}

function resourcesOfModule(module: unknown): Resource[] {
  if (!isObject(module)) return [];
  const own = (Array.isArray(module.resources) ? module.resources : [])
    .filter((r): r is Record<string, unknown> => isObject(r) && r.mode !== 'data' && isObject(r.values))
    .map((r) => ({ address: String(r.address), type: String(r.type), values: r.values as Record<string, unknown> }));
  const children = Array.isArray(module.child_modules) ? module.child_modules.flatMap(resourcesOfModule) : [];
  return [...own, ...children];
}

function changes(doc: Record<string, unknown>): Array<Record<string, unknown>> {
  return (Array.isArray(doc.resource_changes) ? doc.resource_changes : []).filter((c): c is Record<string, unknown> => isObject(c) && c.mode !== 'data' && isObject(c.change));
}

function resourcesOf(doc: Record<string, unknown>, side: PlanSide, file: string): Resource[] {
  const isPlan = 'planned_values' in doc || 'resource_changes' in doc;
  if (side !== 'planned') {
    if (!isPlan) throw new UserError('--plan: not a Terraform plan (no resource_changes): give the output of terraform show -json PLANFILE', { source: file });
    return changes(doc).flatMap((c) => {
      const change = c.change as Record<string, unknown>;
      const values = change[side];
      return isObject(values) ? [{ address: String(c.address), type: String(c.type), values, unknown: side === 'after' ? change.after_unknown : undefined }] : [];
    });
  }
  if (!isPlan) return resourcesOfModule(isObject(doc.values) ? doc.values.root_module : undefined);
  const unknown = new Map(changes(doc).map((c) => [String(c.address), (c.change as Record<string, unknown>).after_unknown]));
  const planned = resourcesOfModule(isObject(doc.planned_values) ? doc.planned_values.root_module : undefined);
  return planned.map((r) => ({ ...r, unknown: unknown.get(r.address) }));
}

function checkVersion(doc: Record<string, unknown>, file: string): void {
  const version = String(doc.format_version);
  if (version.split('.')[0] !== '1') throw new UserError(`Terraform JSON format_version ${JSON.stringify(version)} is not one edgesim reads (1.x)`, { source: file });
}

/** Refuses a rule whose expression a plan knows only after apply: edgesim does not guess it. */
function checkKnown(r: Resource, file: string): void {
  const u = isObject(r.unknown) ? r.unknown.rules : r.unknown;
  if (u === true) throw new UserError(`${r.address}: the rules are known only after apply; edgesim does not guess them`, { source: file });
  if (!Array.isArray(u)) return;
  u.forEach((rule, j) => {
    if (rule === true || (isObject(rule) && rule.expression === true)) {
      throw new UserError(`${r.address} rules[${j}]: the expression is known only after apply (it depends on another resource); edgesim does not guess it`, { source: file });
    }
  });
}

export function readTerraformDocument(text: string, file: string, side: PlanSide = 'planned'): ConfigurationDocument {
  const doc = parseJsonFile(text, file);
  if (!isObject(doc) || !('format_version' in doc)) throw new UserError('not Terraform JSON (no format_version): give the output of terraform show -json', { source: file });
  checkVersion(doc, file);
  const notes: string[] = [];
  const rulesets: Array<{ address: string; ruleset: Record<string, unknown> }> = [];
  const lists = new Map<string, { address: string; list: Record<string, unknown>; items: unknown[] }>();
  const items: Resource[] = [];
  for (const r of resourcesOf(doc, side, file)) {
    if (r.type === 'cloudflare_ruleset' && r.values.phase === FIREWALL_PHASE) {
      checkKnown(r, file);
      rulesets.push({ address: r.address, ruleset: rulesetOf(r.values) });
    } else if (r.type === 'cloudflare_ruleset' && OTHER_PHASE.test(String(r.values.phase))) {
      notes.push(`${r.address}: phase ${String(r.values.phase)} is not simulated`);
    } else if (r.type === 'cloudflare_magic_firewall_ruleset') {
      checkKnown(r, file);
      const { ruleset, allowRead } = legacyRulesetOf(r.values);
      if (allowRead) notes.push(`${r.address}: action "allow" read as "skip" with {"ruleset": "current"}, as the provider sends it`);
      rulesets.push({ address: r.address, ruleset });
    } else if (r.type === 'cloudflare_list' && r.values.kind === 'ip') {
      const inline = [...(Array.isArray(r.values.items) ? r.values.items : []), ...(Array.isArray(r.values.item) ? r.values.item : [])];
      lists.set(String(r.values.id), { address: r.address, list: listOf(r.values), items: inline.map(listItemOf) });
    } else if (r.type === 'cloudflare_list_item') items.push(r);
  }
  for (const item of items) {
    const list = lists.get(String(item.values.list_id));
    if (list === undefined) throw new UserError(`${item.address}: list_id ${JSON.stringify(item.values.list_id)} is not the id of a cloudflare_list in this file`, { source: file });
    list.items.push(listItemOf(item.values));
  }
  const roots = rulesets.filter((r) => r.ruleset.kind === 'root');
  if (roots.length > 1) throw new UserError(`two root rulesets for phase magic_transit: ${roots[0]!.address} and ${roots[1]!.address} (an account has one entry point)`, { source: file });

  const listed = [...lists.values()];
  const document: Record<string, unknown> = {};
  if (rulesets.length > 0) document.rulesets = rulesets.map((r) => r.ruleset);
  if (listed.length > 0) document.lists = listed.map((l) => ({ ...l.list, items: l.items }));
  const ruleAddress = (i: number, j: number): string => `${rulesets[i]?.address ?? ''} rules[${j}]`;
  const refOf = (i: number, j: number): string => {
    const rule = (rulesets[i]?.ruleset.rules as unknown[] | undefined)?.[j];
    return isObject(rule) && typeof rule.ref === 'string' ? ` (ref ${rule.ref})` : '';
  };
  const origin = (path: JsonPath): JsonPath => {
    const [key, i, sub, j, ...rest] = path;
    if (key === 'rulesets' && typeof i === 'number') {
      if (sub === 'rules' && typeof j === 'number') return [`${ruleAddress(i, j)}${refOf(i, j)}`, ...rest];
      return [rulesets[i]?.address ?? '', ...path.slice(2)];
    }
    if (key === 'lists' && typeof i === 'number') return [listed[i]?.address ?? '', ...path.slice(2)];
    return path;
  };
  return { document, origin, locate: (i, j) => (rulesets[i] === undefined ? undefined : { file, address: j === undefined ? rulesets[i]!.address : ruleAddress(i, j) }), notes };
}
