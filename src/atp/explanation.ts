// Why ATP decided what it did for one packet, as a plain object, for `edgesim trace` and for a
// failing test case: the path the packet took (protected destination, excluded prefix, allowlisted
// source, egress), which component took it, and per component the mode and what set it (a filter,
// a rule and its scope, or nothing), where the thresholds came from, the rates and thresholds at
// that moment and whether the component was mitigating, and the connection's state before and
// after the packet. It is computed only when asked, right after inspect() of the same packet: the
// hot path keeps just two small integers for it (how far the packet got, and its connection's
// state before), and everything else is read back here without changing any state.
import type { PacketRecord } from '../capture/record.js';
import type { ComponentModes } from './component-modes.js';
import type { ModeSource } from './component-rules.js';
import type { AtpDecision, MonitorNote } from './decision.js';
import type { PrefixMatch } from './protected-space.js';
import { MODE_NAMES, STAGES, type AtpMode, type AtpStage, type MitigationReason } from './vocabulary.js';
import { verdictName, type VerdictName } from '../verdict.js';

/** How far inspect() took a packet. */
export const Step = {
  /** protection off, or no active rule or filter, or no IP: ATP did not look */
  INACTIVE: 0,
  /** IP but not TCP */
  NOT_TCP: 1,
  /** the destination is not in protected space (no prefix, or an excluded one) */
  NOT_PROTECTED: 2,
  /** from the protected side: tracked (bidirectional), never mitigated */
  EGRESS: 3,
  ALLOWLISTED: 4,
  /** a component took it: COMPONENT + its code (its place in the list of components) */
  COMPONENT: 5,
} as const;

export type ConnectionState = 'none' | 'challenged' | 'new' | 'open' | 'closing' | 'closed';
const STATE_NAMES: readonly ConnectionState[] = ['none', 'challenged', 'new', 'open', 'closing', 'closed'];

/** One component's view of the packet. */
export interface ComponentExplanation {
  /** this component took the packet (decided its verdict or note) */
  applied: boolean;
  /** the mode the packet would get from this component */
  mode: AtpMode;
  /** what set the mode: a filter (id or path, expression), a rule (id or path, scope, name), or `default` (off) */
  modeFrom: ModeSource;
  /** the rule whose sensitivities give the thresholds, or `default` (the component-wide medium meter) */
  thresholdsFrom: ModeSource;
  /** the meter of that rule at the packet's time */
  meter: {
    scope: 'global' | 'region' | 'datacenter' | 'default';
    name: string;
    /** sustained rate (packets counted in the last rateWindowSeconds) and burst rate, pps */
    ratePps: number;
    burstPps: number;
    /** null while the baseline is still being learned */
    rateThresholdPps: number | null;
    burstThresholdPps: number | null;
    baselinePps: number | null;
    baselineSource: 'configured' | 'learned';
    learning: boolean;
    mitigating: boolean;
  };
}

/** ATP's explanation of the packet it inspected last. */
export interface AtpExplanation {
  frame: number;
  /** seconds since the first packet ATP saw (its monotonic clock); null when ATP did not look */
  time: number | null;
  /** tcp_protection_status.enabled, and whether any prefix, rule or filter makes ATP act */
  status: boolean;
  active: boolean;
  /** how far ATP took it, or the component that took it */
  step: 'inactive' | 'not_tcp' | 'not_protected' | 'egress' | 'allowlisted' | AtpStage;
  destination: {
    /** in protected space: the most specific prefix holding it is not excluded */
    protected: boolean;
    /** that most specific prefix (as configured), or null */
    prefix: string | null;
    excluded: boolean;
  };
  /** the source is on an enabled allowlist entry */
  allowlisted: boolean;
  /** the component that took the packet, or null */
  component: AtpStage | null;
  /** the packet's connection (null when no component took it) before and after the packet */
  connection: { before: ConnectionState; after: ConnectionState } | null;
  /** the decision itself */
  verdict: VerdictName;
  reason: MitigationReason | null;
  monitor: MonitorNote | null;
  undecided: boolean;
  components: Record<AtpStage, ComponentExplanation>;
}

const STEP_NAMES: readonly AtpExplanation['step'][] = ['inactive', 'not_tcp', 'not_protected', 'egress', 'allowlisted', ...STAGES];

/** What the engine lends an explanation (read only). */
export interface ExplainParts {
  status: boolean;
  active: boolean;
  step: number;
  stateBefore: number;
  time: number | null;
  destination: PrefixMatch | null;
  allowlisted: boolean;
  /** the packet's connection state now (State code) */
  stateAfter: number;
  /** each component's modes, by its code (the order of STAGES) */
  modes: readonly ComponentModes[];
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

function component(modes: ComponentModes, rec: PacketRecord, t: number, applied: boolean): ComponentExplanation {
  const r = modes.resolution(rec);
  const m = r.meter;
  const rates = m.ratesAt(t);
  return {
    applied,
    mode: MODE_NAMES[r.mode],
    modeFrom: r.modeFrom,
    thresholdsFrom: r.thresholdsFrom,
    meter: {
      scope: m.scope as ComponentExplanation['meter']['scope'],
      name: m.name,
      ratePps: round(rates.ratePps),
      burstPps: round(rates.burstPps),
      rateThresholdPps: m.known ? round(m.ratePps) : null,
      burstThresholdPps: m.known ? round(m.burstPps) : null,
      baselinePps: m.known ? round(m.baselinePps) : null,
      baselineSource: m.baselineSource,
      learning: !m.known,
      mitigating: m.active,
    },
  };
}

/** Builds the explanation of `rec`, which inspect() just decided into `out`. */
export function explainPacket(rec: PacketRecord, out: AtpDecision, p: ExplainParts): AtpExplanation {
  const tookIt = p.step >= Step.COMPONENT;
  const stage = tookIt ? p.step - Step.COMPONENT : -1;
  const t = p.time ?? 0;
  return {
    frame: rec.frame,
    time: p.time === null ? null : Math.round(p.time * 1e6) / 1e6,
    status: p.status,
    active: p.active,
    step: STEP_NAMES[p.step],
    destination: { protected: p.destination !== null && !p.destination.excluded, prefix: p.destination?.prefix ?? null, excluded: p.destination?.excluded ?? false },
    allowlisted: p.allowlisted,
    component: stage < 0 ? null : STAGES[stage],
    connection: tookIt ? { before: STATE_NAMES[p.stateBefore], after: STATE_NAMES[p.stateAfter] } : null,
    verdict: verdictName(out.drop),
    reason: out.reason,
    monitor: out.monitor,
    undecided: out.undecided,
    components: Object.fromEntries(p.modes.map((modes, k) => [STAGES[k], component(modes, rec, t, stage === k)])) as AtpExplanation['components'],
  };
}
