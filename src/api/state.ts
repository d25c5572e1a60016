// What the API keeps for one account: the snapshot resources, with every server field filled,
// plus what only the API needs (each ruleset's version history, the bulk operations of lists).
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

export interface AccountState {
  tcp_protection_status: ProtectionStatus;
  prefixes: Prefix[];
  allowlist: AllowlistEntry[];
  syn_protection: { rules: ProtectionRule[]; filters: ProtectionFilter[] };
  tcp_flow_protection: { rules: ProtectionRule[]; filters: ProtectionFilter[] };
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
    syn_protection: { rules: [], filters: [] },
    tcp_flow_protection: { rules: [], filters: [] },
    rulesets: [],
    lists: [],
    operations: [],
  };
}
