// explain (edgesim lint --explain REF): how one rule overlaps the enabled rules before it. Partial
// overlaps are not findings, but a reviewer changing a rule wants to see them: for each earlier
// rule sharing packets with this one, whether it covers all of them, its action, and a witness
// packet both match; then the rule's own status (lint.ts) with its witness.
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { printable } from '../terminal-text.js';
import { ruleStatus } from './lint.js';
import { type ModelOptions, modelFirewalls } from './model.js';
import { intersectRegions, isEmptyRegion, regionCovers } from './space.js';
import { type Witness, witnessOf } from './witness.js';

export interface Overlap {
  readonly rule: string;
  readonly action: string;
  /** every packet the explained rule may match, this one certainly matches */
  readonly covers: boolean;
  /** false: the shared packets are only possible (indeterminate parts) */
  readonly certain: boolean;
  readonly witness: Witness;
}

export interface Explanation {
  readonly ruleset: string;
  readonly rule: string;
  readonly action: string;
  readonly status: 'disabled' | 'unmatchable' | 'unreachable' | 'reachable' | 'indeterminate';
  /** reachable: a packet it decides (or, for log, matches); unreachable: a packet it matches */
  readonly witness: Witness | null;
  readonly overlaps: Overlap[];
}

export function explain(snapshot: Snapshot, ref: string, options: ModelOptions = {}): Explanation {
  const { space, firewalls } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  const i = model.rules.findIndex((r) => r.ref === ref);
  if (i < 0) throw new UserError(printable(`no rule ${ref} (rules: ${model.rules.map((r) => r.ref).join(', ')})`), { source: '--explain' });
  const rule = model.rules[i]!;
  const overlaps: Overlap[] = [];
  for (const other of model.rules.slice(0, i)) {
    if (!other.enabled) continue;
    const sure = intersectRegions(rule.meaning.must, other.meaning.must);
    const possible = isEmptyRegion(sure) ? intersectRegions(rule.meaning.may, other.meaning.may) : sure;
    if (isEmptyRegion(possible)) continue;
    overlaps.push({
      rule: other.ref,
      action: other.action,
      covers: regionCovers(other.meaning.must, rule.meaning.may),
      certain: !isEmptyRegion(sure),
      witness: witnessOf(possible[0]!, space.names),
    });
  }
  const status = ruleStatus(model, i);
  const witness =
    status.kind === 'reachable' ? witnessOf(status.witnessRegion[0]!, space.names) : status.kind === 'unreachable' ? witnessOf(status.region[0]!, space.names) : null;
  return { ruleset: rule.ruleset, rule: rule.ref, action: rule.action, status: status.kind, witness, overlaps };
}
