// What `edgesim pin` asks of the analysis to write a suite that pins a firewall's behaviour today:
// - for each rule, why it is not reached (unreachable, unmatchable, indeterminate, disabled) or a
//   witness packet it certainly decides (a log rule: certainly sees and matches);
// - the packets each rule certainly decides — its region less every earlier rule's, built as boxes
//   (decisions.ts decidedRegion) — as one `space:` case expecting that rule (a union of the boxes:
//   where the whole is not proved, of the boxes proved one by one), and the packets no rule decides
//   as one expecting none. Together they partition the header space by deciding
//   rule, so any change that moves a packet of a pinned box to another rule or verdict (a rule
//   disabled, deleted, moved, its action or one of its numbers changed) fails a case;
// - packets just outside each rule's region, one field stepped past an edge of the region (the
//   ends of each field's values first), so a change that widens a region into packets no space
//   pins meets a packet pinned on the other side;
// - where a space cannot pin a part of a decided region whole (a field it cannot say, a country
//   unknown to the database, the bounds), packets inside that part: one where each later rule
//   matches too (a swap or a move of the two shows there), then the ends of each field's ranges.
// The work is bounded: every question spends from the run's budget (budget.ts), and a rule gets at
// most MAX_CASES_PER_RULE cases (its witness, its region's space — of at most MAX_SPACES boxes
// where they are proved one by one — then packets inside and just outside in turns); what
// the bounds leave out is said per rule (`omitted`) and for the whole (Pinning.omitted), for the
// suite's comment. Spaces are proved here as `edgesim test` proves them, spending the same budget,
// so a suite pin wrote can be proved within one run of `edgesim test`.
import { COMPONENT_NAMES, type ComponentName } from '../protection-components.js';
import type { Snapshot } from '../config/snapshot.js';
import { verdictName } from '../verdict.js';
import { lookupOf } from '../field-registry.js';
import { counted } from '../numbers.js';
import { protectedTraffic } from './atp-filters.js';
import { AnalysisBudget, WorkLimitReached, withinBudget } from './budget.js';
import { DECIDED_BOXES, type Decision, decidedPacket, decidedRegion, decisions } from './decisions.js';
import { FIELD_DIMENSIONS, fieldOf } from './field-dimensions.js';
import { expressionMeaning } from './expression.js';
import { contains, equal } from './intervals.js';
import { ruleStatus } from './lint.js';
import { type FirewallModel, type HeaderSpace, type ModelOptions, type ModelledRule, headerSpace, modelFirewalls, parseAt } from './model.js';
import { type HeaderSpaceSpec, type SpaceSpec, proveRegion, spaceParts, spaceRegion } from './prove.js';
import { ABSENT, type Box, Dim, type Region, V6_BASE, coalesced, firstOutside, hullsApart, intersectRegions, projection, subtractRegions } from './space.js';
import { boxSpace, writablePart } from './space-spec.js';
import { type Witness, holdsItsHeaders, witnessOf } from './witness.js';

/** A witness as a suite builds it: arrived at a data center. */
function arrivedAt(box: Box, hs: HeaderSpace): Witness {
  return witnessOf(box, hs.names, undefined, true);
}

export interface PinnedSpace {
  /** one box's space, or a union of boxes' (a rule's whole decided region) */
  readonly space: SpaceSpec;
  readonly verdict: 'pass' | 'drop';
  /** the deciding rule (undefined: no rule, the default pass) */
  readonly rule?: string;
}

/** A packet inside a decided region, and what puts it there: `where r5 matches too`, `ip.src 10.1.255.255`. */
export interface InsidePacket {
  readonly what: string;
  readonly witness: Witness;
}

export interface PinnedRule {
  readonly ref: string;
  readonly ruleset: string;
  /** where it is in the snapshot, e.g. rulesets[0].rules[3] */
  readonly path: string;
  readonly action: ModelledRule['action'];
  /** a packet it certainly decides (a log rule: matches), or null with `why` */
  readonly witness: Witness | null;
  readonly why: string | null;
  readonly spaces: readonly PinnedSpace[];
  /** packets just outside its region, with the field and value that put them there */
  readonly edges: ReadonlyArray<{ readonly field: string; readonly witness: Witness }>;
  /** packets it decides in the parts no space pins whole: where a later rule matches too, and the ends of each field's ranges */
  readonly inside: readonly InsidePacket[];
  /** what the bounds left out of its cases, and why (empty: nothing) */
  readonly omitted: readonly string[];
}

