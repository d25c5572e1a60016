// How much of a configuration's firewall the cases of a run cover (`edgesim test --coverage`), as
// code coverage tools count lines and branches. Per rule: how many packets reached it (the firewall
// evaluated it), matched it and were decided by it; per condition of its expression (each operand of
// and/or/xor/not), whether a packet that reached the rule saw it true and saw it false — condition
// coverage in the spirit of MC/DC. A rule is covered when some case matched it (a block or skip rule
// then decided the packet; a log rule only matches); a condition when it was seen both ways.
//
// The counts are taken beside the packet path, never in it: which rules a packet reached, matched and
// was decided by is read from the firewall's result after the packet was decided, and the conditions
// of each rule it reached are evaluated again with the Rules language's reference interpreter, which
// evaluates every operand (the compiled predicates short-circuit, which would hide the operands after
// the first that settles the value). A packet ATP dropped never reached the firewall and counts for
// no rule. `space:` cases count for every rule their region certainly reaches (analysis/reach.ts), for
// rules only: a region is not one packet whose conditions have values.
//
// Disabled, unreachable and unmatchable rules (lint's analysis) are reported apart and counted in
// neither the covered nor the total: no case can cover them. Suites that test the same configuration
// add up to one coverage.
import { ruleStatuses, type ReachedRule } from '../analysis/index.js';
import { Has, type PacketRecord } from '../capture/record.js';
import { createListRegistry } from '../data/lists.js';
import { recordBinding } from '../fields/binding.js';
import { ConditionProbe } from '../lang/index.js';
import type { PacketSink } from '../sim/outputs/packet-sinks.js';
import type { PacketVerdict } from '../sim/verdict.js';
import type { SuitePaths } from './case-path.js';

/** Why no case can cover a rule. */
export type Excluded = 'disabled' | 'unreachable' | 'unmatchable';

export interface ConditionCoverage {
  /** the condition in the Rules language's canonical text */
  condition: string;
  true: boolean;
  false: boolean;
}

/** What the cases did with a rule, the most first: decided a packet, matched one (log rules), reached one (the firewall evaluated it), nothing. */
export type RuleReach = 'decided' | 'matched' | 'reached' | 'never reached';

export interface RuleCoverage {
  rule: string;
  ruleset: string;
  status: RuleReach;
  /** packets the firewall evaluated the rule for */
  reached: number;
  /** packets, and space: cases, that matched it */
  matched: number;
  /** packets, and space: cases, it decided */
  decided: number;
  /** space: cases whose region reaches it */
  spaces: number;
  /** why no case can cover it; null when it counts */
  excluded: Excluded | null;
  conditions: ConditionCoverage[];
}

export interface Tally {
  covered: number;
  total: number;
}

export interface CoverageReport {
  rules: Tally & { uncovered: string[] };
  conditions: Tally;
  rulesets: Array<{ ruleset: string; rules: Tally; conditions: Tally }>;
  /** rules no case can cover, with why; counted in no total */
  excluded: Array<{ rule: string; ruleset: string; why: Excluded }>;
  details: RuleCoverage[];
}

/** The coverage of one configuration's firewall rules. */
export class ConfigurationCoverage {
  private readonly rules: Array<Omit<RuleCoverage, 'status' | 'excluded'>>;
  private readonly probes: Array<ConditionProbe<PacketRecord>>;

  constructor(private readonly paths: SuitePaths) {
    const fw = paths.firewall;
    this.probes = fw.syntax.map((ast) => new ConditionProbe(ast, recordBinding, { lists: paths.path.lists }));
    this.rules = fw.rules.map((r, i) => ({
      rule: r.ref,
      ruleset: r.ruleset,
      reached: 0,
      matched: 0,
      decided: 0,
      spaces: 0,
      conditions: this.probes[i]!.texts.map((condition) => ({ condition, true: false, false: false })),
    }));
  }

