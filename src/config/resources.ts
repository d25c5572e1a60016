// Each configuration resource is declared once, as a table of fields, and every schema is derived
// from that table: the body of a create request, the body of a PATCH, and the stored form (what
// the API returns and what a snapshot file holds). So the API and the snapshot loader cannot drift
// apart: a field that is required, defaulted or limited is so in both places.
//
// Field roles:
//   required  must be present on create (and in a snapshot)
//   patch     may be changed by PATCH (the vendor lets few fields change: a prefix's text, a rule's
//             scope and name are fixed once created)
//   server    assigned by the server (ids, timestamps, versions): refused in request bodies, accepted
//             in a snapshot so that an exported file loads unchanged
//   snapshot  present only in the stored/snapshot form (a list's items, which the API serves from
//             their own endpoint)
// Defaults follow the vendor: sensitivities `medium`, mitigation_type `challenge` (SYN rules only),
// allowlist entries disabled, ruleset rules enabled.
import { PROTECTION_COMPONENTS, type ComponentName, type ProtectionComponentSpec } from '../protection-components.js';
import type { JsonSchema } from './schema.js';

interface Field {
  schema: JsonSchema;
  required?: boolean;
  patch?: boolean;
  server?: boolean;
  snapshot?: boolean;
}

/** A resource: its fields, and an optional `x-check` across them. */
export interface Resource {
  name: string;
  fields: Readonly<Record<string, Field>>;
  check?: string;
}

/** The limits the API enforces (documented by the vendor where noted). */
export const LIMITS = {
  /**
   * rules per ruleset: the vendor's default, raised for some accounts; so the API enforces it (and
   * `serve --max-rules` changes it) while a snapshot with more is replayed with a warning
   */
  rulesPerRuleset: 200,
  /** prefixes per bulk create request (vendor) */
  prefixesPerBulk: 300,
  /** items per account list (vendor) */
  itemsPerList: 100_000,
  nameLength: 256,
  commentLength: 1024,
  refLength: 256,
} as const;

const MODES = ['enabled', 'disabled', 'monitoring'] as const;
const SENSITIVITIES = ['low', 'medium', 'high'] as const;

const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
const serverTimestamp: Field = { schema: { type: 'string', format: 'timestamp', readOnly: true }, server: true };
const uuidId: Field = { schema: { type: 'string', format: 'uuid', readOnly: true }, server: true };
const hexId: Field = { schema: { type: 'string', format: 'hex-id', readOnly: true }, server: true };

export const STATUS: Resource = {
  name: 'tcp_protection_status',
  fields: {
    enabled: { schema: { type: 'boolean' }, required: true, patch: true },
  },
};

export const PREFIX: Resource = {
  name: 'prefix',
  fields: {
    id: uuidId,
    prefix: { schema: { type: 'string', format: 'cidr' }, required: true },
    comment: { schema: { ...text(LIMITS.commentLength), default: '' }, patch: true },
    excluded: { schema: { type: 'boolean', default: false }, patch: true },
    created_on: serverTimestamp,
    modified_on: serverTimestamp,
  },
};

export const ALLOWLIST_ENTRY: Resource = {
  name: 'allowlist entry',
  fields: {
    id: uuidId,
    prefix: { schema: { type: 'string', format: 'address-or-cidr' }, required: true },
    comment: { schema: { ...text(LIMITS.commentLength), default: '' }, patch: true },
    enabled: { schema: { type: 'boolean', default: false }, patch: true },
    created_on: serverTimestamp,
    modified_on: serverTimestamp,
  },
};

const ruleFields: Record<string, Field> = {
  id: uuidId,
  scope: { schema: { type: 'string', enum: ['global', 'region', 'datacenter'] }, required: true },
  name: { schema: { type: 'string', minLength: 1, maxLength: 64 }, required: true },
  mode: { schema: { type: 'string', enum: MODES }, required: true, patch: true },
  rate_sensitivity: { schema: { type: 'string', enum: SENSITIVITIES, default: 'medium' }, patch: true },
  burst_sensitivity: { schema: { type: 'string', enum: SENSITIVITIES, default: 'medium' }, patch: true },
};

const mitigationType: Field = { schema: { type: 'string', enum: ['challenge', 'retransmit'], default: 'challenge' }, patch: true };

/** A rule of a protection component: its name from the component's spec, `mitigation_type` where the spec says. */
function protectionRule(spec: ProtectionComponentSpec): Resource {
  return {
    name: spec.rule,
    check: 'protection-rule',
    fields: { ...ruleFields, ...(spec.mitigationType ? { mitigation_type: mitigationType } : {}), created_on: serverTimestamp, modified_on: serverTimestamp },
  };
}

/** Each protection component's rule resource, by the component's name. */
export const COMPONENT_RULES = Object.fromEntries(PROTECTION_COMPONENTS.map((spec) => [spec.name, protectionRule(spec)])) as Record<ComponentName, Resource>;

export const FILTER: Resource = {
  name: 'filter',
  fields: {
    id: uuidId,
    expression: { schema: { type: 'string', format: 'filter-expression' }, required: true, patch: true },
    mode: { schema: { type: 'string', enum: MODES }, required: true, patch: true },
    created_on: serverTimestamp,
    modified_on: serverTimestamp,
  },
};

