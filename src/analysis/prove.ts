// proveSpace: a test-suite `space:` case — every packet of a header space gets the expected
// verdict (and, when given, is decided by the expected rule) — proved over the whole space, or
// refuted with a witness packet (Batfish's searchFilters). The space is written like a packet, with
// lists of values: `{ip.dst: [203.0.113.0/24], ip.proto: tcp, tcp.dstport: [22, "8000-8080"]}`;
// it is turned into a Rules-language expression (each field `in {…}`, fields and-ed) so it means
// exactly what a rule with that text would. A list of such maps is their union (each map's
// expression `or`-ed): one case for a region of many boxes, as `pin` writes a rule's decided region.
// The firewall stage only: ATP is stateful and out of scope.
import type { Snapshot } from '../config/snapshot.js';
import { type Expr, FIREWALL_SCHEME } from '../lang/index.js';
import { parseCidr } from '../net/cidr.js';
import { ConfigItemError } from '../errors.js';
import { AnalysisBudget, withinBudget } from './budget.js';
import { type Decision, decidedPacket, decisions } from './decisions.js';
import { expressionMeaning } from './expression.js';
import { type FirewallModel, type HeaderSpace, type ModelOptions, modelFirewalls, parseAt } from './model.js';
import { NameTables } from './names.js';
import { type ReachedRule, reachedRules } from './reach.js';
import { type Box, type Region, firstOutside, regionsOverlap, unionRegions } from './space.js';
import { type Witness, witnessOf } from './witness.js';

export type SpaceValue = string | number | boolean;
/** every value of a field but these (a packet without the field included, as `not field in {…}` reads) */
export interface SpaceExclusion {
  readonly not: readonly SpaceValue[];
}
export type HeaderSpaceSpec = Readonly<Record<string, SpaceValue | readonly SpaceValue[] | SpaceExclusion>>;
/** a space: one map of fields, or a list of them (their union) */
export type SpaceSpec = HeaderSpaceSpec | readonly HeaderSpaceSpec[];

/** The maps of a space (one, or each of a union's). */
export function spaceParts(space: SpaceSpec): readonly HeaderSpaceSpec[] {
  return Array.isArray(space) ? space : [space as HeaderSpaceSpec];
}

export interface SpaceExpectation {
  readonly verdict: 'pass' | 'drop';
  /** the deciding rule's ref; null: no rule decides (default pass); omitted: any rule */
  readonly rule?: string | null;
}

export type SpaceProof =
  | { readonly status: 'holds' }
  | { readonly status: 'fails'; readonly witness: Witness; readonly verdict: 'pass' | 'drop'; readonly rule: string | null }
  | { readonly status: 'indeterminate'; readonly witness: Witness; readonly verdict: 'pass' | 'drop'; readonly rule: string | null }
  /** the work limit left open whether `rule` decides some packet of the space */
  | { readonly status: 'undecided'; readonly reason: string; readonly verdict: 'pass' | 'drop'; readonly rule: string | null };

function literal(field: string, v: SpaceValue, path: string): string {
  const type = FIREWALL_SCHEME.field(field)?.type;
  const bad = (what: string): never => {
    throw new ConfigItemError(path, `${JSON.stringify(v)} is not ${what} for ${field}`);
  };
  if (type === 'Ip') {
    try {
      parseCidr(String(v));
    } catch {
      bad('an address or CIDR');
    }
    return String(v);
  }
  if (type === 'Int') {
    const m = /^(\d+)(?:\s*(?:-|\.\.)\s*(\d+))?$/.exec(String(v));
    return m === null ? bad('a number or a range such as 8000-8080') : m[2] === undefined ? m[1]! : `${m[1]}..${m[2]}`;
  }
  if (type === 'Bytes') return JSON.stringify(field === 'ip.proto' ? String(v).toLowerCase() : String(v));
  return bad('a value');
}