export interface Pinning {
  readonly rules: readonly PinnedRule[];
  /** a packet no rule decides (passed by default), or null when every packet is decided */
  readonly fallthrough: Witness | null;
  /** the packets no rule decides, as spaces */
  readonly fallthroughSpaces: readonly PinnedSpace[];
  /** packets no rule decides in the parts no space pins whole */
  readonly fallthroughInside: readonly InsidePacket[];
  /** what the bounds left out beyond single rules (the default's spaces, the run's work limit) */
  readonly omitted: readonly string[];
}

/** the most cases a rule gets: its witness, its spaces, its edges */
export const MAX_CASES_PER_RULE = 24;

/** the most boxes of a rule's decided region (and of the packets no rule decides) proved one by one, where the region is not proved whole */
export const MAX_SPACES = 12;

/** the boxes of a region whose edges are looked for, and the ranges of one field whose ends are */
const MAX_EDGE_BOXES = 32;

/**
 * the dimensions whose values are ordered, so that a value beside a box's edge is a packet: the
 * fields' own but the names of lookups (countries and data centers are table indexes) and flags (sip)
 */
const EDGE_DIMENSIONS = FIELD_DIMENSIONS.filter((d) => {
  const f = fieldOf(d, 'tcp')!; // a port: either transport's, alike
  return f.kind === 'address' || f.kind === 'int' || (f.kind === 'name' && lookupOf(f) === undefined);
});

function whyNot(model: FirewallModel, i: number, run: AnalysisBudget): { witness: Box | null; why: string | null } {
  const status = ruleStatus(model, i, run);
  switch (status.kind) {
    case 'reachable':
      return { witness: status.witnessRegion[0]!, why: null };
    case 'disabled':
      return { witness: null, why: 'disabled' };
    case 'unmatchable':
      return { witness: null, why: 'unmatchable: it matches no packet' };
    case 'unreachable':
      return { witness: null, why: `unreachable: every packet it matches is decided earlier by ${status.blockedBy.map((k) => model.rules[k]!.ref).join(', ')}` };
    case 'indeterminate':
      return { witness: null, why: `indeterminate: ${status.reason}` };
  }
}

type Edge = { field: string; witness: Witness };

/** The packet of `box` moved to `v` in dimension `d` (outside the region by the caller's choice), or null when no packet has that value. */
function movedTo(hs: HeaderSpace, box: Box, d: number, v: bigint): { key: string; edge: Edge } | null {
  const home = hs.universe.find((u) => contains(u[Dim.l4]!, box[Dim.l4]![0]!) && contains(u[Dim.src]!, box[Dim.src]![0]!))!;
  if (v === ABSENT || !contains(home[d]!, v)) return null;
  const moved = box.slice();
  moved[d] = [v, v];
  const witness = arrivedAt(moved, hs);
  const name = fieldOf(d, String(witness['ip.proto']))?.name;
  // one packet per edge: the same edge in the boxes of other transports adds nothing
  return name === undefined ? null : { key: `${name} ${v}`, edge: { field: name, witness } };
}

/**
 * Packets just outside `region`, the ends of each field's values first (one field stepped past the
 * lowest and the highest value any box of the region has there: no box holds it, so the packet is
 * outside), then past each edge of each of its first boxes.
 */
function edges(hs: HeaderSpace, region: Region): Edge[] {
  const out = new Map<string, Edge>();
  const add = (m: { key: string; edge: Edge } | null): void => {
    if (m !== null && !out.has(m.key)) out.set(m.key, m.edge);
  };
  const boxes = region.slice(0, MAX_EDGE_BOXES);
  for (const d of EDGE_DIMENSIONS) {
    const values = projection(boxes, d);
    if (values.length === 0) continue;
    const [lo, hi] = [values[0]!, values[values.length - 1]!];
    add(movedTo(hs, boxes.find((b) => contains(b[d]!, lo))!, d, lo - 1n));
    add(movedTo(hs, boxes.find((b) => contains(b[d]!, hi))!, d, hi + 1n));
  }
  for (const box of boxes) {
    for (const d of EDGE_DIMENSIONS) {
      const set = box[d]!;
      for (let k = 0; k < Math.min(set.length, 2 * MAX_EDGE_BOXES); k++) {
        const v = k % 2 === 0 ? set[k]! - 1n : set[k]! + 1n;
        // a value inside another box of the region is no edge of it
        if (boxes.some((b) => contains(b[d]!, v) && b.every((s, e) => e === d || equal(s, box[e]!)))) continue;
        add(movedTo(hs, box, d, v));
      }
    }
  }
  return [...out.values()];
}

