// The managed resources of `terraform show -json`'s output, as one side of it: a state's values; a
// plan's planned values, or the before or after side of its resource changes. Each resource comes
// with what a plan knows only after apply (`after_unknown`), its module, and where the plan's
// `configuration` section says what its attributes refer to (the only link between resources the
// plan creates: a new list's id is unknown, so a new list item names its list only there).
import { UserError } from '../../errors.js';
import { isObject, type PlanSide } from './document.js';

export interface Resource {
  address: string;
  type: string;
  /** the module instance it belongs to (`module.fw`, `module.fw["eu"]`), '' for the root module */
  module: string;
  /** its instance key (count or for_each), undefined when it has none */
  index: unknown;
  values: Record<string, unknown>;
  /** which values a plan knows only after apply (after_unknown), undefined for a state or a plan's before side */
  unknown?: unknown;
}

/** Whether the document is a plan (rather than a state). */
export function isPlan(doc: Record<string, unknown>): boolean {
  return 'planned_values' in doc || 'resource_changes' in doc;
}

function resourcesOfModule(module: unknown): Resource[] {
  if (!isObject(module)) return [];
  const own = (Array.isArray(module.resources) ? module.resources : [])
    .filter((r): r is Record<string, unknown> => isObject(r) && r.mode !== 'data' && isObject(r.values))
    .map((r) => ({ address: String(r.address), type: String(r.type), module: typeof module.address === 'string' ? module.address : '', index: r.index, values: r.values as Record<string, unknown> }));
  const children = Array.isArray(module.child_modules) ? module.child_modules.flatMap(resourcesOfModule) : [];
  return [...own, ...children];
}

function changes(doc: Record<string, unknown>): Array<Record<string, unknown>> {
  return (Array.isArray(doc.resource_changes) ? doc.resource_changes : []).filter((c): c is Record<string, unknown> => isObject(c) && c.mode !== 'data' && isObject(c.change));
}

/** The resources of one side of a plan's changes (a side a change does not have, such as a created resource's before, is left out). */
function changeSide(doc: Record<string, unknown>, side: 'before' | 'after'): Resource[] {
  return changes(doc).flatMap((c) => {
    const change = c.change as Record<string, unknown>;
    const values = change[side];
    if (!isObject(values)) return [];
    const module = typeof c.module_address === 'string' ? c.module_address : '';
    return [{ address: String(c.address), type: String(c.type), module, index: c.index, values, unknown: side === 'after' ? change.after_unknown : undefined }];
  });
}

/** The resources of the side of the document a command reads. */
export function resourcesOf(doc: Record<string, unknown>, side: PlanSide, file: string): Resource[] {
  if (side !== 'planned') {
    if (!isPlan(doc)) throw new UserError('--plan: not a Terraform plan (no resource_changes): give the output of terraform show -json PLANFILE', { source: file });
    return changeSide(doc, side);
  }
  if (!isPlan(doc)) return resourcesOfModule(isObject(doc.values) ? doc.values.root_module : undefined);
  const unknown = new Map(changes(doc).map((c) => [String(c.address), (c.change as Record<string, unknown>).after_unknown]));
  const planned = resourcesOfModule(isObject(doc.planned_values) ? doc.planned_values.root_module : undefined);
  return planned.map((r) => ({ ...r, unknown: unknown.get(r.address) }));
}

/** The resources as they were before the plan (its prior side), by address; empty for a state. */
export function priorResources(doc: Record<string, unknown>): Map<string, Resource> {
  return new Map(isPlan(doc) ? changeSide(doc, 'before').map((r) => [r.address, r]) : []);
}

/** A module instance's address as the configuration names the module (`module.fw["eu"]` is `module.fw`). */
function moduleOfConfiguration(module: string): string {
  return module.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]/g, '');
}

/**
 * The references of a resource's attribute in the plan's configuration section, e.g. a list item's
 * `list_id` → ["cloudflare_list.blocked.id", "cloudflare_list.blocked"], relative to its module;
 * undefined when the document has no configuration for it.
 */
export function references(doc: Record<string, unknown>, resource: Resource, attribute: string): string[] | undefined {
  const config = isObject(doc.configuration) ? doc.configuration : undefined;
  let module: unknown = config?.root_module;
  const path = moduleOfConfiguration(resource.module);
  for (const name of path === '' ? [] : path.split('.').filter((_s, i) => i % 2 === 1)) {
    const calls = isObject(module) && isObject(module.module_calls) ? module.module_calls : undefined;
    const call = calls?.[name];
    module = isObject(call) ? call.module : undefined;
  }
  if (!isObject(module) || !Array.isArray(module.resources)) return undefined;
  const own = resource.address.slice(resource.module === '' ? 0 : resource.module.length + 1).replace(/\[[^\]]*\]$/, '');
  const entry = module.resources.find((r) => isObject(r) && r.address === own && r.mode !== 'data');
  const expression = isObject(entry) && isObject(entry.expressions) ? entry.expressions[attribute] : undefined;
  return isObject(expression) && Array.isArray(expression.references) ? expression.references.filter((r): r is string => typeof r === 'string') : undefined;
}
