// A snapshot's firewall as the analysis sees it: every rule in evaluation order (rulesets in
// snapshot order, as the firewall runs them) with its meaning over the header space and the
// warnings its comparisons raised. Several snapshots can be modelled together so they share one
// universe (compareRulesets needs the country codes both mention in one domain).
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
import type { Meaning, Note } from './atoms.js';
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

interface ParsedRule extends Omit<ModelledRule, 'meaning' | 'notes'> {
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

/** Models the firewalls of several snapshots over one shared header space. */
export function modelFirewalls(
  snapshots: ReadonlyArray<{ snapshot: Snapshot; options?: ModelOptions }>,
  extra: readonly Expr[] = [],
): { space: HeaderSpace; firewalls: FirewallModel[] } {
  const parsed = snapshots.map(({ snapshot }) => parseRules(snapshot));
  const space = headerSpace([...parsed.flat().map((r) => r.ast.expr), ...extra]);
  const firewalls = parsed.map((rules, k) => {
    const { snapshot, options } = snapshots[k]!;
    const lists = options?.lists ?? defaultLists(snapshot);
    return {
      rules: rules.map((r): ModelledRule => {
        const notes: Note[] = [];
        const meaning = expressionMeaning(r.ast.expr, { universe: space.universe, names: space.names, lists, notes });
        const { ast: _ast, ...rest } = r;
        return { ...rest, meaning, notes };
      }),
    };
  });
  return { space, firewalls };
}
