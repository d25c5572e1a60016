// A snapshot's firewall as the analysis sees it: every rule in evaluation order (rulesets in
// snapshot order, as the firewall runs them) with its meaning over the header space and the
// warnings its comparisons raised. Several snapshots can be modelled together so they share one
// universe (compareRulesets needs the country codes both mention in one domain).
//
// Rules are modelled once per distinct text and set of lists: the same rule in both snapshots of a
// comparison (or twice in one) has one meaning object, which the comparison and the searches of
// space.ts recognise by identity. A list becomes ranges once and the same addresses are one object
// whichever snapshot holds them, so large sets meet by identity too. An expression whose packet
// classes cost more than the work limit to build keeps only the sound bounds (nothing certain,
// everything possible) and says why in `limit`.
//
// An expression the engine rejects is a configuration error (ConfigItemError naming the rule),
// exactly as when the firewall compiles it; an unknown list is not — lint reports it and treats the
// comparison as indeterminate.
import { type Ast, type Expr, FilterError, parse, settingsFor } from '../lang/index.js';
import type { RuleAction, Snapshot } from '../config/snapshot.js';
import { createListRegistry } from '../data/lists.js';
import { ConfigItemError } from '../errors.js';
import { ruleRef, rulesetName } from '../firewall/firewall.js';
import type { IpSet } from '../net/ip-set.js';
import { type Meaning, type Note, ipSetRanges } from './atoms.js';
import { type AnalysisBudget, runBudget, withinBudget } from './budget.js';
import { type Intervals, equal } from './intervals.js';
import { expressionMeaning } from './expression.js';
import { NameTables } from './names.js';
import { type Region, universe } from './space.js';

export interface ModelledRule {
  readonly ref: string;
  readonly ruleset: string;
  readonly action: RuleAction;
  readonly enabled: boolean;
  readonly expression: string;
  /** where it is in the snapshot, e.g. rulesets[0].rules[3] */
  readonly path: string;
  readonly meaning: Meaning;
  readonly notes: readonly Note[];
  /** why the meaning is only bounds: its expression reached the work limit */
  readonly limit?: string;
}

export interface FirewallModel {
  readonly rules: readonly ModelledRule[];
}

export interface HeaderSpace {
  readonly universe: Region;
  readonly names: NameTables;
}

export interface ModelOptions {
  /** resolves `$name` lists; default: the bundled managed-list samples and the snapshot's account lists */
  readonly lists?: (name: string) => IpSet | undefined;
  /** steps one question (a rule's meaning, its status, a pair of rules compared) may take; default WORK_LIMIT */
  readonly workLimit?: number;
  /** the run's budget every question spends from (budget.ts); default: a new one with `workLimit` a question */
  readonly budget?: AnalysisBudget;
}

/** Parses with the API's rules for `kind`; a rejected expression is a ConfigItemError at `path`. */
export function parseAt(expression: string, kind: 'rule' | 'filter', path: string): Ast {
  const { scheme, limits } = settingsFor(kind);
  try {
    return parse(expression, scheme, limits);
  } catch (err) {
    if (err instanceof FilterError) throw new ConfigItemError(path, err.message.trimEnd());
    throw err;
  }
}

interface ParsedRule extends Omit<ModelledRule, 'meaning' | 'notes' | 'limit'> {
  readonly ast: Ast;
}

function parseRules(snapshot: Snapshot): ParsedRule[] {
  const out: ParsedRule[] = [];
  (snapshot.rulesets ?? []).forEach((rs, i) => {
    const name = rulesetName(rs, i);
    (rs.rules ?? []).forEach((rule, j) => {
      const path = `rulesets[${i}].rules[${j}]`;
      out.push({
        ref: ruleRef(rule, name, j),
        ruleset: name,
        action: rule.action,
        enabled: rule.enabled !== false,
        expression: rule.expression,
        path,
        ast: parseAt(rule.expression, 'rule', `${path}.expression`),
      });
    });
  });
  return out;
}

/** Checks that every rule expression parses (ConfigItemError naming the rule otherwise). */
export function checkExpressions(snapshot: Snapshot): void {
  parseRules(snapshot);
}

