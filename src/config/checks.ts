// Rules that span more than one field or more than one object: an action that needs parameters,
// and names that must be unique (a prefix listed twice, two rules for the same region, two root
// rulesets in one phase, two rules with one ref). The same conflict rules serve the snapshot loader
// (duplicates inside one file) and the API (an incoming object against what the account holds),
// so a file that loads is a file the API accepts.
import { PROTECTION_COMPONENTS } from '../protection-components.js';
import { coloProblem, regionProblem } from '../data/colos.js';
import { formatCidr, parseCidr } from '../net/cidr.js';
import { FORMATS } from './formats.js';
import { unknownListIssues } from './references.js';
import { dottedPath, type Issue, type JsonPath, type ObjectCheck, type Vocabulary } from './schema.js';

type Obj = Record<string, unknown>;

/** A uniqueness rule over a collection: the key of an item (undefined = not constrained). */
export interface Conflict {
  /** the field an issue points at */
  field: string;
  key(item: Obj): string | undefined;
  /** `other` says where the earlier item is (a snapshot path, or an id in the API) */
  message(key: string, other: string): string;
}

// Conflict checks compare a new address with every stored one; remembering each text's canonical
// form keeps that a map lookup per stored item instead of a parse (bounded, cleared when full).
const canonical = new Map<string, string | undefined>();
const CANONICAL_CACHE_SIZE = 250_000;

function canonicalCidr(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (canonical.has(value)) return canonical.get(value);
  let key: string | undefined;
  try {
    key = formatCidr(parseCidr(value));
  } catch {
    key = undefined;
  }
  if (canonical.size >= CANONICAL_CACHE_SIZE) canonical.clear();
  canonical.set(value, key);
  return key;
}

/** The uniqueness rules, by collection. */
export const CONFLICTS = {
  prefix: {
    field: 'prefix',
    key: (p) => canonicalCidr(p.prefix),
    message: (k, other) => `${k} is already a protected prefix (${other})`,
  },
  allowlist: {
    field: 'prefix',
    key: (p) => canonicalCidr(p.prefix),
    message: (k, other) => `${k} is already in the allowlist (${other})`,
  },
  protectionRule: {
    field: 'name',
    key: (r) => (typeof r.scope === 'string' && typeof r.name === 'string' ? `${r.scope} "${r.name.toLowerCase()}"` : undefined),
    message: (k, other) => `a rule for scope ${k} already exists (${other})`,
  },
  list: {
    field: 'name',
    key: (l) => (typeof l.name === 'string' ? l.name : undefined),
    message: (k, other) => `a list named "${k}" already exists (${other})`,
  },
  listItem: {
    field: 'ip',
    key: (i) => canonicalCidr(i.ip),
    message: (k, other) => `${k} is already in the list (${other})`,
  },
  rootRuleset: {
    field: 'phase',
    key: (r) => (r.kind === 'root' && typeof r.phase === 'string' ? r.phase : undefined),
    message: (k, other) => `phase ${k} already has a root ruleset (${other}); change that one instead`,
  },
  ruleRef: {
    field: 'ref',
    key: (r) => (typeof r.ref === 'string' ? r.ref : typeof r.id === 'string' ? r.id : undefined),
    message: (k, other) => `ref "${k}" is already used by ${other}`,
  },
  ruleId: {
    field: 'id',
    key: (r) => (typeof r.id === 'string' ? r.id : undefined),
    message: (k, other) => `id ${k} is already used by ${other}`,
  },
} satisfies Record<string, Conflict>;

/**
 * Issues for every item of `items` whose key repeats the key of an earlier item, or of one of
 * `existing` (already stored; `labelOf` names one, e.g. `prefix <id>`). `pathOf(i)` is item i's path.
 */
export function findConflicts(
  conflict: Conflict,
  items: readonly Obj[],
  pathOf: (index: number) => JsonPath,
  existing: readonly Obj[] = [],
  labelOf: (item: Obj) => string = (item) => `id ${String(item.id)}`,
): Issue[] {
  const seen = new Map<string, () => string>();
  for (const item of existing) {
    const key = conflict.key(item);
    if (key !== undefined && !seen.has(key)) seen.set(key, () => labelOf(item));
  }
  const issues: Issue[] = [];
  items.forEach((item, i) => {
    const key = conflict.key(item);
    if (key === undefined) return;
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push({ path: [...pathOf(i), conflict.field], kind: 'conflict', message: conflict.message(key, other()) });
    } else {
      const label = dottedPath(pathOf(i));
      seen.set(key, () => label);
    }
  });
  return issues;
}

