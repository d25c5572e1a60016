// explain (edgesim lint --explain REF): how one rule overlaps the enabled rules before it. Partial
// overlaps are not findings, but a reviewer changing a rule wants to see them: for each earlier
// rule sharing packets with this one, whether it covers all of them, its action, and a witness
// packet both match; then the rule's own status (lint.ts) with its witness. Each earlier rule is one
// question of the run's budget (budget.ts): one the limit leaves open is listed as an overlap that
// is undecided, with the reason (it may share packets: the reordering advice never takes it for
// disjoint).
import type { Snapshot } from '../config/snapshot.js';
import { UserError } from '../errors.js';
import { printable } from '../terminal-text.js';
import { withinBudget } from './budget.js';
import { ruleStatus } from './lint.js';
import { type ModelOptions, modelFirewalls } from './model.js';
import { firstOutside, intersectRegions, isEmptyRegion } from './space.js';
import { type Witness, witnessOf } from './witness.js';

export interface Overlap {
  readonly rule: string;
  readonly action: string;
  /** every packet the explained rule may match, this one certainly matches */
  readonly covers: boolean;
  /** false: the shared packets are only possible (indeterminate parts) */
  readonly certain: boolean;
  /** a packet both match; null when undecided */
  readonly witness: Witness | null;
  /** why the analysis could not tell whether they share a packet (its work limit), when it could not */
  readonly undecided?: string;
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
  const { space, firewalls, budget: run } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  const i = model.rules.findIndex((r) => r.ref === ref);
  if (i < 0) throw new UserError(printable(`no rule ${ref} (rules: ${model.rules.map((r) => r.ref).join(', ')})`), { source: '--explain' });
  const rule = model.rules[i]!;
  const overlaps: Overlap[] = [];
  for (const other of model.rules.slice(0, i)) {
    if (!other.enabled) continue;
    const budget = run.question();
    const found = withinBudget(
      (): Overlap | null => {
        const sure = intersectRegions(rule.meaning.must, other.meaning.must, budget);
        const possible = isEmptyRegion(sure) ? intersectRegions(rule.meaning.may, other.meaning.may, budget) : sure;
        if (isEmptyRegion(possible)) return null;
        const covers = firstOutside(rule.meaning.may, [other.meaning.must], budget) === null;
        return { rule: other.ref, action: other.action, covers, certain: !isEmptyRegion(sure), witness: witnessOf(possible[0]!, space.names) };
      },
      (reason) => ({ rule: other.ref, action: other.action, covers: false, certain: false, witness: null, undecided: `${reason} before deciding whether they share a packet` }),
    );
    if (found !== null) overlaps.push(found);
  }
  const status = ruleStatus(model, i, run);
  const witness =
    status.kind === 'reachable' ? witnessOf(status.witnessRegion[0]!, space.names) : status.kind === 'unreachable' ? witnessOf(status.region[0]!, space.names) : null;
  return { ruleset: rule.ruleset, rule: rule.ref, action: rule.action, status: status.kind, witness, overlaps };
}