function defaultLists(snapshot: Snapshot): (name: string) => IpSet | undefined {
  const registry = createListRegistry({ accountLists: snapshot.lists });
  return (name) => registry.resolve(name);
}

/** One header space for the given expressions (the country codes they mention). */
export function headerSpace(exprs: readonly Expr[]): HeaderSpace {
  const names = new NameTables(exprs);
  return { names, universe: universe(names.domains) };
}

/** Lists as ranges, built once per set and shared by content (see the top of this file). */
class ListRanges {
  private readonly bySet = new Map<IpSet, Intervals>();
  private readonly byContent = new Map<string, Intervals[]>();

  of(set: IpSet): Intervals {
    let ranges = this.bySet.get(set);
    if (ranges === undefined) {
      ranges = this.interned(ipSetRanges(set));
      this.bySet.set(set, ranges);
    }
    return ranges;
  }

  private interned(ranges: Intervals): Intervals {
    const key = `${ranges.length}:${ranges[0]}:${ranges[ranges.length >> 1]}:${ranges[ranges.length - 1]}`;
    const same = this.byContent.get(key) ?? [];
    const found = same.find((r) => equal(r, ranges));
    if (found !== undefined) return found;
    this.byContent.set(key, [...same, ranges]);
    return ranges;
  }
}

type RuleMeaning = Pick<ModelledRule, 'meaning' | 'notes' | 'limit'>;

/** Meanings by expression text, each with the lists it looked up (reused only where they resolve the same). */
class Meanings {
  private readonly byText = new Map<string, Array<{ modelled: RuleMeaning; lists: Map<string, Intervals | undefined> }>>();

  constructor(
    private readonly space: HeaderSpace,
    private readonly budget: AnalysisBudget,
  ) {}

  of(text: string, expr: Expr, lists: (name: string) => Intervals | undefined): RuleMeaning {
    const known = this.byText.get(text) ?? [];
    const same = known.find((k) => [...k.lists].every(([name, ranges]) => lists(name) === ranges));
    if (same !== undefined) return same.modelled;
    const looked = new Map<string, Intervals | undefined>();
    const notes: Note[] = [];
    const U = this.space.universe;
    const ctx = {
      universe: U,
      names: this.space.names,
      lists: (name: string) => {
        const ranges = lists(name);
        looked.set(name, ranges);
        return ranges;
      },
      notes,
      budget: this.budget.question(),
    };
    const modelled = withinBudget(
      (): RuleMeaning => ({ meaning: expressionMeaning(expr, ctx), notes }),
      (reason) => ({ meaning: { must: [], may: U }, notes, limit: `${reason} building the packet classes of its expression` }),
    );
    this.byText.set(text, [...known, { modelled, lists: looked }]);
    return modelled;
  }
}

/** Models the firewalls of several snapshots over one shared header space. */
export function modelFirewalls(
  snapshots: ReadonlyArray<{ snapshot: Snapshot; options?: ModelOptions }>,
  extra: readonly Expr[] = [],
): { space: HeaderSpace; firewalls: FirewallModel[]; budget: AnalysisBudget } {
  const parsed = snapshots.map(({ snapshot }) => parseRules(snapshot));
  const space = headerSpace([...parsed.flat().map((r) => r.ast.expr), ...extra]);
  const ranges = new ListRanges();
  const budget = runBudget(snapshots[0]?.options ?? {});
  const meanings = new Meanings(space, budget);
  const firewalls = parsed.map((rules, k) => {
    const { snapshot, options } = snapshots[k]!;
    const sets = options?.lists ?? defaultLists(snapshot);
    const lists = (name: string): Intervals | undefined => {
      const set = sets(name);
      return set === undefined ? undefined : ranges.of(set);
    };
    return {
      rules: rules.map((r): ModelledRule => {
        const { ast, ...rest } = r;
        return { ...rest, ...meanings.of(r.expression, ast.expr, lists) };
      }),
    };
  });
  return { space, firewalls, budget };
}
