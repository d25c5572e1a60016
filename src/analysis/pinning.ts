// What `edgesim pin` asks of the analysis to write a suite that pins a firewall's behaviour today:
// for each rule, why it is not reached (unreachable, unmatchable, indeterminate, disabled) or a
// witness packet it certainly decides (a log rule: certainly sees and matches); the boxes of its
// region as `space:` cases proved to hold, with the deciding rule when it decides all of the box,
// else the verdict; and packets just outside each box, one field stepped past an edge, so a
// change that widens a region (a port range one wider) meets a packet pinned on the other side.
// The packet witnesses are pinned with what the engine decides for them; the spaces are proved here.
import type { Snapshot } from '../config/snapshot.js';
import { verdictName } from '../verdict.js';
import { lookupOf } from '../field-registry.js';
import { protectedTraffic } from './atp-filters.js';
import { decidedPacket, decisions } from './decisions.js';
import { FIELD_DIMENSIONS, fieldOf } from './field-dimensions.js';
import { expressionMeaning } from './expression.js';
import { contains, equal } from './intervals.js';
import { ruleStatus } from './lint.js';
import { type FirewallModel, type HeaderSpace, type ModelOptions, type ModelledRule, headerSpace, modelFirewalls, parseAt } from './model.js';
import { type HeaderSpaceSpec, proveInModel } from './prove.js';
import { ABSENT, type Box, Dim, type Region, intersectRegions } from './space.js';
import { boxSpace } from './space-spec.js';
import { type Witness, witnessOf } from './witness.js';

/** A witness as a suite builds it: arrived at a data center. */
function arrivedAt(box: Box, hs: HeaderSpace): Witness {
  return witnessOf(box, hs.names, undefined, true);
}

export interface PinnedSpace {
  readonly space: HeaderSpaceSpec;
  readonly verdict: 'pass' | 'drop';
  /** the deciding rule, when it decides every packet of the space */
  readonly rule?: string;
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
}

export interface Pinning {
  readonly rules: readonly PinnedRule[];
  /** a packet no rule decides (passed by default), or null when every packet is decided */
  readonly fallthrough: Witness | null;
}

/** the most boxes of a region pinned as spaces */
const MAX_BOXES = 8;

/** the boxes of a region whose edges are pinned, and the ranges of one field whose ends are */
const MAX_EDGE_BOXES = 32;

/**
 * the dimensions whose values are ordered, so that a value beside a box's edge is a packet: the
 * fields' own but the names of lookups (countries and data centers are table indexes) and flags (sip)
 */
const EDGE_DIMENSIONS = FIELD_DIMENSIONS.filter((d) => {
  const f = fieldOf(d, 'tcp')!; // a port: either transport's, alike
  return f.kind === 'address' || f.kind === 'int' || (f.kind === 'name' && lookupOf(f) === undefined);
});

