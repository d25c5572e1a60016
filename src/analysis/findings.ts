// What lint reports: one finding per problem, in the JSON shape `edgesim lint --json` prints, and
// which kinds fail the command (errors always, warnings with --fail-on warning, indeterminate never).
import type { Witness } from './witness.js';

export type FindingKind =
  | 'unmatchable'
  | 'unreachable'
  | 'indeterminate'
  | 'negated_protocol_field'
  | 'impossible_comparison'
  | 'empty_list'
  | 'unknown_list'
  | 'atp_filter_never_applies';

export interface Finding {
  readonly ruleset: string;
  readonly rule: string;
  readonly kind: FindingKind;
  readonly blocked_by: string[];
  readonly different_action: boolean;
  readonly witness: Witness | null;
  readonly message: string;
}

/** Kinds that fail `edgesim lint` by default; every other kind fails it with --fail-on warning, except indeterminate. */
export const ERROR_KINDS: ReadonlySet<FindingKind> = new Set(['unmatchable', 'unreachable']);
export const WARNING_KINDS: ReadonlySet<FindingKind> = new Set([
  'negated_protocol_field',
  'impossible_comparison',
  'empty_list',
  'unknown_list',
  'atp_filter_never_applies',
]);
