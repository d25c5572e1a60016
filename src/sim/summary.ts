// Counts what a replay did, packet by packet, and turns the counts into the report every output
// format prints. Counting allocates nothing per packet: counters are plain numbers and typed arrays;
// only the first occurrence of a decode note adds an entry. With labels, each packet's outcome is
// recorded (a byte per frame) and scored at the end by ATP's one label scoring (atp/outcomes.ts).
// Verdicts over time and the breakdown of drops are bounded in size whatever the capture's length.
//
// A replay on several threads (sim/jobs/) counts each range of consecutive packets into a summary of
// its own (a part: series from the capture's start, drops' addresses kept in order, frames numbered
// from 1) and adds the parts in capture order (absorb), which gives the counts one summary would have.
import { Outcome, Outcomes, type AtpReport, type LabelScore, type MonitorNote } from '../atp/index.js';
import type { PacketRecord } from '../capture/record.js';
import type { ReadInfo } from '../capture/merge.js';
import type { Labels } from '../capture/synth/labels.js';
import type { Firewall } from '../firewall/firewall.js';
import type { AddressLogOptions } from './address-log.js';
import { DropBreakdown, type DropParts, type DropReport } from './drop-breakdown.js';
import { EngineCounts, type EngineReport } from './engine-counts.js';
import type { PacketVerdict, Stage } from './verdict.js';
import { SERIES_COLUMNS, VerdictSeries, type VerdictSeriesParts, type VerdictSeriesReport } from './verdict-series.js';

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

/** A finding of the ruleset analysis (`edgesim lint --json`), when the report carries them. */
export interface LintFinding {
  ruleset: string;
  /** null for a finding about the whole ruleset (too many rules) */
  rule: string | null;
  kind: string;
  message: string;
  blocked_by?: string | null;
  different_action?: boolean | null;
  witness?: unknown;
}

/** One of several captures replayed merged by time: what it is, and what became of its packets. */
export interface CaptureFileReport {
  file: string;
  format: string;
  compressed: boolean;
  linkTypes: number[];
  packets: number;
  passed: number;
  dropped: number;
  warnings: string[];
}

export interface ReplayReport {
  /** `files`: each capture's part, when several were merged (`file` then names them all, joined by " + ") */
  capture: { file: string; format: string; compressed: boolean; linkTypes: number[]; warnings: string[]; files?: CaptureFileReport[] };
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
  /** decode notes: how many packets, and the first frame of each (and its file, when several captures were merged) */
  notes: Array<{ note: string; packets: number; firstFrame: number; firstFile?: string }>;
  nonIpPackets: number;
  atp: AtpReport | null;
  labels: LabelScore | null;
  elapsedSeconds: number;
  packetsPerSecond: number;
  /** packets over time: passed, and dropped by stage */
  series: VerdictSeriesReport;
  /** dropped packets by rule, by reason, and their top sources and destinations */
  drops: DropReport;
  /** frames the compiled path decided, and those that fell back to the decoder and evaluator, by reason */
  engine: EngineReport;
  lint?: LintFinding[];
}

const STAGES: Stage[] = ['syn_protection', 'tcp_flow_protection', 'firewall'];

/** A part of a replay's counts (ReplaySummary.parts), to add to the whole in capture order. */
export interface SummaryParts {
  packets: number;
  lastFrame: number;
  passed: number;
  dropped: number;
  nonIp: number;
  first: [number, number];
  last: [number, number];
  byStage: Array<[Stage, number]>;
  notes: Array<[string, NoteCount]>;
  series: VerdictSeriesParts;
  drops: DropParts;
  engine: ReturnType<EngineCounts['parts']>;
}

