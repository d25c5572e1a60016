// How much of a configuration's firewall the cases of a run cover (`edgesim test --coverage`), as
// code coverage tools count lines and branches. Per rule: how many packets reached it (the firewall
// evaluated it), matched it and were decided by it; per condition of its expression (each operand of
// and/or/xor/not), whether a packet that reached the rule saw it true and saw it false — condition
// coverage in the spirit of MC/DC. A rule is covered when some case matched it (a block or skip rule
// then decided the packet; a log rule only matches); a condition when it was seen both ways.
//
// The counts are taken beside the packet path, never in it: which rules a packet reached, matched and
// was decided by is read from the firewall's result after the packet was decided (on the compiled
// lane where it applies: a capture is replayed as it would be without --coverage), and the conditions
// of each rule it reached are evaluated again with the Rules language's reference interpreter, which
// evaluates every operand (the compiled predicates short-circuit, which would hide the operands after
// the first that settles the value). That is done once per class of packets the rules cannot tell
// apart (condition-classes.ts): a packet of a class already seen adds no condition value, and once
// every condition has been seen both ways no packet is classed at all. A packet ATP dropped never
// reached the firewall and counts for no rule. `space:` cases count for every rule their region
// certainly reaches (analysis/reach.ts), for rules only: a region is not one packet whose conditions
// have values.
//
// Disabled, unreachable and unmatchable rules (lint's analysis, under the run's analysis budget) are
// reported apart and counted in neither the covered nor the total: no case can cover them. Suites
// that test the same configuration add up to one coverage.
import { AnalysisBudget, ruleStatuses, type ReachedRule } from '../analysis/index.js';
import { decodeFrameAt } from '../capture/decode/link-up.js';
import { Has, PacketRecord } from '../capture/record.js';
import { createListRegistry } from '../data/lists.js';
import { recordBinding } from '../fields/binding.js';
import { ConditionProbe } from '../lang/index.js';
import type { PacketSink } from '../sim/outputs/packet-sinks.js';
import { Lane } from '../sim/lane.js';
import type { PacketVerdict } from '../sim/verdict.js';
import type { SuitePaths } from './case-path.js';
import { DecisionClasses } from './condition-classes.js';

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

/** slots of the table of classes seen last */
const RECENT = 4093;

/** the most classes remembered; past it they are forgotten (a packet of a forgotten class is counted again, at no harm) */
const MAX_CLASSES = 1 << 20;

/** The coverage of one configuration's firewall rules. */
export class ConfigurationCoverage {
  private readonly rules: Array<Omit<RuleCoverage, 'status' | 'excluded' | 'reached'>>;
  private readonly probes: Array<ConditionProbe<PacketRecord>>;
  /** packets whose last rule reached was rule i (the firewall evaluated rules 0..i) */
  private readonly reachedUpTo: Float64Array;
  private readonly classes: DecisionClasses;
  private readonly seen = new Set<number | string>();
  private readonly recent = new Float64Array(RECENT).fill(-1);
  /** conditions not yet seen both ways */
  private open: number;
  private readonly scratch = new PacketRecord();
  /** whether the sink's record has been looked up since it was decoded */
  private enriched = false;

  constructor(
    private readonly paths: SuitePaths,
    private readonly analysis: AnalysisBudget = new AnalysisBudget(),
  ) {
    const fw = paths.firewall;
    this.probes = fw.syntax.map((ast) => new ConditionProbe(ast, recordBinding, { lists: paths.path.lists }));
    this.rules = fw.rules.map((r, i) => ({
      rule: r.ref,
      ruleset: r.ruleset,
      matched: 0,
      decided: 0,
      spaces: 0,
      conditions: this.probes[i]!.texts.map((condition) => ({ condition, true: false, false: false })),
    }));
    this.reachedUpTo = new Float64Array(fw.rules.length);
    this.classes = new DecisionClasses(fw.syntax.filter((_, i) => fw.rules[i]!.enabled), paths.path.lists);
    this.open = fw.rules.reduce((n, r, i) => n + (r.enabled ? this.rules[i]!.conditions.length : 0), 0);
  }

  /**
   * Counts a packet decided on a path over this configuration. On the decoder's lane its record holds
   * every field, looked up; the compiled lane reads only what its rules test, so the frame's bytes are
   * read into a record of coverage's own (its fields looked up as the path does, when a class needs them).
   * `rec`: the packet's record, when the caller decided one of its own (decideRecord).
   */
  packet(v: PacketVerdict, rec: PacketRecord = v.record): void {
    if (v.lane === Lane.DECODER) return this.count(rec, v, null);
    decodeFrameAt(this.scratch, rec.linkType, rec.data, rec.dataOff, rec.capLen, rec.origLen);
    this.scratch.frame = rec.frame;
    this.enriched = false;
    this.count(this.scratch, v, this.enrichScratch);
  }