/** the dimensions whose values a packet inside a box is moved to the ends of: the ordered ones and the names */
const INSIDE_DIMENSIONS = FIELD_DIMENSIONS.filter((d) => fieldOf(d, 'tcp')!.kind !== 'bool');

/**
 * Packets `d` decides in `boxes` (parts of its region no space pins whole): first, for each later
 * rule that matches some of them too, one such packet (moving either rule past the other, or
 * deleting `d`'s, changes its decision); then, for each box of the rule's own region, one packet
 * that box alone matches (a number changed in one `or`-ed part of the expression shows there,
 * where the other parts do not hide it); then each field's range ends within a box (a range
 * narrowed loses one). At most MAX_EDGE_BOXES boxes are looked at, each search within a question
 * of the run's budget.
 */
function inside(hs: HeaderSpace, model: FirewallModel, d: Decision, boxes: Region, run: AnalysisBudget): InsidePacket[] {
  const out = new Map<string, InsidePacket>();
  const looked = boxes.slice(0, MAX_EDGE_BOXES);
  if (looked.length === 0) return [];
  /** the packets added so far, as JSON: one packet is said once */
  const seen = new Set<string>();
  const add = (what: string, box: Box): void => {
    const witness = arrivedAt(box, hs);
    const key = JSON.stringify(witness);
    if (seen.has(key)) return;
    seen.add(key);
    out.set(what, { what, witness });
  };
  if (d.rule >= 0) {
    for (let j = d.rule + 1; j < model.rules.length; j++) {
      const later = model.rules[j]!;
      if (!later.enabled || later.action === 'log' || hullsApart(looked, later.meaning.must)) continue;
      const both = intersectRegions(looked, later.meaning.must);
      if (both.length > 0) add(`where ${later.ref} matches too`, both[0]!);
    }
    // the parts of one family and transport (those of others never meet)
    const own = d.matches.must.slice(0, MAX_EDGE_BOXES);
    const sameHome = (a: Box, b: Box): boolean => equal(a[Dim.l4]!, b[Dim.l4]!) && a[Dim.src]![0]! >= V6_BASE === b[Dim.src]![0]! >= V6_BASE;
    own.forEach((part, k) => {
      const others = own.filter((o, l) => l !== k && sameHome(o, part));
      if (others.length === 0) return;
      const alone = withinBudget(
        () => {
          const budget = run.question();
          const r = intersectRegions(looked, [part], budget);
          return r.length === 0 ? null : firstOutside(r, [others], budget);
        },
        () => null,
      );
      if (alone !== null) add(`matched by one part of its expression alone (${k + 1} of ${own.length})`, alone);
    });
  }
  for (const box of looked) {
    const home = hs.universe.find((u) => contains(u[Dim.l4]!, box[Dim.l4]![0]!) && contains(u[Dim.src]!, box[Dim.src]![0]!))!;
    for (const dim of INSIDE_DIMENSIONS) {
      const set = box[dim]!;
      if (equal(set, home[dim]!)) continue;
      for (let k = 0; k < Math.min(set.length, 2 * MAX_EDGE_BOXES); k++) {
        const v = set[k]!;
        if (v === ABSENT) continue;
        const moved = box.slice();
        moved[dim] = [v, v];
        const witness = arrivedAt(moved, hs);
        const name = fieldOf(dim, String(witness['ip.proto']))?.name;
        if (name === undefined || witness[name] === undefined) continue;
        const key = `${name} ${String(witness[name])}`;
        if (!out.has(key)) out.set(key, { what: key, witness });
      }
    }
  }
  return [...out.values()];
}

/** The first `max` of two lists taken in turns. */
function inTurns<A, B>(a: readonly A[], b: readonly B[], max: number): { a: A[]; b: B[] } {
  const out = { a: [] as A[], b: [] as B[] };
  for (let k = 0; out.a.length + out.b.length < max && (k < a.length || k < b.length); k++) {
    if (k < a.length) out.a.push(a[k]!);
    if (k < b.length && out.a.length + out.b.length < max) out.b.push(b[k]!);
  }
  return out;
}