export class ReplaySummary {
  packets = 0;
  /** the last frame number, as Wireshark numbers frames (a pcapng record without a packet takes one too) */
  lastFrame = 0;
  passed = 0;
  dropped = 0;
  nonIp = 0;
  private firstSec = -1;
  private firstNsec = 0;
  private lastSec = -1;
  private lastNsec = 0;
  /** drops by PacketVerdict.column (the series' columns) */
  private readonly byColumn = new Float64Array(SERIES_COLUMNS.length);
  /** counted by the note object itself: ATP's notes are shared constants, one per stage and reason */
  private readonly monitor = new Map<MonitorNote, number>();
  private readonly notes = new Map<string, NoteCount>();
  /** packets and drops of each merged capture (by PacketRecord.file), two numbers a file; null for one capture */
  private readonly byFile: Float64Array | null;
  /** what the whole path did with each frame, when the capture has labels */
  private readonly outcomes: Outcomes | null;
  private readonly series = new VerdictSeries();
  private readonly drops: DropBreakdown;
  /** which lane decided each frame (counted by the caller, which knows: countingVisit, replay) */
  readonly engine = new EngineCounts();

  /**
   * `part`: this summary counts a batch of a capture that starts at `part.start` (sec, nsec), to be
   * absorbed (no labels), keeping its drops' addresses as `part.addresses` says
   */
  constructor(labels: Labels | null, part?: { start: readonly [number, number]; addresses: AddressLogOptions }, files = 1) {
    this.outcomes = labels === null ? null : new Outcomes();
    this.byFile = files > 1 ? new Float64Array(2 * files) : null;
    this.drops = new DropBreakdown({ keepAddresses: part?.addresses });
    if (part !== undefined) this.series.startAt(part.start[0], part.start[1]);
  }

  /** the last packet's time (sec, nsec) */
  lastStamp(): [number, number] {
    return [this.lastSec, this.lastNsec];
  }

  /** A part's counts as plain data (a summary made with `part`, on a replay without protection: no monitoring notes). */
  parts(): SummaryParts {
    return {
      packets: this.packets,
      lastFrame: this.lastFrame,
      passed: this.passed,
      dropped: this.dropped,
      nonIp: this.nonIp,
      first: [this.firstSec, this.firstNsec],
      last: [this.lastSec, this.lastNsec],
      byStage: this.droppedByStage(),
      notes: [...this.notes],
      series: this.series.parts(),
      drops: this.drops.parts(),
      engine: this.engine.parts(),
    };
  }

  /** Adds the parts of the next packets of the capture, in capture order; the part numbered its frames from 1, and `framesBefore` frames come before them. */
  absorb(p: SummaryParts, framesBefore: number): void {
    if (p.packets === 0) return;
    this.packets += p.packets;
    this.lastFrame = framesBefore + p.lastFrame;
    this.passed += p.passed;
    this.dropped += p.dropped;
    this.nonIp += p.nonIp;
    if (this.firstSec < 0) [this.firstSec, this.firstNsec] = p.first;
    [this.lastSec, this.lastNsec] = p.last;
    for (const [stage, n] of p.byStage) this.byColumn[SERIES_COLUMNS.indexOf(stage)] += n;
    for (const [note, n] of p.notes) {
      const mine = this.notes.get(note);
      if (mine === undefined) this.notes.set(note, { packets: n.packets, firstFrame: framesBefore + n.firstFrame, firstFile: n.firstFile });
      else mine.packets += n.packets;
    }
    if (this.firstSec >= 0 && this.series.isEmpty()) this.series.startAt(this.firstSec, this.firstNsec);
    this.series.absorb(p.series);
    this.drops.absorb(p.drops);
    this.engine.absorb(p.engine);
  }

  add(rec: PacketRecord, v: PacketVerdict): void {
    this.count(rec);
    if (rec.note !== '') this.addNote(rec.note, rec.frame, rec.file);
    if (v.drop) {
      this.dropped++;
      if (this.byFile !== null) this.byFile[2 * rec.file + 1]++;
      this.byColumn[v.column]++;
    } else {
      this.passed++;
    }
    const m = v.atp.monitor;
    if (m !== null) this.monitor.set(m, (this.monitor.get(m) ?? 0) + 1);
    if (this.outcomes !== null) this.outcomes.record(rec.frame, outcomeOf(v));
    this.series.add(rec.tsSec, rec.tsNsec, v.column);
    if (v.drop) this.drops.add(rec, v);
  }

