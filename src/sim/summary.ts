// Counts what a replay did, packet by packet, and turns the counts into the report every output
// format prints. Counting allocates nothing per packet: counters are plain numbers and typed arrays;
// only the first occurrence of a decode note, and each harmed legitimate flow, adds an entry.
// Verdicts over time and the breakdown of drops are bounded in size whatever the capture's length.
import type { AtpReport, MonitorNote } from '../atp/index.js';
import type { PacketRecord } from '../capture/record.js';
import type { CaptureInfo } from '../capture/reader.js';
import type { Labels } from '../capture/synth/labels.js';
import type { Firewall } from '../firewall/firewall.js';
import { DropBreakdown, type DropReport } from './drop-breakdown.js';
import type { PacketVerdict, Stage } from './verdict.js';
import { SERIES_COLUMNS, VerdictSeries, type VerdictSeriesReport } from './verdict-series.js';

export interface RuleReport {
  ref: string;
  ruleset: string;
  action: string;
  enabled: boolean;
  description: string;
  expression: string;
  /** packets the rule matched */
  hits: number;
  /** packets whose verdict the rule decided */
  decided: number;
}

export interface LabelScore {
  attackPackets: number;
  attackDropped: number;
  legitPackets: number;
  legitDropped: number;
  legitFlows: number;
  /** legitimate flows with at least one dropped packet (a challenged SYN counts, even when the client then passed) */
  legitFlowsHarmed: number;
}

/** A finding of the ruleset analysis (`edgesim lint --json`), when the report carries them. */
export interface LintFinding {
  ruleset: string;
  rule: string;
  kind: string;
  message: string;
  blocked_by?: string | null;
  different_action?: boolean | null;
  witness?: unknown;
}

export interface ReplayReport {
  capture: { file: string; format: string; compressed: boolean; linkTypes: number[]; warnings: string[] };
  packets: number;
  passed: number;
  dropped: number;
  droppedByStage: Record<Stage, number>;
  /** packets a monitoring-mode protection would have dropped */
  monitorFlagged: Record<string, number>;
  firstTime: number | null;
  lastTime: number | null;
  rules: RuleReport[];
  /** enabled rules that matched no packet */
  neverHit: string[];
  /** decode notes: how many packets, and the first frame of each */
  notes: Array<{ note: string; packets: number; firstFrame: number }>;
  nonIpPackets: number;
  atp: AtpReport | null;
  labels: LabelScore | null;
  elapsedSeconds: number;
  packetsPerSecond: number;
  /** packets over time: passed, and dropped by stage */
  series: VerdictSeriesReport;
  /** dropped packets by rule, by reason, and their top sources and destinations */
  drops: DropReport;
  lint?: LintFinding[];
}

const STAGES: Stage[] = ['syn_protection', 'tcp_flow_protection', 'firewall'];

export class ReplaySummary {
  packets = 0;
  passed = 0;
  dropped = 0;
  nonIp = 0;
  private firstSec = -1;
  private firstNsec = 0;
  private lastSec = -1;
  private lastNsec = 0;
  private readonly byStage = new Map<Stage, number>(STAGES.map((s) => [s, 0]));
  /** counted by the note object itself: ATP's notes are shared constants, one per stage and reason */
  private readonly monitor = new Map<MonitorNote, number>();
  private readonly notes = new Map<string, { packets: number; firstFrame: number }>();
  private readonly labels: Labels | null;
  private readonly score: LabelScore | null;
  private readonly legitFlows = new Set<number>();
  private readonly harmedFlows = new Set<number>();
  private readonly series = new VerdictSeries();
  private readonly drops = new DropBreakdown();

  constructor(labels: Labels | null) {
    this.labels = labels;
    this.score = labels
      ? { attackPackets: 0, attackDropped: 0, legitPackets: 0, legitDropped: 0, legitFlows: 0, legitFlowsHarmed: 0 }
      : null;
  }

  add(rec: PacketRecord, v: PacketVerdict): void {
    this.packets++;
    if (this.firstSec < 0) {
      this.firstSec = rec.tsSec;
      this.firstNsec = rec.tsNsec;
    }
    this.lastSec = rec.tsSec;
    this.lastNsec = rec.tsNsec;
    if (rec.ipVersion === 0) this.nonIp++;
    if (rec.note !== '') this.addNote(rec.note, rec.frame);
    if (v.drop) {
      this.dropped++;
      const stage = v.stage as Stage;
      this.byStage.set(stage, (this.byStage.get(stage) ?? 0) + 1);
    } else {
      this.passed++;
    }
    const m = v.atp.monitor;
    if (m !== null) this.monitor.set(m, (this.monitor.get(m) ?? 0) + 1);
    if (this.labels !== null) this.scoreLabel(rec.frame, v.drop);
    this.series.add(rec.tsSec, rec.tsNsec, v.drop ? SERIES_COLUMNS.indexOf(v.stage as Stage) : 0);
    if (v.drop) this.drops.add(rec, v);
  }

  private addNote(note: string, frame: number): void {
    const n = this.notes.get(note);
    if (n === undefined) this.notes.set(note, { packets: 1, firstFrame: frame });
    else n.packets++;
  }

  private scoreLabel(frame: number, dropped: boolean): void {
    const score = this.score as LabelScore;
    const labels = this.labels as Labels;
    const label = labels.label(frame);
    if (label === 'attack') {
      score.attackPackets++;
      if (dropped) score.attackDropped++;
    } else if (label === 'legit') {
      score.legitPackets++;
      const flow = labels.flow(frame);
      if (flow !== null) this.legitFlows.add(flow);
      if (dropped) {
        score.legitDropped++;
        if (flow !== null) this.harmedFlows.add(flow);
      }
    }
  }

  report(file: string, info: CaptureInfo, firewall: Firewall, atp: AtpReport | null, elapsedSeconds: number): ReplayReport {
    const rules: RuleReport[] = firewall.rules.map((r, i) => ({
      ref: r.ref,
      ruleset: r.ruleset,
      action: r.action,
      enabled: r.enabled,
      description: r.description,
      expression: r.expression,
      hits: firewall.hits[i],
      decided: firewall.decided[i],
    }));
    if (this.score) {
      this.score.legitFlows = this.legitFlows.size;
      this.score.legitFlowsHarmed = this.harmedFlows.size;
    }
    return {
      capture: { file, format: info.format, compressed: info.compressed, linkTypes: info.linkTypes, warnings: info.warnings },
      packets: this.packets,
      passed: this.passed,
      dropped: this.dropped,
      droppedByStage: Object.fromEntries(this.byStage) as Record<Stage, number>,
      monitorFlagged: Object.fromEntries([...this.monitor].map(([m, n]) => [`${m.stage}:${m.reason}`, n])),
      firstTime: this.firstSec < 0 ? null : this.firstSec + this.firstNsec / 1e9,
      lastTime: this.lastSec < 0 ? null : this.lastSec + this.lastNsec / 1e9,
      rules,
      neverHit: rules.filter((r) => r.enabled && r.hits === 0).map((r) => r.ref),
      notes: [...this.notes].map(([note, n]) => ({ note, ...n })).sort((a, b) => b.packets - a.packets),
      nonIpPackets: this.nonIp,
      atp,
      labels: this.score,
      elapsedSeconds,
      packetsPerSecond: elapsedSeconds > 0 ? this.packets / elapsedSeconds : 0,
      series: this.series.report(),
      drops: this.drops.report(firewall),
    };
  }
}
