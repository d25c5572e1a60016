// What ATP decided for one packet. The pipeline owns one AtpDecision and passes it to every
// inspect() call, which resets it first; the `monitor` notes are shared constant objects (one per
// component and reason), so deciding a packet allocates nothing.
import type { ModeSource } from './component-rules.js';
import { MODE_NAMES, REASONS, STAGES, reasonName, type AtpMode, type AtpStage, type MitigationReason } from './vocabulary.js';

/** What a monitoring-mode component would have done with the packet. */
export interface MonitorNote {
  readonly stage: AtpStage;
  readonly verdict: 'drop';
  readonly reason: MitigationReason;
}

const NOTES: readonly (readonly MonitorNote[])[] = STAGES.map((stage) =>
  REASONS.map((reason) => Object.freeze({ stage, verdict: 'drop' as const, reason })),
);

/** The outcome of AdvancedTcpProtection.inspect() for one packet; reused from packet to packet. */
export class AtpDecision {
  /** a drop's component (SYN or OOS) as its code, -1 when no component drops the packet */
  stageCode = -1;
  /** a drop's Reason code, 0 when no component drops the packet */
  reasonCode = 0;
  /** what a monitoring-mode component would have done */
  monitor: MonitorNote | null = null;
  /** went through a component (status on, protected prefix, not allowlisted, TCP, mode != off) */
  protectedPacket = false;
  /** the mode that applied */
  mode: AtpMode = 'off';
  /** a packet ATP could not judge, e.g. a mid-connection packet during the learning window */
  undecided = false;
  /** what set the mode of the component that took the packet (a filter or a rule; `default` when none), else null */
  source: ModeSource | null = null;
  /** what a component did, as an Outcome code for label scoring (Outcome.NONE: no component acted) */
  outcome = 0;

  /** a component drops the packet (monitoring never drops) */
  get drop(): boolean {
    return this.stageCode >= 0;
  }

  /** the component that decided a drop, else null */
  get stage(): AtpStage | null {
    return this.stageCode < 0 ? null : STAGES[this.stageCode];
  }

  /** why it was dropped, else null */
  get reason(): MitigationReason | null {
    return this.reasonCode === 0 ? null : reasonName(this.reasonCode);
  }

  reset(): void {
    this.stageCode = -1;
    this.reasonCode = 0;
    this.monitor = null;
    this.protectedPacket = false;
    this.mode = 'off';
    this.undecided = false;
    this.outcome = 0;
    this.source = null;
  }

  /** @internal sets the mode from its code */
  setMode(code: number): void {
    this.mode = MODE_NAMES[code];
    this.protectedPacket = code !== 0;
  }

  /** @internal a drop by component `stage` (code) for reason `reason` (code) */
  dropFor(stage: number, reason: number): void {
    this.stageCode = stage;
    this.reasonCode = reason;
  }

  /** @internal a monitoring note: component `stage` would have dropped for `reason` */
  note(stage: number, reason: number): void {
    this.monitor = NOTES[stage][reason - 1];
  }
}