/** The Rules-language expression of a space ('' for {}, the whole header space): `field in {…}` for values, `not field in {…}` for `{not: […]}`, and-ed. */
export function spaceExpression(space: HeaderSpaceSpec, path = 'space'): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(space)) {
    const type = FIREWALL_SCHEME.field(field)?.type;
    if (type === undefined) throw new ConfigItemError(`${path}.${field}`, `no field named ${field}`);
    if (type === 'Bool') {
      if (typeof value !== 'boolean') throw new ConfigItemError(`${path}.${field}`, `expected true or false`);
      parts.push(value ? field : `not ${field}`);
      continue;
    }
    const excluded = typeof value === 'object' && !Array.isArray(value);
    const values = excluded ? (value as SpaceExclusion).not : Array.isArray(value) ? value : [value as SpaceValue];
    const set = `${field} in {${values.map((v) => literal(field, v, `${path}.${field}`)).join(' ')}}`;
    parts.push(excluded ? `not ${set}` : set);
  }
  return parts.join(' and ');
}

/** The expressions of a space's maps (none for the whole header space: `{}`, or a union holding `{}`). */
function spaceExprs(space: SpaceSpec): Expr[] | null {
  const out: Expr[] = [];
  for (const [k, part] of spaceParts(space).entries()) {
    const text = spaceExpression(part, Array.isArray(space) ? `space[${k}]` : 'space');
    if (text === '') return null;
    out.push(parseAt(text, 'rule', 'space').expr);
  }
  return out;
}

/** The region a space names, in `hs` (the whole universe for an empty space; a union's maps' regions together). */
export function spaceRegion(space: SpaceSpec, hs: HeaderSpace): Region {
  const exprs = spaceExprs(space);
  if (exprs === null) return hs.universe;
  return exprs.reduce<Region>((r, expr) => unionRegions(r, expressionMeaning(expr, { universe: hs.universe, names: hs.names, lists: () => undefined, notes: [] }).must), []);
}

/** The snapshot's firewall modelled in a header space that also knows the names `space` uses, and the region of `space` there. */
export function spaceModel(snapshot: Snapshot, space: SpaceSpec, options: ModelOptions = {}): { hs: HeaderSpace; model: FirewallModel; region: Region; budget: AnalysisBudget } {
  const { space: hs, firewalls, budget } = modelFirewalls([{ snapshot, options }], spaceExprs(space) ?? []);
  return { hs, model: firewalls[0]!, region: spaceRegion(space, hs), budget };
}

/**
 * Spaces proved against one snapshot's firewall, modelled once (a suite's `space:` cases, the
 * spaces `pin` writes): a space naming only countries the rules name is proved in that model, any
 * other in a model of its own. Every question spends from one run's budget.
 */
export class SpaceProver {
  private readonly model: { hs: HeaderSpace; model: FirewallModel };
  readonly budget: AnalysisBudget;

  constructor(
    private readonly snapshot: Snapshot,
    private readonly options: ModelOptions = {},
  ) {
    const { space: hs, firewalls, budget } = modelFirewalls([{ snapshot, options }]);
    this.model = { hs, model: firewalls[0]! };
    this.budget = budget;
  }

  /** The model and region of `space`: this prover's model when it knows the space's names. */
  private modelOf(space: SpaceSpec): { hs: HeaderSpace; model: FirewallModel; region: Region } {
    const exprs = spaceExprs(space);
    const known = this.model.hs.names.countries;
    if (exprs === null || new NameTables(exprs).countries.every((c) => known.includes(c))) return { ...this.model, region: spaceRegion(space, this.model.hs) };
    return spaceModel(this.snapshot, space, { ...this.options, budget: this.budget });
  }

  /** Proves `expect` for every packet of `space`. */
  prove(space: SpaceSpec, expect: SpaceExpectation): SpaceProof {
    const { hs, model, region } = this.modelOf(space);
    return proveRegion(model, hs, region, expect, this.budget);
  }