export const RULESET_RULE: Resource = {
  name: 'rule',
  check: 'ruleset-rule',
  fields: {
    // a rule's id may be sent back in a PUT to keep the rule's identity; see the ruleset routes
    id: { schema: { type: 'string', format: 'hex-id' } },
    ref: { schema: { type: 'string', minLength: 1, maxLength: LIMITS.refLength }, patch: true },
    version: { schema: { type: 'string', format: 'version', readOnly: true }, server: true },
    action: { schema: { type: 'string', enum: ['block', 'skip', 'log'] }, required: true, patch: true },
    action_parameters: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: { ruleset: { type: 'string', enum: ['current'] } },
        required: ['ruleset'],
      },
      patch: true,
    },
    expression: { schema: { type: 'string', format: 'rule-expression' }, required: true, patch: true },
    description: { schema: text(LIMITS.commentLength), patch: true },
    enabled: { schema: { type: 'boolean', default: true }, patch: true },
    // whether the rule's matches are logged; the vendor takes it on `skip` rules only (checked at deploy time)
    logging: {
      schema: { type: 'object', additionalProperties: false, properties: { enabled: { type: 'boolean' } }, required: ['enabled'] },
      patch: true,
    },
    last_updated: serverTimestamp,
  },
};

/** The network-firewall phase: the spec's canonical spelling, and the vendor's (accepted everywhere; files meant for the vendor use it). */
export const PHASE = { canonical: 'edge_transit', vendor: 'magic_transit' } as const;
export const PHASE_SPELLINGS: readonly string[] = [PHASE.canonical, PHASE.vendor];

export const RULESET: Resource = {
  name: 'ruleset',
  check: 'ruleset',
  fields: {
    id: hexId,
    name: { schema: { type: 'string', minLength: 1, maxLength: LIMITS.nameLength }, required: true, patch: true },
    description: { schema: text(LIMITS.commentLength), patch: true },
    kind: { schema: { type: 'string', enum: ['root'] }, required: true, patch: true },
    phase: {
      schema: { type: 'string', enum: [PHASE.canonical], 'x-aliases': { [PHASE.vendor]: PHASE.canonical } },
      required: true,
      patch: true,
    },
    version: { schema: { type: 'string', format: 'version', readOnly: true }, server: true },
    last_updated: serverTimestamp,
    rules: {
      schema: { type: 'array', items: storedSchema(RULESET_RULE), default: [] },
      patch: true,
    },
  },
};

export const LIST_ITEM: Resource = {
  name: 'list item',
  fields: {
    id: hexId,
    ip: { schema: { type: 'string', format: 'address-or-cidr' }, required: true },
    comment: { schema: text(LIMITS.commentLength), patch: true },
    created_on: serverTimestamp,
    modified_on: serverTimestamp,
  },
};

export const LIST: Resource = {
  name: 'list',
  fields: {
    id: hexId,
    name: { schema: { type: 'string', format: 'list-name', minLength: 1, maxLength: 50 }, required: true },
    description: { schema: text(500), patch: true },
    kind: { schema: { type: 'string', enum: ['ip'] }, required: true },
    num_items: { schema: { type: 'integer', minimum: 0, readOnly: true }, server: true },
    num_referencing_filters: { schema: { type: 'integer', minimum: 0, readOnly: true }, server: true },
    created_on: serverTimestamp,
    modified_on: serverTimestamp,
    items: {
      schema: { type: 'array', maxItems: LIMITS.itemsPerList, items: storedSchema(LIST_ITEM) },
      snapshot: true,
    },
  },
};

type Role = 'create' | 'patch' | 'stored';

function derive(resource: Resource, role: Role): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(resource.fields)) {
    if (role !== 'stored' && (field.server || field.snapshot)) continue;
    if (role === 'patch' && !field.patch) continue;
    if (role === 'patch') {
      const { default: _unused, ...withoutDefault } = field.schema;
      properties[name] = withoutDefault;
    } else {
      properties[name] = field.schema;
      if (field.required) required.push(name);
    }
  }
  const schema: JsonSchema = { type: 'object', additionalProperties: false, properties, required };
  return resource.check && role !== 'patch' ? { ...schema, 'x-check': resource.check } : schema;
}

/** The body of a create request: writable fields, required ones, defaults. */
export function createSchema(resource: Resource): JsonSchema {
  return derive(resource, 'create');
}

/** The body of a PATCH: changeable fields only, none required, no defaults. */
export function patchSchema(resource: Resource): JsonSchema {
  return derive(resource, 'patch');
}

/** The stored form: what the API returns and a snapshot holds; server fields optional. */
export function storedSchema(resource: Resource): JsonSchema {
  return derive(resource, 'stored');
}

/** An array of `item`, with an optional bound. */
export function arrayOf(item: JsonSchema, maxItems?: number): JsonSchema {
  return maxItems === undefined ? { type: 'array', items: item } : { type: 'array', items: item, maxItems };
}

const component = (rule: Resource): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: { rules: arrayOf(storedSchema(rule)), filters: arrayOf(storedSchema(FILTER)) },
});

/** A whole configuration snapshot (DESIGN.md "Snapshot file"); every key optional. */
export const SNAPSHOT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  'x-check': 'snapshot',
  properties: {
    tcp_protection_status: storedSchema(STATUS),
    prefixes: arrayOf(storedSchema(PREFIX)),
    allowlist: arrayOf(storedSchema(ALLOWLIST_ENTRY)),
    ...Object.fromEntries(PROTECTION_COMPONENTS.map((spec) => [spec.name, component(COMPONENT_RULES[spec.name])])),
    rulesets: arrayOf(storedSchema(RULESET)),
    lists: arrayOf(storedSchema(LIST)),
  },
};