  /** Counts a packet decided on a path over this configuration (on the decoder's lane: its record holds every field). */
  packet(v: PacketVerdict): void {
    const rec = v.record;
    if ((rec.present & Has.IP) === 0 || (v.stage !== null && v.stage !== 'firewall')) return;
    const result = v.firewall;
    const rules = this.paths.firewall.rules;
    const last = result.decidingRule < 0 ? rules.length - 1 : result.decidingRule;
    for (let i = 0; i <= last; i++) {
      if (!rules[i]!.enabled) continue;
      const rule = this.rules[i]!;
      rule.reached++;
      rule.conditions.forEach((c, k) => {
        if (c.true && c.false) return;
        const seen = this.probes[i]!.condition(k, rec);
        c.true ||= seen.isTrue;
        c.false ||= seen.isFalse;
      });
    }
    for (let k = 0; k < result.matchedCount; k++) this.rules[result.matched[k]!]!.matched++;
    if (result.decidingRule >= 0) this.rules[result.decidingRule]!.decided++;
  }

  /** Counts a space: case by the rules its region reaches. */
  space(reached: readonly ReachedRule[]): void {
    for (const r of reached) {
      const rule = this.rules.find((x) => x.rule === r.ref)!;
      rule.spaces++;
      rule.matched++;
      if (r.decided) rule.decided++;
    }
  }

  /** A sink that counts every packet of a replay over this configuration. */
  sink(): PacketSink {
    return { packet: (v) => this.packet(v), close: async () => {} };
  }

  /** The rules with why no case can cover those that cannot (the analysis runs once, here). */
  details(): RuleCoverage[] {
    const registry = createListRegistry({ dir: this.paths.options.listsDir, accountLists: this.paths.snapshot.lists });
    const statuses = ruleStatuses(this.paths.snapshot, { lists: (n) => registry.resolve(n) });
    return this.rules.map((r, i) => {
      const kind = statuses[i]!.status.kind;
      const excluded = kind === 'disabled' || kind === 'unreachable' || kind === 'unmatchable' ? kind : null;
      const status = r.decided > 0 ? 'decided' : r.matched > 0 ? 'matched' : r.reached > 0 ? 'reached' : 'never reached';
      const { rule, ruleset, ...counts } = r;
      return { rule, ruleset, status, ...counts, excluded, conditions: r.conditions.map((c) => ({ ...c })) };
    });
  }
}

/** The coverage of a run: one per configuration its suites test. */
export class RunCoverage {
  private readonly byConfiguration = new Map<string, ConfigurationCoverage>();

  /** The coverage of the configuration `paths` was compiled from (suites with the same one share it). */
  of(paths: SuitePaths): ConfigurationCoverage {
    const key = JSON.stringify([paths.snapshot.rulesets ?? [], paths.snapshot.lists ?? []]);
    let c = this.byConfiguration.get(key);
    if (c === undefined) this.byConfiguration.set(key, (c = new ConfigurationCoverage(paths)));
    return c;
  }

  report(): CoverageReport {
    return coverageReport([...this.byConfiguration.values()].flatMap((c) => c.details()));
  }
}

const isCovered = (r: RuleCoverage): boolean => r.matched > 0;

function tallies(rules: readonly RuleCoverage[]): { rules: Tally; conditions: Tally } {
  const counted = rules.filter((r) => r.excluded === null);
  const conditions = counted.flatMap((r) => r.conditions);
  return {
    rules: { covered: counted.filter(isCovered).length, total: counted.length },
    conditions: { covered: conditions.filter((c) => c.true && c.false).length, total: conditions.length },
  };
}

/** Totals of rule details, per ruleset and in all. */
export function coverageReport(details: RuleCoverage[]): CoverageReport {
  const all = tallies(details);
  const names = [...new Set(details.map((r) => r.ruleset))];
  return {
    rules: { ...all.rules, uncovered: details.filter((r) => r.excluded === null && !isCovered(r)).map((r) => r.rule) },
    conditions: all.conditions,
    rulesets: names.map((ruleset) => ({ ruleset, ...tallies(details.filter((r) => r.ruleset === ruleset)) })),
    excluded: details.flatMap((r) => (r.excluded === null ? [] : [{ rule: r.rule, ruleset: r.ruleset, why: r.excluded }])),
    details,
  };
}

/** A tally as a percentage (100 when there is nothing to cover, as coverage tools say). */
export function percent(t: Tally): number {
  return t.total === 0 ? 100 : (100 * t.covered) / t.total;
}
