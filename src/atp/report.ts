// The summary of an ATP run, as plain JSON-serialisable data: per component, packets by mode,
// drops and monitoring notes by reason, and per scope the thresholds, when mitigation was on and a
// timeline of rate against threshold; with labels, attack packets stopped and legitimate flows
// harmed. Times are seconds after the first packet ATP saw (`captureStart`, epoch seconds).
import { groupDigits } from '../numbers.js';
import type { ComponentModes } from './component-modes.js';
import type { LabelScore } from './outcomes.js';
import type { AtpOptions } from './options.js';
import type { MitigationPeriod, RateMeter, TimelinePoint } from './rate-meter.js';
import { Mode, REASONS, Reason, STAGES, type AtpStage, type MitigationReason } from './vocabulary.js';

/** One scope's meter: a rule's (global, region, data center) or the component default (filters without a rule). */
export interface AtpScopeReport {
  scope: 'global' | 'region' | 'datacenter' | 'default';
  name: string;
  baselinePps: number | null;
  baselineSource: 'configured' | 'learned';
  /** null when the capture ended before the learning window did */
  rateThresholdPps: number | null;
  burstThresholdPps: number | null;
  /** packets counted on this meter (SYN component: SYNs and SYN-ACKs; out-of-state: out-of-state packets) */
  packets: number;
  peakRatePps: number;
  peakBurstPps: number;
  mitigations: MitigationPeriod[];
  /** intervals in which the meter counted packets (empty intervals are left out) */
  timeline: TimelinePoint[];
  /** e.g. the capture ended inside the learning window, or the thresholds were learned from it */
  warning: string | null;
}

export interface AtpComponentReport {
  /** packets the component saw, by the mode that applied */
  packets: { enabled: number; monitoring: number; disabled: number };
  /** SYNs (and other packets of challenged connections) dropped with CHALLENGE_NEEDED */
  challenged: number;
  challengesPassed: number;
  dropped: Record<MitigationReason, number>;
  /** monitoring mode: what would have been dropped */
  flagged: Record<MitigationReason, number>;
  scopes: AtpScopeReport[];
}

export interface AtpReport {
  /** tcp_protection_status.enabled */
  status: boolean;
  active: boolean;
  /** epoch seconds of the first packet ATP saw; null when it saw none */
  captureStart: number | null;
  /** seconds from the first to the last packet ATP saw */
  duration: number;
  packets: {
    /** IP packets offered while ATP was active */
    seen: number;
    /** TCP packets to a protected prefix from a source that is not allowlisted */
    protected: number;
    allowlisted: number;
    /** TCP packets from the protected side (bidirectional tracking) */
    egress: number;
    passed: number;
    dropped: number;
    flagged: number;
    undecided: number;
  };
  connections: {
    created: number;
    peak: number;
    live: number;
    /** new connections not tracked because the table was full (options.maxFlows) */
    untracked: number;
  };
  components: Record<AtpStage, AtpComponentReport>;
  /** ground-truth score (synthetic captures with labels), else null */
  labels: LabelScore | null;
  /** the model parameters in force */
  model: AtpOptions;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

function byReason(counts: ArrayLike<number>): Record<MitigationReason, number> {
  const out = {} as Record<MitigationReason, number>;
  REASONS.forEach((r, k) => (out[r] = counts[k + 1]));
  return out;
}

function scopeReport(m: RateMeter): AtpScopeReport {
  return {
    scope: m.scope as AtpScopeReport['scope'],
    name: m.name,
    baselinePps: m.known ? round(m.baselinePps) : null,
    baselineSource: m.baselineSource,
    rateThresholdPps: m.known ? round(m.ratePps) : null,
    burstThresholdPps: m.known ? round(m.burstPps) : null,
    packets: m.packets,
    peakRatePps: round(m.peakRatePps),
    peakBurstPps: round(m.peakBurstPps),
    mitigations: m.mitigations().map((p) => ({ start: round(p.start), end: p.end === null ? null : round(p.end) })),
    timeline: m.timeline().map((p) => ({
      ...p,
      time: round(p.time),
      ratePps: round(p.ratePps),
      burstPps: round(p.burstPps),
      rateThresholdPps: p.rateThresholdPps === null ? null : round(p.rateThresholdPps),
      burstThresholdPps: p.burstThresholdPps === null ? null : round(p.burstThresholdPps),
    })),
    warning: m.warning(),
  };
}

/** Counters one component keeps while inspecting. */
export class ComponentCounters {
  readonly byMode = new Float64Array(4);
  readonly dropped = new Float64Array(REASONS.length + 1);
  readonly flagged = new Float64Array(REASONS.length + 1);

  report(modes: ComponentModes): AtpComponentReport {
    return {
      packets: { enabled: this.byMode[Mode.ENABLED], monitoring: this.byMode[Mode.MONITORING], disabled: this.byMode[Mode.DISABLED] },
      challenged: this.dropped[Reason.CHALLENGE_NEEDED],
      challengesPassed: this.dropped[Reason.CHALLENGE_PASSED],
      dropped: byReason(this.dropped),
      flagged: byReason(this.flagged),
      scopes: modes.meters.filter((m) => m.scope !== 'default' || m.packets > 0).map(scopeReport),
    };
  }
}

/** The scope as people name it: `global`, `default`, or `region WEUR`, `datacenter lax01`. */
export function scopeName(s: Pick<AtpScopeReport, 'scope' | 'name'>): string {
  return s.scope === 'global' || s.scope === 'default' ? s.scope : `${s.scope} ${s.name}`;
}

/** Why protection may have done nothing though it is on: no packet reached protected space, or null. */
export function unprotectedWarning(r: AtpReport): string | null {
  const p = r.packets;
  if (!r.active || p.seen === 0 || p.protected + p.allowlisted + p.egress > 0) return null;
  const none = p.seen === 1 ? 'the 1 IP packet was not' : `none of the ${groupDigits(p.seen)} IP packets was`;
  return `${none} TCP to a protected prefix, so Advanced TCP Protection inspected nothing: check the configuration's prefixes`;
}

/** Every warning of the report, each a line naming what it is about (for stderr). */
export function atpWarnings(r: AtpReport): string[] {
  const out: string[] = [];
  const unprotected = unprotectedWarning(r);
  if (unprotected !== null) out.push(unprotected);
  for (const stage of STAGES) {
    for (const s of r.components[stage].scopes) if (s.warning !== null) out.push(`${stage} (scope ${scopeName(s)}): ${s.warning}`);
  }
  return out;
}