/**
 * `value`'s elements with every non-object replaced by `{}` (so indexes, and thus paths, hold), or
 * none when it is not an array: checks run on invalid data too.
 */
function objects(value: unknown): Obj[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {})) : [];
}

const rulesetRule: ObjectCheck = (rule, path) => {
  const params = rule.action_parameters;
  if (rule.action === 'skip' && params === undefined) {
    return [{ path: [...path, 'action_parameters'], kind: 'required', message: 'is required for action "skip" (use {"ruleset":"current"})' }];
  }
  if ((rule.action === 'block' || rule.action === 'log') && params !== undefined) {
    return [{ path: [...path, 'action_parameters'], kind: 'invalid_value', message: `is only used with action "skip" (got action ${JSON.stringify(rule.action)})` }];
  }
  return [];
};

// An ATP rule scoped to a region or a data center must name one that exists (the lists --region
// and --colo take): a rule for "MARS" would be accepted and never apply.
const protectionRule: ObjectCheck = (rule, path) => {
  if (typeof rule.name !== 'string' || rule.name === '') return [];
  const problem = rule.scope === 'region' ? regionProblem(rule.name) : rule.scope === 'datacenter' ? coloProblem(rule.name) : null;
  return problem === null ? [] : [{ path: [...path, 'name'], kind: 'invalid_value', message: problem }];
};

const ruleset: ObjectCheck = (value, path) => {
  const rules = objects(value.rules);
  const at = (i: number): JsonPath => [...path, 'rules', i];
  return [...findConflicts(CONFLICTS.ruleId, rules, at), ...findConflicts(CONFLICTS.ruleRef, rules, at)];
};

const snapshot: ObjectCheck = (value, path) => {
  const issues: Issue[] = [];
  const each = (conflict: Conflict, items: unknown, base: JsonPath): void => {
    if (Array.isArray(items)) issues.push(...findConflicts(conflict, objects(items), (i) => [...base, i]));
  };
  each(CONFLICTS.prefix, value.prefixes, [...path, 'prefixes']);
  each(CONFLICTS.allowlist, value.allowlist, [...path, 'allowlist']);
  for (const { name: component } of PROTECTION_COMPONENTS) {
    const c = value[component];
    if (typeof c === 'object' && c !== null) each(CONFLICTS.protectionRule, (c as Obj).rules, [...path, component, 'rules']);
  }
  each(CONFLICTS.rootRuleset, value.rulesets, [...path, 'rulesets']);
  each(CONFLICTS.list, value.lists, [...path, 'lists']);
  objects(value.lists).forEach((list, i) => each(CONFLICTS.listItem, list.items, [...path, 'lists', i, 'items']));
  return issues;
};

/**
 * Issues for the rules of a (possibly invalid) snapshot that use a list it does not define: neither
 * a managed list nor one of its `lists` (a snapshot without `lists` defines no account list). The
 * same rule as the API's for an account (routes/rulesets.ts); not part of the schema's checks
 * because `lint` reports such a rule as a finding instead of refusing the file.
 */
export function snapshotListIssues(value: unknown): Issue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const snapshot = value as Obj;
  const names = new Set(objects(snapshot.lists).map((l) => l.name).filter((n): n is string => typeof n === 'string'));
  return objects(snapshot.rulesets).flatMap((rs, i) => unknownListIssues(objects(rs.rules), names, ['rulesets', i, 'rules']));
}

/** Whether a rule carries `logging` with an action that does not take it (only `skip` does). */
export function loggingMisplaced(rule: { action?: unknown; logging?: unknown }): boolean {
  return rule.logging !== undefined && rule.action !== 'skip';
}

/**
 * Issues for the rules that carry `logging` with an action other than `skip`: the vendor's API
 * accepts such a rule's shape and refuses it when the ruleset is deployed (its error 20018), so
 * the API refuses it and import finds it before its first write. `base` is the rules' path.
 */
export function loggingIssues(rules: ReadonlyArray<{ action?: unknown; logging?: unknown }>, base: JsonPath): Issue[] {
  return rules.flatMap((rule, i) => (!loggingMisplaced(rule)
    ? []
    : [{ path: [...base, i, 'logging'], kind: 'invalid_value' as const, message: `only a "skip" rule takes logging (this rule's action is ${JSON.stringify(rule.action)})` }]));
}

/** The formats and object checks of the configuration schemas. */
export const VOCABULARY: Vocabulary = {
  formats: FORMATS,
  checks: { 'ruleset-rule': rulesetRule, 'protection-rule': protectionRule, ruleset, snapshot },
};
