// The cases of a pinned suite (`edgesim pin`): what the firewall and ATP do today, written so that
// `edgesim test` passes on this configuration and fails when a rule's verdict or reach changes.
// The analysis (src/analysis/pinning.ts) chooses the packets and proves the spaces; each packet is
// then written as a `packet:` case, read back by the suites' own reader, built into a frame and
// decided on the suite's path, and its expectation is what that path decided: so every written
// case passes as written. A witness whose packet cannot be built, or that the engine decides by
// another rule than the analysis said, is not written but listed with the reason.
import { AnalysisBudget, pinFirewall, pinProtection, type PinnedRule, type Witness } from '../../analysis/index.js';
import type { Snapshot } from '../../config/snapshot.js';
import type { ModelOptions } from '../../analysis/index.js';
import type { SuitePaths } from '../case-path.js';
import { tracePackets } from '../kinds/packet.js';
import { parsePacket } from '../packet-spec.js';
import { parseSuiteText, SuiteError } from '../source.js';
import { flow, type FlowValue, type WrittenCase } from './suite-text.js';

export interface PinnedCases {
  readonly cases: WrittenCase[];
  /** one line per rule or ATP filter without a witness packet: `ref: why` */
  readonly unpinned: string[];
  /** one line per thing the bounds on a suite's cases and on the analysis' work left out: `ref: what, why` */
  readonly omitted: string[];
}

type Expectation = Record<string, FlowValue>;

/** What the suite's path decides for `packet`, as an expectation; a SuiteError when it cannot be built. */
function decided(packet: Witness, paths: SuitePaths, withMatched: boolean): Expectation {
  const spec = parsePacket(parseSuiteText('packet', flow(packet)));
  const t = tracePackets([spec], 0, paths);
  const out: Expectation = { verdict: t.verdict, rule: t.rule };
  if (t.stage !== null && t.stage !== 'firewall') Object.assign(out, { stage: t.stage, reason: t.reason });
  if (withMatched) out.matched = t.matched;
  return out;
}

/** Case names, unique in the suite: a repeated name gets ` (2)`, ` (3)`... */
class Names {
  private readonly used = new Map<string, number>();

  unique(name: string): string {
    const n = (this.used.get(name) ?? 0) + 1;
    this.used.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  }
}

function descriptions(snapshot: Snapshot): Array<string | undefined> {
  return (snapshot.rulesets ?? []).flatMap((rs) => (rs.rules ?? []).map((r) => (typeof r.description === 'string' && r.description.trim() !== '' ? r.description.trim() : undefined)));
}

function ruleCases(rule: PinnedRule, description: string | undefined, paths: SuitePaths, withMatched: boolean, names: Names, unpinned: string[]): WrittenCase[] {
  // a rule named after its description (Terraform rules without ref) is not named twice
  const title = description === undefined || rule.ref.includes(description.slice(0, 60).trimEnd()) ? rule.ref : `${rule.ref}: ${description}`;
  if (rule.witness === null) {
    unpinned.push(`${rule.ref} (${rule.ruleset}, ${rule.action}): ${rule.why}`);
    return [];
  }
  // the witness first; when it cannot be built, or is decided otherwise when built, the rest still pins the rule
  const out: WrittenCase[] = [];
  try {
    const expect = decided(rule.witness, paths, withMatched);
    const seen = rule.action === 'log' ? (expect.matched as string[] | undefined)?.includes(rule.ref) ?? true : expect.rule === rule.ref;
    if (seen) out.push({ name: names.unique(title), body: [['packet', rule.witness]], expect, comment: `${rule.ruleset} ${rule.path} (${rule.action})` });
    else unpinned.push(`${rule.ref} (${rule.ruleset}, ${rule.action}): its witness packet ${flow(rule.witness)} is decided by ${String(expect.rule)} when built`);
  } catch (err) {
    if (!(err instanceof SuiteError)) throw err;
    unpinned.push(`${rule.ref} (${rule.ruleset}, ${rule.action}): its witness packet cannot be built: ${err.detail}`);
  }
  for (const s of rule.spaces) {
    const want: Expectation = s.rule === undefined ? { verdict: s.verdict } : { verdict: s.verdict, rule: s.rule };
    out.push({ name: names.unique(`${rule.ref}: every packet of its region`), body: [['space', s.space as FlowValue]], expect: want });
  }
  const packets = [
    ...rule.inside.map((p) => ({ name: `${rule.ref}: inside, ${p.what}`, witness: p.witness })),
    ...rule.edges.map((e) => ({ name: `${rule.ref}: just outside, ${e.field} ${String(e.witness[e.field] ?? '')}`.trimEnd(), witness: e.witness })),
  ];
  for (const p of packets) {
    try {
      out.push({ name: names.unique(p.name), body: [['packet', p.witness]], expect: decided(p.witness, paths, withMatched) });
    } catch (err) {
      if (!(err instanceof SuiteError)) throw err;
    }
  }
  return out;
}

/** The packet and space cases that pin a configuration's firewall and ATP filters and rule scopes. */
export function pinnedCases(snapshot: Snapshot, paths: SuitePaths, options: ModelOptions = {}): PinnedCases {
  // one budget for the firewall's pinning and the ATP filters'
  const run = options.budget ?? new AnalysisBudget({ perQuestion: options.workLimit });
  const pinning = pinFirewall(snapshot, { ...options, budget: run });
  const withMatched = pinning.rules.some((r) => r.action === 'log' && r.why !== 'disabled');
  const names = new Names();
  const unpinned: string[] = [];
  const notes = descriptions(snapshot);
  const cases = pinning.rules.flatMap((rule, i) => ruleCases(rule, notes[i], paths, withMatched, names, unpinned));
  const omitted = [...pinning.rules.flatMap((r) => r.omitted.map((o) => `${r.ref}: ${o}`)), ...pinning.omitted];
  for (const s of pinning.fallthroughSpaces) {
    cases.push({ name: names.unique('no rule decides: every packet of a part of the rest'), body: [['space', s.space as FlowValue]], expect: { verdict: s.verdict, rule: null } });
  }
  const protection = pinProtection(snapshot, run);
  for (const p of protection) if (p.witness === null) unpinned.push(`${p.component} ${p.ref}: ${p.why ?? 'matches no TCP packet to a protected prefix'}`);
  const others = [
    ...(pinning.fallthrough === null ? [] : [{ name: 'no rule decides: passed by default', witness: pinning.fallthrough }]),
    ...protection.flatMap((p) => (p.witness === null ? [] : [{ name: `${p.component} ${p.ref}: ${p.what}`, witness: p.witness }])),
  ];
  for (const { name, witness } of others) {
    try {
      cases.push({ name: names.unique(name), body: [['packet', witness]], expect: decided(witness, paths, withMatched) });
    } catch (err) {
      if (!(err instanceof SuiteError)) throw err;
      unpinned.push(`${name}: its packet cannot be built: ${err.detail}`);
    }
  }
  for (const p of pinning.fallthroughInside) {
    try {
      cases.push({ name: names.unique(`no rule decides: ${p.what}`), body: [['packet', p.witness]], expect: decided(p.witness, paths, withMatched) });
    } catch (err) {
      if (!(err instanceof SuiteError)) throw err;
    }
  }
  return { cases, unpinned, omitted };
}
