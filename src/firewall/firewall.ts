// The network firewall stage: the rulesets of phase edge_transit (vendor: magic_transit), rules in
// order. Disabled rules are passed over; `log` records a match and goes on; `block` drops; `skip`
// with {ruleset: "current"} ends evaluation and passes. The first terminating match decides; no
// match passes (the vendor's default policy is permit).
//
// The snapshot schema (config/) has already checked phases, actions and skip parameters; should a
// configuration carry several rulesets, their rules are evaluated as one ordered list, rulesets in
// snapshot order, and the first terminating match decides, as DESIGN.md says.
//
// The compiled firewall is immutable: what a packet did is written into a FirewallResult of the run
// that decides it (its matched rules as indices into a reused Int32Array, its hits and decisions
// counted into the run's typed arrays indexed by rule), so runs over one compiled firewall never
// share a count. evaluate() allocates nothing. The loop itself is generated per ruleset (evaluator.ts).
import { ConfigItemError } from '../errors.js';
import { FilterError, type Ast } from '../lang/index.js';
import type { IpSet } from '../net/ip-set.js';
import { compileRecordExpression } from '../fields/compile.js';
import type { PacketRecord } from '../capture/record.js';
import type { RuleAction, Ruleset, RulesetRule } from '../config/snapshot.js';
import { generateEvaluator } from './evaluator.js';

export interface FirewallRule {
  /** the rule's name in reports: its `ref`, else its `id`, else `<ruleset name>#<position>` */
  readonly ref: string;
  readonly ruleset: string;
  readonly action: RuleAction;
  readonly enabled: boolean;
  readonly expression: string;
  readonly description: string;
  /** where it came from in the configuration, e.g. rulesets[0].rules[3] */
  readonly path: string;
}

/** Per rule, what a run's packets did: the packets it matched (enabled rules only) and those whose verdict it decided. */
export interface RuleCounts {
  readonly hits: Float64Array;
  readonly decided: Float64Array;
}

/** The firewall's decision for one packet, in a run; one instance is reused for every packet of the run. */
export class FirewallResult {
  /** a terminating `block` rule decided */
  drop = false;
  /** index of the deciding rule in Firewall.rules, or -1 when no terminating rule matched */
  decidingRule = -1;
  /** indices of every enabled rule that matched, in evaluation order: matched[0 .. matchedCount) */
  matched: Int32Array;
  matchedCount = 0;
  /** the run's counts, by rule: evaluation adds each match and decision here */
  readonly hits: Float64Array;
  readonly decided: Float64Array;

  constructor(counts: RuleCounts) {
    this.hits = counts.hits;
    this.decided = counts.decided;
    this.matched = new Int32Array(Math.max(1, counts.hits.length));
  }

  /** No rule matched (a packet the firewall has not seen yet, or will not see). */
  clear(): void {
    this.drop = false;
    this.decidingRule = -1;
    this.matchedCount = 0;
  }
}

export interface FirewallOptions {
  /** resolves `$name` list references (managed and account lists) */
  lists?: (name: string) => IpSet | undefined;
}

/** How reports name the ruleset at position `index`: its name, else its id, else `rulesets[i]`. */
export function rulesetName(rs: Ruleset, index: number): string {
  return rs.name || rs.id || `rulesets[${index}]`;
}

/** How reports name a rule: its `ref`, else its `id`, else `<ruleset name>#<position>`. */
export function ruleRef(rule: RulesetRule, ruleset: string, index: number): string {
  return rule.ref || rule.id || `${ruleset}#${index + 1}`;
}

export class Firewall {
  readonly rules: readonly FirewallRule[];
  /** the Rules-language fields the rules read (the pipeline enriches packets only with what is used) */
  readonly fields: ReadonlySet<string>;
  /** per rule: its compiled expression, for explaining one packet (edgesim trace); evaluate() does not read it */
  readonly predicates: ReadonlyArray<(p: PacketRecord) => boolean>;
  /** per rule: its parsed expression, for code generated from it (the fast path), parsed once */
  readonly syntax: readonly Ast[];
  /** decides one packet into `out`, counting into its run's counts (generated per ruleset: see evaluator.ts) */
  readonly evaluate: (p: PacketRecord, out: FirewallResult) => void;

  private constructor(rules: FirewallRule[], predicates: Array<(p: PacketRecord) => boolean>, syntax: Ast[], fields: Set<string>) {
    this.rules = rules;
    this.fields = fields;
    this.predicates = predicates;
    this.syntax = syntax;
    this.evaluate = generateEvaluator({
      predicates,
      order: Int32Array.from(rules.flatMap((r, i) => (r.enabled ? [i] : []))),
      terminating: new Uint8Array(rules.map((r) => (r.action === 'log' ? 0 : 1))),
      drops: new Uint8Array(rules.map((r) => (r.action === 'block' ? 1 : 0))),
    });
  }

  /** Compiles the rulesets of the firewall phase; throws ConfigItemError naming the bad rule. */
  static compile(rulesets: readonly Ruleset[], options: FirewallOptions = {}): Firewall {
    const rules: FirewallRule[] = [];
    const predicates: Array<(p: PacketRecord) => boolean> = [];
    const syntax: Ast[] = [];
    const fields = new Set<string>();
    rulesets.forEach((rs, i) => {
      const name = rulesetName(rs, i);
      (rs.rules ?? []).forEach((rule, j) => {
        const path = `rulesets[${i}].rules[${j}]`;
        try {
          const compiled = compileRecordExpression('rule', rule.expression, options.lists);
          for (const f of compiled.fields) fields.add(f);
          predicates.push(compiled.predicate);
          syntax.push(compiled.ast);
        } catch (err) {
          if (err instanceof FilterError) throw new ConfigItemError(`${path}.expression`, err.message.trimEnd());
          throw err;
        }
        rules.push({
          ref: ruleRef(rule, name, j),
          ruleset: name,
          action: rule.action,
          enabled: rule.enabled !== false,
          expression: rule.expression,
          description: rule.description ?? '',
          path,
        });
      });
    });
    return new Firewall(rules, predicates, syntax, fields);
  }

  /** Zeroed counts for a run, one per rule. */
  newCounts(): RuleCounts {
    return { hits: new Float64Array(this.rules.length), decided: new Float64Array(this.rules.length) };
  }
}
