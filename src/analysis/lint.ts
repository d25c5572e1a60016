// lint: what in a snapshot's firewall is dead or contradictory, proved over the header space.
// - unmatchable: the rule's expression matches no packet (the packet model included).
// - unreachable: every packet it may match is certainly decided by earlier enabled block/skip
//   rules; blocked_by is a smallest such set (cover.ts says how small), different_action whether
//   one of them acts otherwise.
// - indeterminate: unmodelled parts (regex, bytes, functions, unknown lists) leave the rule neither
//   proved dead nor given a packet it certainly decides.
// - warnings: `!=`/`not` on transport fields where the rule then matches packets without that
//   transport, comparisons that can never be true, empty or unknown lists, ATP filters that never
//   apply.
// A rule that is none of these has a witness: a packet it certainly decides (or, for a log rule,
// certainly sees and matches).
import type { Snapshot } from '../config/snapshot.js';
import type { Note } from './atoms.js';
import type { Finding, FindingKind } from './findings.js';
import { type AnalysisBudget, WORK_LIMIT, questionBudget, withinBudget } from './budget.js';
import { smallestCover } from './cover.js';
import { atpFilterFindings } from './atp-filters.js';
import { type FirewallModel, type HeaderSpace, type ModelOptions, type ModelledRule, modelFirewalls } from './model.js';
import { Dim, type Region, constrain, firstOutside, isEmptyRegion } from './space.js';
import { point, subtract } from './intervals.js';
import { type Witness, witnessOf } from './witness.js';

/** What the analysis says about one rule's reachability. */
export type RuleStatus =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'unmatchable' }
  /** minimal: false when the work limit stopped the search for a smaller blocked_by */
  | { readonly kind: 'unreachable'; readonly blockedBy: number[]; readonly minimal: boolean; readonly region: Region }
  /** witnessRegion: packets the rule certainly decides (a part of them, not all) */
  | { readonly kind: 'reachable'; readonly witnessRegion: Region }
  | { readonly kind: 'indeterminate'; readonly reason: string };

const UNMODELLED = 'parts the analysis does not model (regular expressions, byte strings, functions, unknown lists) decide whether it is reached';

/** Why a rule's own bounds and those of the earlier rules leave its reachability open. */
function unsettledBy(model: FirewallModel, earlier: readonly number[]): string {
  const unbuilt = earlier.filter((k) => model.rules[k]!.limit !== undefined).map((k) => model.rules[k]!.ref);
  return unbuilt.length === 0 ? UNMODELLED : `${UNMODELLED}, or the packet classes of ${unbuilt.join(', ')}, which the work limit left unbuilt`;
}

function earlierTerminating(model: FirewallModel, i: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < i; k++) {
    const r = model.rules[k]!;
    if (r.enabled && r.action !== 'log') out.push(k);
  }
  return out;
}

/** Reachability of rule `i` (index into model.rules), spending at most `limit` steps (or a question of a run's budget). */
export function ruleStatus(model: FirewallModel, i: number, limit: number | AnalysisBudget = WORK_LIMIT): RuleStatus {
  const rule = model.rules[i]!;
  if (!rule.enabled) return { kind: 'disabled' };
  const { must, may } = rule.meaning;
  if (isEmptyRegion(may)) return { kind: 'unmatchable' };
  const budget = questionBudget(limit);
  return withinBudget(
    (): RuleStatus => {
      const earlier = earlierTerminating(model, i);
      const musts = earlier.map((k) => model.rules[k]!.meaning.must);
      const used = new Set<number>();
      const outside = firstOutside(may, musts, budget, used);
      if (outside === null) {
        const cover = smallestCover(may, musts, [...used], budget);
        return { kind: 'unreachable', blockedBy: cover.indexes.map((c) => earlier[c]!), minimal: cover.minimal, region: may };
      }
      const exact = must === may && earlier.every((k) => model.rules[k]!.meaning.must === model.rules[k]!.meaning.may);
      // exact: the box outside every earlier must is outside every earlier may, inside the rule's must
      const witness = exact ? outside : firstOutside(must, earlier.map((k) => model.rules[k]!.meaning.may), budget);
      return witness === null ? { kind: 'indeterminate', reason: rule.limit ?? unsettledBy(model, earlier) } : { kind: 'reachable', witnessRegion: [witness] };
    },
    (reason) => ({ kind: 'indeterminate', reason: `${reason} before deciding whether it is reached` }),
  );
}

function noteFinding(rule: ModelledRule, note: Note, space: HeaderSpace): Finding | null {
  if (note.kind === 'negated_protocol_field') {
    const stray = constrain(rule.meaning.must, new Map([[Dim.l4, subtract([0n, 3n], point(note.transport!))]]));
    if (isEmptyRegion(stray)) return null;
    return finding(rule, note.kind, `${note.message}; the rule matches such packets`, witnessOf(stray[0]!, space.names));
  }
  return finding(rule, note.kind, note.message, null);
}

function finding(rule: ModelledRule, kind: FindingKind, message: string, witness: Witness | null, blockedBy: string[] = [], different = false): Finding {
  return { ruleset: rule.ruleset, rule: rule.ref, kind, blocked_by: blockedBy, different_action: different, witness, message };
}

/** Findings for the firewall rules of one modelled snapshot. */
export function lintModel(model: FirewallModel, space: HeaderSpace, limit: number | AnalysisBudget = WORK_LIMIT): Finding[] {
  const out: Finding[] = [];
  model.rules.forEach((rule, i) => {
    if (!rule.enabled) return;
    const seen = new Set<string>();
    for (const note of rule.notes) {
      const f = noteFinding(rule, note, space);
      if (f !== null && !seen.has(`${f.kind}\n${f.message}`)) {
        seen.add(`${f.kind}\n${f.message}`);
        out.push(f);
      }
    }
    const status = ruleStatus(model, i, limit);
    if (status.kind === 'unmatchable') out.push(finding(rule, 'unmatchable', `${rule.ref} matches no packet`, null));
    else if (status.kind === 'unreachable') {
      const blockers = status.blockedBy.map((k) => model.rules[k]!);
      const different = blockers.some((b) => b.action !== rule.action);
      const names = blockers.map((b) => b.ref);
      const smaller = status.minimal ? '' : ' (the work limit stopped the search for fewer rules)';
      out.push(
        finding(
          rule,
          'unreachable',
          `${rule.ref} (${rule.action}) is never reached: every packet it matches is decided earlier by ${names.join(', ')}${different ? ', with a different action' : ''}${smaller}`,
          witnessOf(status.region[0]!, space.names),
          names,
          different,
        ),
      );
    } else if (status.kind === 'indeterminate') {
      out.push(finding(rule, 'indeterminate', `${rule.ref}: ${status.reason}`, null));
    }
  });
  return out;
}

/** lint for a snapshot: firewall rules, then ATP filters. */
export function lint(snapshot: Snapshot, options: ModelOptions = {}): Finding[] {
  const { space, firewalls, budget } = modelFirewalls([{ snapshot, options }]);
  return [...lintModel(firewalls[0]!, space, budget), ...atpFilterFindings(snapshot, space, budget)];
}

/** The reachability of each firewall rule of a snapshot, in the order of its rulesets. */
export function ruleStatuses(snapshot: Snapshot, options: ModelOptions = {}): Array<{ ref: string; status: RuleStatus }> {
  const { firewalls, budget } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  return model.rules.map((rule, i) => ({ ref: rule.ref, status: ruleStatus(model, i, budget) }));
}
