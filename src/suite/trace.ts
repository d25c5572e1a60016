// The trace of one packet through the packet path, for `edgesim trace` and for the failures of
// `edgesim test`: each stage, and in the firewall each rule in order with the vendor's trace field
// names (step_name, type, matched, action, expression), whether it was tried and whether it decided.
// It is computed after decideFrame decided the packet (on the decoder's lane, so its record holds
// every field), by evaluating each rule's compiled expression on the same record, so the replay's hot
// path pays nothing for it; the test suite checks that the trace and the replay's verdict always
// agree. Its verdict, rule, matched rules and monitoring note are the verdict record's.
import { recordFields } from '../fields/render.js';
import { Has } from '../capture/record.js';
import type { AdvancedTcpProtection, AtpExplanation } from '../atp/index.js';
import type { Firewall } from '../firewall/firewall.js';
import type { MonitorRecord, PacketVerdict } from '../sim/verdict.js';
import { verdictName } from '../verdict.js';

export interface RuleStep {
  step_name: string;
  type: 'rule';
  ruleset: string;
  action: string;
  expression: string;
  enabled: boolean;
  /** false for a disabled rule or a rule after the deciding one */
  tried: boolean;
  /** null when the rule was not tried */
  matched: boolean | null;
  decided: boolean;
}

export interface StageStep {
  step_name: 'decode' | 'advanced_tcp_protection' | 'firewall';
  type: 'stage';
  /** the packet reached the stage */
  reached: boolean;
  /** the stage decided the packet's verdict (dropped it, or a firewall rule decided) */
  decided: boolean;
  action: 'pass' | 'drop' | null;
  /** for protection: ATP's own explanation (component, mode and what set it, connection, rates, thresholds) */
  detail: Record<string, unknown> | AtpExplanation;
  trace?: RuleStep[];
}

export interface PacketTrace {
  frame: number;
  /** the capture timestamp in seconds since the epoch: the number replay's NDJSON `time` reads as */
  time: number;
  verdict: 'pass' | 'drop';
  stage: string | null;
  rule: string | null;
  reason: string | null;
  matched: string[];
  /** what a protection in monitoring mode would have done, and the filter or rule that set the mode */
  monitor: MonitorRecord | null;
  /** the packet's field values, by Rules-language name (looked-up fields included) */
  fields: Record<string, string | number | boolean>;
  steps: StageStep[];
}

/** What the path decided, as the NDJSON and the expectations name it. */
export type VerdictSummary = Pick<PacketTrace, 'verdict' | 'stage' | 'rule' | 'reason' | 'matched'>;

/**
 * The verdict as replay's NDJSON states it: `rule` is the firewall rule that decided, or for a
 * protection drop the ATP filter or rule whose mode applied.
 */
export function verdictSummary(v: PacketVerdict): VerdictSummary {
  return { verdict: verdictName(v.drop), stage: v.stage, rule: v.rule, reason: v.reason, matched: v.matchedRefs() };
}

/** The trace of the packet just decided into `v`; `atp` is its run's protection (null when not active). */
export function tracePacket(v: PacketVerdict, firewall: Firewall, atp: AdvancedTcpProtection | null): PacketTrace {
  const rec = v.record;
  const atpActive = atp !== null;
  const fw = v.firewall;
  const isIp = (rec.present & Has.IP) !== 0;
  const atpDropped = v.stage !== null && v.stage !== 'firewall';
  const steps: StageStep[] = [
    {
      step_name: 'decode',
      type: 'stage',
      reached: true,
      decided: !isIp,
      action: isIp ? null : 'pass',
      detail: isIp ? { ip_version: rec.ipVersion } : { note: 'no IP header: the packet passes uninspected', ...(rec.note === '' ? {} : { decode_note: rec.note }) },
    },
  ];
  if (isIp) {
    const a = v.atp;
    steps.push({
      step_name: 'advanced_tcp_protection',
      type: 'stage',
      reached: atpActive,
      decided: atpDropped,
      action: !atpActive ? null : verdictName(atpDropped),
      detail: atp !== null
        ? atp.explain(rec, a)
        : { note: 'not active (status off, no protected prefix, or no rule or filter in enabled or monitoring mode)' },
    });
    const reached = !atpDropped;
    let decidedYet = false;
    const trace = firewall.rules.map((r, i): RuleStep => {
      const tried = reached && r.enabled && !decidedYet;
      const matched = tried ? firewall.predicates[i]!(rec) : null;
      const decided = tried && i === fw.decidingRule;
      if (decided) decidedYet = true;
      return { step_name: r.ref, type: 'rule', ruleset: r.ruleset, action: r.action, expression: r.expression, enabled: r.enabled, tried, matched, decided };
    });
    steps.push({
      step_name: 'firewall',
      type: 'stage',
      reached,
      decided: reached && fw.decidingRule >= 0,
      action: reached ? verdictName(v.stage === 'firewall') : null,
      detail: reached ? { rules: firewall.rules.length, default: fw.decidingRule < 0 ? 'no terminating rule matched: pass' : undefined } : { note: 'not reached: dropped before the firewall' },
      trace,
    });
  }
  return {
    frame: rec.frame,
    time: Number(rec.timeText()),
    ...verdictSummary(v),
    monitor: v.monitor,
    fields: isIp ? recordFields(rec) : {},
    steps,
  };
}