/** The spaces a decision's pieces can be written as, with the work each proof took (null: it did not hold or the limit stopped it). */
class SpacePinner {
  /** why the run's budget ended, once it has */
  stopped: string | null = null;

  constructor(
    private readonly model: FirewallModel,
    private readonly hs: HeaderSpace,
    private readonly run: AnalysisBudget,
  ) {}

  /** The boxes `d` certainly decides, or null with why they are not built. */
  pieces(d: Decision): { boxes: Region } | { why: string } {
    const tooMany = { why: `it takes more than ${counted(DECIDED_BOXES, 'box', 'boxes')} or ${counted(this.run.perQuestion, 'step')} to build` };
    try {
      const built = decidedRegion(d, 'must', this.run.question());
      return built === null ? tooMany : { boxes: coalesced(built) };
    } catch (err) {
      if (!(err instanceof WorkLimitReached)) throw err;
      if (err.kind !== 'question') this.stopped = err.message;
      return err.kind === 'question' ? tooMany : { why: err.message };
    }
  }

  /**
   * The space of `boxes` (of each the part a space can say; a union when more than one), proved to
   * be decided by `d` as `edgesim test` proves it; null when not proved, 'unwritable' when no box
   * can be said, 'stopped' when the run's budget ended before or while proving it (the boxes are
   * left to the run's limit, neither proved nor disproved). `unwritable` counts the boxes left out.
   */
  space(d: Decision, boxes: Region): { pinned: PinnedSpace; parts: Array<{ box: Box; whole: boolean; part: Box }>; unwritable: number } | null | 'unwritable' | 'stopped' {
    if (this.stopped !== null) return 'stopped';
    const parts: Array<{ box: Box; whole: boolean; part: Box }> = [];
    const specs: HeaderSpaceSpec[] = [];
    for (const box of boxes) {
      const part = writablePart(box, this.hs.universe, this.hs.names);
      const space = part === null ? null : boxSpace(part.box, this.hs.universe, this.hs.names);
      if (space === null) continue;
      parts.push({ box, whole: part!.whole, part: part!.box });
      specs.push(space);
    }
    if (specs.length === 0) return 'unwritable';
    const space: SpaceSpec = specs.length === 1 ? specs[0]! : specs;
    const rule = d.rule < 0 ? null : this.model.rules[d.rule]!.ref;
    const proof = proveRegion(this.model, this.hs, spaceRegion(space, this.hs), { verdict: d.verdict, rule }, this.run);
    if (proof.status === 'undecided' && this.run.exhausted !== null) {
      this.stopped = this.run.exhausted;
      return 'stopped';
    }
    if (proof.status !== 'holds') return null;
    return { pinned: rule === null ? { space, verdict: d.verdict } : { space, verdict: d.verdict, rule }, parts, unwritable: boxes.length - parts.length };
  }
}

