// A Terraform resource's `values` as the snapshot spells them. Provider v5 (schema_version 500)
// writes nested attributes as objects and every unset key as null; v4 (schema_version 1) writes
// nested blocks as arrays of at most one object (`action_parameters: [{ruleset: "current"}]`,
// `logging: []`), unset attributes as null in its framework era (v4.5 on) and as zero values ("",
// 0, false, [], {}) in its SDK era (v4.0 to v4.4). All come out the same: nulls and empty blocks
// dropped, one-object arrays unwrapped, an action's parameters without their zero values. The
// server's fields (id, version, last_updated) are not configuration.
import { isObject } from './document.js';

const SERVER_FIELDS = new Set(['id', 'version', 'last_updated']);

/** The action parameters each action of the phase takes; any other parameter is ignored (said when set). */
const PARAMETERS_OF: Readonly<Record<string, readonly string[]>> = { skip: ['ruleset', 'rulesets', 'phases', 'products', 'rules'] };

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

/** A value without the zero values an SDK-era state writes for unset attributes ("", 0, false, empty lists and maps). */
function withoutZeroValues(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutZeroValues).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const kept = withoutZeroValues(v);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === '' || value === 0 || value === false || value === null ? undefined : value;
}

function withoutServerFields(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (!SERVER_FIELDS.has(k)) out[k] = v;
  return out;
}

/**
 * `logging` as the API spells it: SDK-era states also write `status` ("enabled" or "disabled",
 * which then decides) beside a deprecated `enabled`.
 */
function loggingOf(logging: unknown): unknown {
  if (!isObject(logging) || !('status' in logging)) return logging;
  if (logging.status === 'enabled' || logging.status === 'disabled') return { enabled: logging.status === 'enabled' };
  const { status: _status, ...rest } = logging;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** What reading a rule set aside: parameters that do not apply to its action, by name. */
export type IgnoredParameters = (rule: number, names: readonly string[], action: unknown) => void;

/** One provider rule as a snapshot rule; its `ref` kept as the provider wrote it (a rule's name is settled later). */
function ruleOf(value: unknown, j: number, ignored: IgnoredParameters | undefined): Record<string, unknown> {
  const rule = withoutServerFields(unblocked(value));
  if (rule.ref === '') delete rule.ref;
  const params = withoutZeroValues(rule.action_parameters);
  delete rule.action_parameters;
  if (isObject(params)) {
    const applies = PARAMETERS_OF[String(rule.action)] ?? [];
    const kept = Object.fromEntries(Object.entries(params).filter(([k]) => applies.includes(k)));
    const other = Object.keys(params).filter((k) => !applies.includes(k));
    if (other.length > 0) ignored?.(j, other, rule.action);
    if (Object.keys(kept).length > 0) rule.action_parameters = kept;
  }
  const logging = loggingOf(rule.logging);
  if (logging === undefined) delete rule.logging;
  else rule.logging = logging;
  return rule;
}

/** A `cloudflare_ruleset`'s values as a snapshot ruleset (its `zone_id` kept for the deploy checks). */
export function rulesetOf(values: Record<string, unknown>, ignored?: IgnoredParameters): Record<string, unknown> {
  const rules = Array.isArray(values.rules) ? values.rules : [];
  return {
    name: values.name,
    ...(typeof values.description === 'string' && values.description !== '' ? { description: values.description } : {}),
    kind: values.kind,
    phase: values.phase,
    ...(typeof values.zone_id === 'string' && values.zone_id !== '' ? { zone_id: values.zone_id } : {}),
    rules: rules.map((rule, j) => ruleOf(rule, j, ignored)),
  };
}

/** Each rule's id and ref as the provider wrote them (null where a plan knows them only after apply). */
export function ruleKeys(values: Record<string, unknown>): Array<{ id: string | null; ref: string | null }> {
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return (Array.isArray(values.rules) ? values.rules : []).map((rule) => {
    const r = unblocked(rule);
    return isObject(r) ? { id: text(r.id), ref: text(r.ref) } : { id: null, ref: null };
  });
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
  const description = typeof values.description === 'string' && values.description !== '' ? { description: values.description } : {};
  return { ruleset: { name: values.name, ...description, kind: 'root', phase: 'magic_transit', rules }, allowRead };
}

/** A list item's address: v5 `items` and `cloudflare_list_item` hold `ip`; v4 `item` blocks hold it in `value`. */
export function itemIp(item: unknown): unknown {
  const i = unblocked(item);
  if (!isObject(i)) return undefined;
  return isObject(i.value) ? i.value.ip : i.ip;
}

/** A list item of `cloudflare_list` (v5 `items`, v4 `item` blocks) or of `cloudflare_list_item`. */
export function listItemOf(item: unknown): Record<string, unknown> {
  const i = unblocked(item);
  if (!isObject(i)) return {};
  return { ip: itemIp(i), ...(typeof i.comment === 'string' && i.comment !== '' ? { comment: i.comment } : {}) };
}

/** A `cloudflare_list`'s values (without items) as a snapshot list. */
export function listOf(values: Record<string, unknown>): Record<string, unknown> {
  return { name: values.name, kind: values.kind, ...(typeof values.description === 'string' && values.description !== '' ? { description: values.description } : {}) };
}