  /**
   * add() for a packet the firewall's fast path passed with protection off (PacketDecider.passedFast):
   * no note, no drop, no monitoring flag; the common case, counted with fewer steps.
   */
  addPassed(rec: PacketRecord): void {
    this.count(rec);
    this.passed++;
    if (this.outcomes !== null) this.outcomes.record(rec.frame, Outcome.PASS);
    this.series.add(rec.tsSec, rec.tsNsec, 0);
  }

  // what every packet adds, whatever its verdict: the packet count, the first and last frame and times
  private count(rec: PacketRecord): void {
    this.packets++;
    this.lastFrame = rec.frame;
    if (this.byFile !== null) this.byFile[2 * rec.file]++;
    if (this.firstSec < 0) {
      this.firstSec = rec.tsSec;
      this.firstNsec = rec.tsNsec;
    }
    this.lastSec = rec.tsSec;
    this.lastNsec = rec.tsNsec;
    if (rec.ipVersion === 0) this.nonIp++;
  }

  // drops by stage, in the report's order
  private droppedByStage(): Array<[Stage, number]> {
    return STAGES.map((stage) => [stage, this.byColumn[SERIES_COLUMNS.indexOf(stage)]]);
  }

  private addNote(note: string, frame: number, file: number): void {
    const n = this.notes.get(note);
    if (n === undefined) this.notes.set(note, { packets: 1, firstFrame: frame, firstFile: file });
    else n.packets++;
  }

  /** Each merged capture's part of the report, or nothing for one capture. */
  private fileReports(info: ReadInfo): { files?: CaptureFileReport[] } {
    const counts = this.byFile;
    if (info.files === undefined || counts === null) return {};
    return {
      files: info.files.map((f, i) => ({
        file: f.name,
        format: f.format,
        compressed: f.compressed,
        linkTypes: f.linkTypes,
        packets: counts[2 * i]!,
        passed: counts[2 * i]! - counts[2 * i + 1]!,
        dropped: counts[2 * i + 1]!,
        warnings: f.warnings,
      })),
    };
  }

  /** The report; `labels` (those given to the constructor, or null when they do not fit the capture) are scored. */
  report(file: string, info: ReadInfo, firewall: Firewall, atp: AtpReport | null, elapsedSeconds: number, labels: Labels | null): ReplayReport {
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
    return {
      capture: { file, format: info.format, compressed: info.compressed, linkTypes: info.linkTypes, warnings: info.warnings, ...this.fileReports(info) },
      packets: this.packets,
      passed: this.passed,
      dropped: this.dropped,
      droppedByStage: Object.fromEntries(this.droppedByStage()) as Record<Stage, number>,
      monitorFlagged: Object.fromEntries([...this.monitor].map(([m, n]) => [`${m.stage}:${m.reason}`, n])),
      firstTime: this.firstSec < 0 ? null : this.firstSec + this.firstNsec / 1e9,
      lastTime: this.lastSec < 0 ? null : this.lastSec + this.lastNsec / 1e9,
      rules,
      neverHit: rules.filter((r) => r.enabled && r.hits === 0).map((r) => r.ref),
      notes: [...this.notes]
        .map(([note, n]) => ({ note, packets: n.packets, firstFrame: n.firstFrame, ...(info.files === undefined ? {} : { firstFile: info.files[n.firstFile]!.name }) }))
        .sort((a, b) => b.packets - a.packets),
      nonIpPackets: this.nonIp,
      atp,
      labels: labels === null || this.outcomes === null ? null : this.outcomes.score(labels),
      elapsedSeconds,
      packetsPerSecond: elapsedSeconds > 0 ? this.packets / elapsedSeconds : 0,
      series: this.series.report(),
      drops: this.drops.report(firewall),
      engine: this.engine.report(),
    };
  }
}

/** A decode note's count, and where it was first seen (frame, and file when several captures are merged). */
interface NoteCount {
  packets: number;
  firstFrame: number;
  firstFile: number;
}

// The whole path's outcome for label scoring: a firewall drop, else what ATP did (a drop or a
// monitoring note, with its reason), else a pass.
function outcomeOf(v: PacketVerdict): number {
  if (v.stage === 'firewall') return Outcome.DROP_OTHER;
  return v.atp.outcome === Outcome.NONE || v.atp.outcome === Outcome.UNDECIDED ? Outcome.PASS : v.atp.outcome;
}