/** The pinning of a snapshot's firewall (see the top of this file). */
export function pinFirewall(snapshot: Snapshot, options: ModelOptions = {}): Pinning {
  const { space: hs, firewalls, budget: run } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  const all = decisions(model, hs.universe);
  const byRule = new Map(all.map((d) => [d.rule, d]));
  const pinner = new SpacePinner(model, hs, run);

  // first every rule's status, witness and edges, then spaces a round at a time, so that when the
  // run's budget ends every rule has had its first spaces
  const found = model.rules.map((rule, i) => ({ rule, i, ...whyNot(model, i, run) }));
  /** a decision's boxes, its spaces, and what of its boxes no space pins (`left`: the rest of a box pinned in part) */
  type Pieces = { d: Decision; boxes: Region; spaces: PinnedSpace[]; pinned: number; united: boolean; inPart: number; unwritable: number; unproved: number; why: string | null; whole: Set<Box>; left: Map<Box, Region> };
  const pieces = new Map<number, Pieces>();
  for (const d of all) {
    if (d.rule >= 0 && found[d.rule]!.witness === null) continue;
    const p = pinner.pieces(d);
    const base = { d, spaces: [], pinned: 0, united: false, inPart: 0, unwritable: 0, unproved: 0, whole: new Set<Box>(), left: new Map<Box, Region>() };
    pieces.set(d.rule, 'boxes' in p ? { ...base, boxes: p.boxes, why: null } : { ...base, boxes: [], why: p.why });
  }
  const pinnedAs = (p: Pieces, s: Exclude<ReturnType<SpacePinner['space']>, null | 'unwritable' | 'stopped'>): void => {
    p.spaces.push(s.pinned);
    for (const { box, whole, part } of s.parts) {
      p.pinned++;
      if (whole) p.whole.add(box);
      else {
        p.inPart++;
        p.left.set(box, subtractRegions([box], [part]));
      }
    }
  };
  // first each decided region whole, as one space (a union of its boxes), so that the bound on a
  // rule's cases counts cases, not the parts of its expression
  for (const p of pieces.values()) {
    if (pinner.stopped !== null) break;
    if (p.boxes.length < 2) continue;
    const s = pinner.space(p.d, p.boxes);
    if (s === null || s === 'unwritable' || s === 'stopped') continue;
    pinnedAs(p, s);
    p.unwritable = s.unwritable;
    p.united = true;
  }
  // then, where a region was not proved whole, a box a space
  for (let round = 0; pinner.stopped === null; round++) {
    let any = false;
    for (const p of pieces.values()) {
      if (p.united || p.spaces.length >= MAX_SPACES || round >= p.boxes.length) continue;
      any = true;
      const s = pinner.space(p.d, [p.boxes[round]!]);
      // the run's budget ended: this box and every one not yet tried are left to its limit
      if (s === 'stopped') break;
      if (s === 'unwritable') p.unwritable++;
      else if (s === null) p.unproved++;
      else pinnedAs(p, s);
    }
    if (!any) break;
  }
  // the spaces proved one by one are one case too: each holds, so their union does
  for (const p of pieces.values()) {
    if (p.united || p.spaces.length < 2) continue;
    const parts = p.spaces.flatMap((s) => spaceParts(s.space));
    p.spaces = [{ ...p.spaces[0]!, space: parts }];
  }

  const spacesSaid = (p: Pieces | undefined, whose: string): string[] => {
    if (p === undefined) return [];
    if (p.why !== null) return [`no space of ${whose}: ${p.why}`];
    const left = p.boxes.length - p.pinned;
    const part = p.inPart === 0 ? [] : [`${counted(p.inPart, 'box', 'boxes')} of ${whose} pinned in part (a space lists at most 16 values of a field, the largest kept, and no absent value or unnamed country)`];
    if (left === 0) return part;
    const untried = left - p.unwritable - p.unproved;
    const parts = [
      p.unwritable > 0 ? `${p.unwritable} a space cannot say` : '',
      p.unproved > 0 ? `${p.unproved} not proved to be decided by it alone` : '',
      untried > 0 ? (p.pinned >= MAX_SPACES ? `at most ${MAX_SPACES} a rule` : (pinner.stopped ?? '')) : '',
    ].filter((x) => x !== '');
    return [...part, `${left} of the ${counted(p.boxes.length, 'box', 'boxes')} of ${whose} not pinned as spaces (${parts.join('; ')})`];
  };

  /** the packets inside the parts of `p` no space pins whole (none when its region is not built: the witness stands for it) */
  const insideOf = (p: Pieces | undefined): InsidePacket[] => (p === undefined ? [] : inside(hs, model, p.d, p.boxes.filter((b) => !p.whole.has(b)).flatMap((b) => p.left.get(b) ?? [b]), run));

  /** the witness's packet, or one of the decided region's first boxes' when its ip.len cannot hold its headers (`ip.len <= 28`: not TCP's, UDP's) */
  const buildable = (witness: Box, p: Pieces | undefined): Witness => {
    const w = arrivedAt(witness, hs);
    if (holdsItsHeaders(w)) return w;
    for (const box of p?.boxes.slice(0, MAX_EDGE_BOXES) ?? []) {
      const other = arrivedAt(box, hs);
      if (holdsItsHeaders(other)) return other;
    }
    return w;
  };

  const rules = found.map(({ rule, witness, why, i }): PinnedRule => {
    const base = { ref: rule.ref, ruleset: rule.ruleset, path: rule.path, action: rule.action, why };
    if (witness === null) return { ...base, witness: null, spaces: [], edges: [], inside: [], omitted: [] };
    const p = pieces.get(i);
    const spaces = p?.spaces ?? [];
    const e = edges(hs, coalesced(rule.meaning.must.slice(0, 8 * MAX_EDGE_BOXES)));
    const within = insideOf(p);
    const kept = inTurns(within, e, MAX_CASES_PER_RULE - 1 - spaces.length);
    const omitted = [...spacesSaid(byRule.has(i) ? p : undefined, 'its decided region')];
    if (within.length > kept.a.length) omitted.push(`${within.length - kept.a.length} of the ${counted(within.length, 'packet')} inside the parts of its region no space pins (at most ${MAX_CASES_PER_RULE} cases a rule)`);
    if (e.length > kept.b.length) omitted.push(`${e.length - kept.b.length} of the ${counted(e.length, 'packet')} just outside its region (at most ${MAX_CASES_PER_RULE} cases a rule)`);
    return { ...base, witness: buildable(witness, p), spaces, edges: kept.b, inside: kept.a, omitted };
  });
  const pass = all.at(-1)!;
  const box = withinBudget(() => decidedPacket(pass, hs.universe, 'must', run.question()), () => null);
  const fallback = pieces.get(-1);
  const omitted = spacesSaid(fallback, 'the packets no rule decides');
  const rest = insideOf(fallback);
  const restKept = rest.slice(0, MAX_CASES_PER_RULE);
  if (rest.length > restKept.length) omitted.push(`${rest.length - restKept.length} of the ${counted(rest.length, 'packet')} inside the parts no space pins of the packets no rule decides (at most ${MAX_CASES_PER_RULE})`);
  return { rules, fallthrough: box === null ? null : arrivedAt(box, hs), fallthroughSpaces: fallback?.spaces ?? [], fallthroughInside: restKept, omitted };
}

