// What lint reports: one finding per problem, in the JSON shape `edgesim lint --json` prints, each
// kind with its default severity. Errors fail the command always, warnings with --fail-on
// warning, notes (indeterminate) never. The deploy-time checks (config/deploy-checks.ts) are
// findings too: the API would refuse the configuration when it is deployed.
import { DEPLOY_CHECKS, type DeployCheckCode } from '../config/deploy-checks.js';
import type { Witness } from './witness.js';

export type Severity = 'error' | 'warning' | 'note';

export type FindingKind =
  | 'unmatchable'
  | 'unreachable'
  | 'indeterminate'
  | 'negated_protocol_field'
  | 'impossible_comparison'
  | 'empty_list'
  | 'unknown_list'
  | 'atp_filter_never_applies'
  | DeployCheckCode;

export interface Finding {
  readonly ruleset: string;
  /** null for a finding about the whole ruleset */
  readonly rule: string | null;
  readonly kind: FindingKind;
  readonly blocked_by: string[];
  readonly different_action: boolean;
  readonly witness: Witness | null;
  readonly message: string;
}

/** Each kind's default severity and what it finds (lint --help, SARIF rules). */
export const FINDING_KINDS: Readonly<Record<FindingKind, { severity: Severity; summary: string }>> = {
  unmatchable: { severity: 'error', summary: 'the rule matches no packet at all' },
  unreachable: { severity: 'error', summary: 'earlier enabled block/skip rules decide every packet the rule matches' },
  indeterminate: {
    severity: 'note',
    summary: 'parts the analysis does not model (regular expressions, byte strings, functions) or its work limit leave the rule neither proved dead nor given a packet it decides',
  },
  negated_protocol_field: { severity: 'warning', summary: '`!=` or `not` on a transport field also matches packets without that transport' },
  impossible_comparison: { severity: 'warning', summary: 'a comparison that can never be true' },
  empty_list: { severity: 'warning', summary: 'the rule uses a list with no items' },
  unknown_list: { severity: 'warning', summary: 'the rule uses a list the configuration does not define' },
  atp_filter_never_applies: { severity: 'warning', summary: 'an Advanced TCP Protection filter that never applies to a packet' },
  ...(Object.fromEntries(Object.entries(DEPLOY_CHECKS).map(([code, summary]) => [code, { severity: 'error', summary: `${summary}; the API refuses it when the ruleset is deployed` }])) as Record<
    DeployCheckCode,
    { severity: Severity; summary: string }
  >),
};

export const severityOf = (kind: FindingKind): Severity => FINDING_KINDS[kind].severity;