  private readonly enrichScratch = (): void => {
    if (this.enriched) return;
    this.enriched = true;
    this.paths.path.enrichment?.enrich(this.scratch);
  };

  /** Counts a packet; `enrich` fills its looked-up fields when its class needs them (null: they are filled). */
  private count(rec: PacketRecord, v: PacketVerdict, enrich: (() => void) | null): void {
    if ((rec.present & Has.IP) === 0 || (v.stage !== null && v.stage !== 'firewall')) return;
    const result = v.firewall;
    const last = result.decidingRule < 0 ? this.rules.length - 1 : result.decidingRule;
    if (last >= 0) this.reachedUpTo[last]!++;
    for (let k = 0; k < result.matchedCount; k++) this.rules[result.matched[k]!]!.matched++;
    if (result.decidingRule >= 0) this.rules[result.decidingRule]!.decided++;
    if (this.open > 0) this.conditions(rec, last, enrich);
  }

  /** The conditions of rules 0..last for a packet of a class not seen before. */
  private conditions(rec: PacketRecord, last: number, enrich: (() => void) | null): void {
    const key = this.classes.keyWith(rec, enrich);
    // the classes seen last, in a table indexed by the key, before the set
    if (typeof key === 'number') {
      const slot = key % RECENT;
      if (this.recent[slot] === key) return;
      this.recent[slot] = key;
    }
    if (this.seen.has(key)) return;
    // the conditions read the looked-up fields too
    if (enrich !== null && !this.enriched) enrich();
    if (this.seen.size >= MAX_CLASSES) this.seen.clear();
    this.seen.add(key);
    const rules = this.paths.firewall.rules;
    for (let i = 0; i <= last; i++) {
      if (!rules[i]!.enabled) continue;
      const conditions = this.rules[i]!.conditions;
      for (let k = 0; k < conditions.length; k++) {
        const c = conditions[k]!;
        if (c.true && c.false) continue;
        const seen = this.probes[i]!.condition(k, rec);
        c.true ||= seen.isTrue;
        c.false ||= seen.isFalse;
        if (c.true && c.false) this.open--;
      }
    }
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

  /**
   * A sink that counts every packet of a replay over this configuration. The replay may have decided
   * a frame on the compiled lane, which leaves its record undecoded: the sink reads the frame's bytes
   * into a record of its own (and looks its fields up as the path does) to count it.
   */
  sink(): PacketSink {
    return { packet: (v) => this.packet(v), close: async () => {} };
  }

  /** The rules with why no case can cover those that cannot (the analysis runs once, here). */
  details(): RuleCoverage[] {
    const registry = createListRegistry({ dir: this.paths.options.listsDir, accountLists: this.paths.snapshot.lists });
    const statuses = ruleStatuses(this.paths.snapshot, { lists: (n) => registry.resolve(n), budget: this.analysis });
    const rules = this.paths.firewall.rules;
    let reached = 0;
    const reachedBy = new Array<number>(rules.length);
    for (let i = rules.length - 1; i >= 0; i--) {
      reached += this.reachedUpTo[i]!;
      reachedBy[i] = rules[i]!.enabled ? reached : 0;
    }
    return this.rules.map((r, i) => {
      const kind = statuses[i]!.status.kind;
      const excluded = kind === 'disabled' || kind === 'unreachable' || kind === 'unmatchable' ? kind : null;
      const count = reachedBy[i]!;
      const status = r.decided > 0 ? 'decided' : r.matched > 0 ? 'matched' : count > 0 ? 'reached' : 'never reached';
      const { rule, ruleset, matched, decided, spaces } = r;
      return { rule, ruleset, status, reached: count, matched, decided, spaces, conditions: r.conditions.map((c) => ({ ...c })), excluded };
    });
  }
}

/** The coverage of a run: one per configuration its suites test. */
export class RunCoverage {
  private readonly byConfiguration = new Map<string, ConfigurationCoverage>();

  /** `analysis`: the run's analysis budget (the space: cases spend from it too) */
  constructor(readonly analysis: AnalysisBudget = new AnalysisBudget()) {}

  /** The coverage of the configuration `paths` was compiled from (suites with the same one share it). */
  of(paths: SuitePaths): ConfigurationCoverage {
    const key = JSON.stringify([paths.snapshot.rulesets ?? [], paths.snapshot.lists ?? []]);
    let c = this.byConfiguration.get(key);
    if (c === undefined) this.byConfiguration.set(key, (c = new ConfigurationCoverage(paths, this.analysis)));
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