/** A packet ATP applies a filter or a scoped rule to. */
export interface ProtectionWitness {
  readonly component: ComponentName;
  /** the filter's or rule's ref as verdicts name it: its id, else its path */
  readonly ref: string;
  /** what it is, for the case's name: `filter (enabled) tcp.dstport == 443`, `rule global web` */
  readonly what: string;
  /** null: the filter matches no TCP packet to a protected prefix, or `why` */
  readonly witness: Witness | null;
  /** why there is no witness when the filter may match one (the work limit) */
  readonly why?: string;
}


/** For each ATP filter a TCP packet to a protected prefix it matches, and for each rule one in its scope (none without protected prefixes); each filter a question of the run's budget. */
export function pinProtection(snapshot: Snapshot, run: AnalysisBudget = new AnalysisBudget()): ProtectionWitness[] {
  const out: ProtectionWitness[] = [];
  const filters = COMPONENT_NAMES.flatMap((c) => (snapshot[c]?.filters ?? []).map((f, i) => ({ c, f, i, ast: parseAt(f.expression, 'filter', `${c}.filters[${i}].expression`) })));
  const hs = headerSpace(filters.map((x) => x.ast.expr));
  const traffic = protectedTraffic(snapshot, hs).slice(0, 1);
  if (traffic.length === 0) return out;
  const ingress = traffic as Region;
  for (const { c, f, i, ast } of filters) {
    const base = { component: c, ref: f.id ?? `${c}.filters[${i}]`, what: `filter (${f.mode}) ${f.expression}` };
    const budget = run.question();
    out.push(
      withinBudget(
        (): ProtectionWitness => {
          const must = intersectRegions(expressionMeaning(ast.expr, { universe: hs.universe, names: hs.names, lists: () => undefined, notes: [], budget }).must, ingress, budget);
          return { ...base, witness: must.length === 0 ? null : arrivedAt(must[0]!, hs) };
        },
        (reason) => ({ ...base, witness: null, why: `${reason} before finding a packet it matches` }),
      ),
    );
  }
  for (const c of COMPONENT_NAMES) {
    (snapshot[c]?.rules ?? []).forEach((r, i) => {
      const witness = arrivedAt(ingress[0]!, hs);
      // the data center's region follows from it; a region's packet arrives at any of its data centers
      if (r.scope !== 'global') {
        delete witness['cf.colo.name'];
        delete witness['cf.colo.region'];
      }
      if (r.scope === 'datacenter') witness['cf.colo.name'] = r.name;
      if (r.scope === 'region') witness['cf.colo.region'] = r.name;
      out.push({ component: c, ref: r.id ?? `${c}.rules[${i}]`, what: `rule (${r.mode}) ${r.scope}${r.scope === 'global' ? '' : ` ${r.name}`}`, witness });
    });
  }
  return out;
}