function whyNot(model: FirewallModel, i: number, workLimit: number | undefined): { witness: Box | null; why: string | null } {
  const status = ruleStatus(model, i, workLimit);
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

function sameRegion(a: Region, b: Region): boolean {
  return a === b || (a.length === b.length && a.every((box, i) => box.every((set, d) => equal(set, b[i]![d]!))));
}

function pinnedSpaces(model: FirewallModel, hs: HeaderSpace, rule: ModelledRule): PinnedSpace[] {
  const { must, may } = rule.meaning;
  if (!sameRegion(must, may) || must.length > MAX_BOXES || rule.action === 'log') return [];
  const verdict = verdictName(rule.action === 'block');
  const out: PinnedSpace[] = [];
  for (const box of must) {
    const space = boxSpace(box, hs.universe, hs.names);
    if (space === null) continue;
    if (proveInModel(model, hs, space, { verdict, rule: rule.ref }).status === 'holds') out.push({ space, verdict, rule: rule.ref });
    else if (proveInModel(model, hs, space, { verdict }).status === 'holds') out.push({ space, verdict });
  }
  return out;
}

function edges(hs: HeaderSpace, region: Region): PinnedRule['edges'] {
  const out: Array<{ field: string; witness: Witness }> = [];
  const seen = new Set<string>();
  for (const box of region.slice(0, MAX_EDGE_BOXES)) {
    const home = hs.universe.find((u) => contains(u[Dim.l4]!, box[Dim.l4]![0]!) && contains(u[Dim.src]!, box[Dim.src]![0]!))!;
    for (const d of EDGE_DIMENSIONS) {
      const set = box[d]!;
      if (set.length === home[d]!.length && set.every((v, k) => v === home[d]![k])) continue;
      for (const v of set.slice(0, 2 * MAX_EDGE_BOXES).map((x, k) => (k % 2 === 0 ? x - 1n : x + 1n))) {
        if (v === ABSENT || !contains(home[d]!, v)) continue;
        const moved = box.slice();
        moved[d] = [v, v];
        const witness = arrivedAt(moved, hs);
        const name = fieldOf(d, String(witness['ip.proto']))?.name;
        if (name === undefined) continue;
        // one packet per edge: the same edge in the boxes of other transports adds nothing
        const key = `${name} ${v}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ field: name, witness });
      }
    }
  }
  return out;
}

function pinned(model: FirewallModel, hs: HeaderSpace, i: number, workLimit: number | undefined): PinnedRule {
  const rule = model.rules[i]!;
  const { witness, why } = whyNot(model, i, workLimit);
  const base = { ref: rule.ref, ruleset: rule.ruleset, path: rule.path, action: rule.action, why };
  if (witness === null) return { ...base, witness: null, spaces: [], edges: [] };
  return { ...base, witness: arrivedAt(witness, hs), spaces: pinnedSpaces(model, hs, rule), edges: edges(hs, rule.meaning.must) };
}

/** The pinning of a snapshot's firewall (see the top of this file). */
export function pinFirewall(snapshot: Snapshot, options: ModelOptions = {}): Pinning {
  const { space: hs, firewalls } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  const rules = model.rules.map((_, i) => pinned(model, hs, i, options.workLimit));
  const pass = decisions(model, hs.universe).at(-1)!;
  const box = decidedPacket(pass, hs.universe, 'must');
  return { rules, fallthrough: box === null ? null : arrivedAt(box, hs) };
}

/** One rule's pinning (the rule at `path`, e.g. rulesets[0].rules[3]), or undefined when the firewall has no such rule: what an editor says of it. */
export function pinRule(snapshot: Snapshot, path: string, options: ModelOptions = {}): PinnedRule | undefined {
  const { space: hs, firewalls } = modelFirewalls([{ snapshot, options }]);
  const model = firewalls[0]!;
  const i = model.rules.findIndex((r) => r.path === path);
  return i < 0 ? undefined : pinned(model, hs, i, options.workLimit);
}

/** A packet ATP applies a filter or a scoped rule to. */
export interface ProtectionWitness {
  readonly component: 'syn_protection' | 'tcp_flow_protection';
  /** the filter's or rule's ref as verdicts name it: its id, else its path */
  readonly ref: string;
  /** what it is, for the case's name: `filter (enabled) tcp.dstport == 443`, `rule global web` */
  readonly what: string;
  /** null: the filter matches no TCP packet to a protected prefix */
  readonly witness: Witness | null;
}

const COMPONENTS = ['syn_protection', 'tcp_flow_protection'] as const;

/** For each ATP filter a TCP packet to a protected prefix it matches, and for each rule one in its scope (none without protected prefixes). */
export function pinProtection(snapshot: Snapshot): ProtectionWitness[] {
  const out: ProtectionWitness[] = [];
  const filters = COMPONENTS.flatMap((c) => (snapshot[c]?.filters ?? []).map((f, i) => ({ c, f, i, ast: parseAt(f.expression, 'filter', `${c}.filters[${i}].expression`) })));
  const hs = headerSpace(filters.map((x) => x.ast.expr));
  const traffic = protectedTraffic(snapshot, hs).slice(0, 1);
  if (traffic.length === 0) return out;
  const ingress = traffic as Region;
  for (const { c, f, i, ast } of filters) {
    const must = intersectRegions(expressionMeaning(ast.expr, { universe: hs.universe, names: hs.names, lists: () => undefined, notes: [] }).must, ingress);
    out.push({ component: c, ref: f.id ?? `${c}.filters[${i}]`, what: `filter (${f.mode}) ${f.expression}`, witness: must.length === 0 ? null : arrivedAt(must[0]!, hs) });
  }
  for (const c of COMPONENTS) {
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
