// What the API keeps for one account: the snapshot resources, with every server field filled,
// plus what only the API needs (each ruleset's version history, the bulk operations of lists); and
// the schema a state file is checked against when it is loaded, so a file edited by hand (or by
// another version) is refused at start-up with its path, not a 500 on some later request.
import { PROTECTION_COMPONENTS, type ComponentName } from '../protection-components.js';
import { arrayOf, LIST, PHASE_SPELLINGS, RULESET, SNAPSHOT_SCHEMA, storedSchema } from '../config/resources.js';
import type { JsonSchema } from '../config/schema.js';
import type {
  AccountList, AllowlistEntry, Prefix, ProtectionFilter, ProtectionRule, ProtectionStatus, Ruleset, RulesetRule,
} from '../config/snapshot.js';

/** A ruleset as of one version. */
export interface RulesetVersion {
  version: string;
  last_updated: string;
  name: string;
  description?: string;
  rules: RulesetRule[];
}

export interface StoredRuleset extends Ruleset {
  id: string;
  version: string;
  last_updated: string;
  rules: RulesetRule[];
  /** the phase as the client wrote it last, when not the canonical spelling (`magic_transit`) */
  phase_spelling?: string;
  /** older versions, oldest first (the current one is the ruleset itself) */
  history: RulesetVersion[];
}

export interface StoredList extends AccountList {
  id: string;
  items: NonNullable<AccountList['items']>;
}

/** A list bulk operation: the mock completes every operation before answering. */
export interface BulkOperation {
  id: string;
  status: 'completed';
  completed: string;
}

/** A protection component's rules and filters as an account holds them. */
export interface StoredComponent {
  rules: ProtectionRule[];
  filters: ProtectionFilter[];
}

export interface AccountState extends Record<ComponentName, StoredComponent> {
  tcp_protection_status: ProtectionStatus;
  prefixes: Prefix[];
  allowlist: AllowlistEntry[];
  rulesets: StoredRuleset[];
  lists: StoredList[];
  operations: BulkOperation[];
}

/** A new account: protection off, nothing configured (the spec's initial state). */
export function emptyAccount(): AccountState {
  return {
    tcp_protection_status: { enabled: false },
    prefixes: [],
    allowlist: [],
    ...(Object.fromEntries(PROTECTION_COMPONENTS.map(({ name }): [ComponentName, StoredComponent] => [name, { rules: [], filters: [] }])) as Record<ComponentName, StoredComponent>),
    rulesets: [],
    lists: [],
    operations: [],
  };
}

const snapshot = SNAPSHOT_SCHEMA.properties!;
/** a stored account always has both lists of a protection component */
const complete = (component: JsonSchema): JsonSchema => ({ ...component, required: ['rules', 'filters'] });

const storedRuleset = storedSchema(RULESET);
const text: JsonSchema = { type: 'string' };

/**
 * An account's state as stored. Older versions of a ruleset are checked for shape only: they are
 * shown as they were, never evaluated, and compiling up to 100 versions of 200 rules would slow the
 * start-up for nothing.
 */
export const ACCOUNT_STATE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...snapshot,
    ...Object.fromEntries(PROTECTION_COMPONENTS.map(({ name }) => [name, complete(snapshot[name]!)])),
    rulesets: arrayOf({
      ...storedRuleset,
      required: [...(storedRuleset.required ?? []), 'id', 'version', 'last_updated'],
      properties: {
        ...storedRuleset.properties,
        phase_spelling: { type: 'string', enum: PHASE_SPELLINGS },
        history: arrayOf({
          type: 'object',
          additionalProperties: false,
          required: ['version', 'last_updated', 'name', 'rules'],
          properties: { version: text, last_updated: text, name: text, description: text, rules: arrayOf({ type: 'object' }) },
        }),
      },
    }),
    lists: arrayOf({ ...storedSchema(LIST), required: ['id', 'name', 'kind'] }),
    operations: arrayOf({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'status', 'completed'],
      properties: { id: text, status: { type: 'string', enum: ['completed'] }, completed: text },
    }),
  },
};
