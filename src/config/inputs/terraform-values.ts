// A Terraform resource's `values` as the snapshot spells them. Provider v5 (schema_version 500)
// writes nested attributes as objects and every unset key as null; v4 (schema_version 1) writes
// nested blocks as arrays of at most one object (`action_parameters: [{ruleset: "current"}]`,
// `logging: []`). Both come out the same: nulls and empty arrays dropped, one-object arrays
// unwrapped. The server's fields (id, version, last_updated) are not configuration.
import { isObject } from './document.js';

const SERVER_FIELDS = new Set(['id', 'version', 'last_updated']);

/** A provider value without its nulls and empty blocks, each one-block array as its object. */
export function unblocked(value: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.length === 1 && isObject(value[0])) return unblocked(value[0]);
    const items = value.map(unblocked).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (!isObject(value)) return value === null ? undefined : value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const kept = unblocked(v);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function withoutServerFields(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (!SERVER_FIELDS.has(k)) out[k] = v;
  return out;
}

/** A `cloudflare_ruleset`'s values as a snapshot ruleset. */
export function rulesetOf(values: Record<string, unknown>): Record<string, unknown> {
  const rules = Array.isArray(values.rules) ? values.rules : [];
  return {
    name: values.name,
    ...(typeof values.description === 'string' ? { description: values.description } : {}),
    kind: values.kind,
    phase: values.phase,
    rules: rules.map((rule) => withoutServerFields(unblocked(rule))),
  };
}

/**
 * A v4 `cloudflare_magic_firewall_ruleset` as a snapshot ruleset: its rules are maps of strings,
 * `allow` is the API's `skip` with `{ruleset: "current"}` (the provider maps it so itself) and
 * `enabled` is "true" or "false". Returns whether an `allow` was read.
 */
export function legacyRulesetOf(values: Record<string, unknown>): { ruleset: Record<string, unknown>; allowRead: boolean } {
  let allowRead = false;
  const rules = (Array.isArray(values.rules) ? values.rules : []).map((rule) => {
    const r = withoutServerFields(unblocked(rule));
    if (r.action === 'allow') {
      allowRead = true;
      Object.assign(r, { action: 'skip', action_parameters: { ruleset: 'current' } });
    }
    if (r.enabled === 'true' || r.enabled === 'false') r.enabled = r.enabled === 'true';
    return r;
  });
  const description = typeof values.description === 'string' ? { description: values.description } : {};
  return { ruleset: { name: values.name, ...description, kind: 'root', phase: 'magic_transit', rules }, allowRead };
}

/** A list item of `cloudflare_list` (v5 `items`, v4 `item` blocks whose address is in `value`) or of `cloudflare_list_item`. */
export function listItemOf(item: unknown): Record<string, unknown> {
  const i = unblocked(item);
  if (!isObject(i)) return {};
  const ip = isObject(i.value) ? i.value.ip : i.ip;
  return { ip, ...(typeof i.comment === 'string' ? { comment: i.comment } : {}) };
}

/** A `cloudflare_list`'s values (without items) as a snapshot list. */
export function listOf(values: Record<string, unknown>): Record<string, unknown> {
  return { name: values.name, kind: values.kind, ...(typeof values.description === 'string' ? { description: values.description } : {}) };
}
