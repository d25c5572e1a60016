// The configuration snapshot: one JSON object whose keys are the API's resources, each holding the
// same objects the API accepts and returns (DESIGN.md, "Snapshot file"). Every key is optional.
// These are the shapes; validation of a loaded file lives beside them (validate.ts).
import type { ComponentName } from '../protection-components.js';

export type Mode = 'enabled' | 'disabled' | 'monitoring';
export type Sensitivity = 'low' | 'medium' | 'high';
export type Scope = 'global' | 'region' | 'datacenter';

export interface ProtectionStatus {
  enabled: boolean;
}

export interface Prefix {
  id?: string;
  prefix: string;
  comment?: string;
  excluded?: boolean;
  created_on?: string;
  modified_on?: string;
}

export interface AllowlistEntry {
  id?: string;
  prefix: string;
  comment?: string;
  enabled?: boolean;
  created_on?: string;
  modified_on?: string;
}

export interface ProtectionRule {
  id?: string;
  scope: Scope;
  name: string;
  mode: Mode;
  rate_sensitivity?: Sensitivity;
  burst_sensitivity?: Sensitivity;
  /** SYN-flood rules only; defaults to 'challenge' */
  mitigation_type?: 'challenge' | 'retransmit';
  created_on?: string;
  modified_on?: string;
}

export interface ProtectionFilter {
  id?: string;
  expression: string;
  mode: Mode;
  created_on?: string;
  modified_on?: string;
}

export interface ProtectionComponent {
  rules?: ProtectionRule[];
  filters?: ProtectionFilter[];
}

export type RuleAction = 'block' | 'skip' | 'log';

export interface RulesetRule {
  id?: string;
  /** the rule's name in every report; defaults to its id */
  ref?: string;
  version?: string;
  action: RuleAction;
  action_parameters?: { ruleset?: 'current' };
  expression: string;
  description?: string;
  enabled?: boolean;
  /** whether matches are logged; the vendor takes it on `skip` rules only */
  logging?: { enabled: boolean };
  last_updated?: string;
}

export interface Ruleset {
  id?: string;
  name: string;
  description?: string;
  /** 'root' */
  kind: string;
  /** 'edge_transit' (vendor alias 'magic_transit') */
  phase: string;
  version?: string;
  last_updated?: string;
  rules?: RulesetRule[];
}

export interface ListItem {
  id?: string;
  ip: string;
  comment?: string;
  created_on?: string;
  modified_on?: string;
}

/** An account list (`/accounts/ID/rules/lists`), with its items embedded in a snapshot. */
export interface AccountList {
  id?: string;
  name: string;
  description?: string;
  /** 'ip' */
  kind: string;
  num_items?: number;
  created_on?: string;
  modified_on?: string;
  items?: ListItem[];
}

/** Each protection component's rules and filters under its name (src/protection-components.ts). */
export type ProtectionComponents = { [K in ComponentName]?: ProtectionComponent };

export interface Snapshot extends ProtectionComponents {
  tcp_protection_status?: ProtectionStatus;
  prefixes?: Prefix[];
  allowlist?: AllowlistEntry[];
  rulesets?: Ruleset[];
  lists?: AccountList[];
}