  /** The rules some packet of `space` certainly reaches and matches (reach.ts). */
  reach(space: SpaceSpec): ReachedRule[] {
    const { model, region } = this.modelOf(space);
    return reachedRules(model, region, this.budget);
  }
}

/** Proves `expect` for every packet of `space` under the snapshot's firewall. */
export function proveSpace(snapshot: Snapshot, space: SpaceSpec, expect: SpaceExpectation, options: ModelOptions = {}): SpaceProof {
  return new SpaceProver(snapshot, options).prove(space, expect);
}

/** The enabled rules some packet of `space` certainly reaches and matches, in evaluation order (reach.ts). */
export function spaceReach(snapshot: Snapshot, space: SpaceSpec, options: ModelOptions = {}): ReachedRule[] {
  return new SpaceProver(snapshot, options).reach(space);
}

/** proveSpace over a firewall already modelled in `hs` (the space may name only countries `hs` knows). */
export function proveInModel(model: FirewallModel, hs: HeaderSpace, space: SpaceSpec, expect: SpaceExpectation, budget?: AnalysisBudget): SpaceProof {
  return proveRegion(model, hs, spaceRegion(space, hs), expect, budget ?? new AnalysisBudget());
}

/**
 * Whether the expected rule certainly decides every packet of `region`, known without a search: the
 * region is inside the rule's packets (every packet, for the default) and apart from every earlier
 * deciding rule's (each a question of the run's budget). Then no other rule decides one of its
 * packets. False says nothing (the search of proveRegion decides, with a witness).
 */
function decidedWhole(model: FirewallModel, all: readonly Decision[], region: Region, expect: SpaceExpectation, run: AnalysisBudget): boolean {
  if (expect.rule === undefined) return false;
  const expected = all.filter((d) => (d.rule < 0 ? null : model.rules[d.rule]!.ref) === expect.rule);
  const d = expected[0];
  if (expected.length !== 1 || d!.verdict !== expect.verdict) return false;
  return withinBudget(
    () => (d!.rule < 0 || firstOutside(region, [d!.matches.must], run.question()) === null) && d!.earlierMay.every((m) => !regionsOverlap(region, m, run.question())),
    () => false,
  );
}

/**
 * Proves `expect` for every packet of `region`: each decision that would break it is one question
 * of the run's budget; one the budget leaves open makes the proof `undecided` unless another
 * decision certainly breaks it.
 */
export function proveRegion(model: FirewallModel, hs: HeaderSpace, region: Region, expect: SpaceExpectation, run: AnalysisBudget): SpaceProof {
  const all = decisions(model, hs.universe);
  if (decidedWhole(model, all, region, expect, run)) return { status: 'holds' };
  let possible: SpaceProof | null = null;
  let undecided: SpaceProof | null = null;
  for (const d of all) {
    const rule = d.rule < 0 ? null : model.rules[d.rule]!.ref;
    if (d.verdict === expect.verdict && (expect.rule === undefined || expect.rule === rule)) continue;
    const budget = run.question();
    const found = withinBudget(
      (): SpaceProof | null => {
        const sure = decidedPacket(d, region, 'must', budget);
        if (sure !== null) return { status: 'fails', witness: witnessOf(sure, hs.names), verdict: d.verdict, rule };
        const maybe: Box | null = possible === null ? decidedPacket(d, region, 'may', budget) : null;
        if (maybe !== null) possible = { status: 'indeterminate', witness: witnessOf(maybe, hs.names), verdict: d.verdict, rule };
        return null;
      },
      (reason): SpaceProof | null => {
        undecided ??= { status: 'undecided', reason: `${reason} before deciding whether ${rule ?? 'no rule'} (${d.verdict}) decides some packet of the space`, verdict: d.verdict, rule };
        return null;
      },
    );
    if (found !== null) return found;
  }
  return possible ?? undecided ?? { status: 'holds' };
}
