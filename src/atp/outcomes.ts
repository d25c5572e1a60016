// The one scoring of a labelled capture (synthetic scenarios know which packets are attack and which
// flows are legitimate): what happened to each packet, one byte per frame number, scored against the
// labels once the capture is over. ATP records what its components did with the packets they saw
// (its report's `labels`); the replay summary records what the whole path did with every packet
// (the replay report's `labels`, where a firewall drop is Outcome.DROP_OTHER). Both are scored here,
// by the same rules. Frames are numbered 1.. by the reader, so a growable Uint8Array indexed by
// frame is both the smallest and the simplest record; frames past FRAME_LIMIT are not recorded (and
// the score says how many were left out).
import { Reason } from './vocabulary.js';

/** Ground truth for a synthetic capture, by frame number. */
export interface AtpLabels {
  label(frame: number): 'legit' | 'attack' | null;
  flow(frame: number): number | null;
}

/** How a labelled capture fared; "flagged" counts monitoring-mode notes (would have been dropped). */
export interface LabelScore {
  attackPackets: number;
  attackDropped: number;
  attackFlagged: number;
  legitPackets: number;
  legitDropped: number;
  legitFlagged: number;
  /** legitimate flows with at least one packet through an ATP component */
  legitFlows: number;
  /** flows that met a SYN challenge (enabled: dropped; monitoring: would have been) */
  legitFlowsChallenged: number;
  /**
   * flows that did not complete: a packet dropped for a reason other than the challenge itself, or a
   * challenge never passed. Meeting and passing a challenge costs the client a round trip, not the flow.
   */
  legitFlowsHarmed: number;
  /** the same, counting monitoring notes as if they had been drops */
  legitFlowsWouldBeHarmed: number;
  /** flows with at least one dropped packet, a challenged SYN included (even when the client then passed) */
  legitFlowsDropped: number;
  /** packets through a component whose frame number was too large to record */
  unrecorded: number;
}

/**
 * A frame's outcome code: PASS, UNDECIDED, DROP + an ATP reason code, FLAG + an ATP reason code
 * (a monitoring note), or DROP_OTHER (dropped by a later stage: the firewall).
 */
export const Outcome = { NONE: 0, PASS: 1, UNDECIDED: 2, DROP: 8, DROP_OTHER: 15, FLAG: 16 } as const;
const FRAME_LIMIT = 1 << 28;

// Per-flow bits while scoring, for the actual (drop) and the would-be (drop or flag) worlds.
const CHALLENGED = 1;
const PENDING = 2;
const HARMED = 4;
const DROPPED = 8;

/** Outcome codes by frame, and their score against labels. */
export class Outcomes {
  /** grown by doubling as frames come: a run over a few packets (a test case, a bench pass) stays small */
  private byFrame = new Uint8Array(64);
  private maxFrame = 0;
  private unrecorded = 0;

  /** Records `code` (Outcome.PASS, UNDECIDED, DROP + reason, FLAG + reason) for a frame. */
  record(frame: number, code: number): void {
    if (frame > 0 && frame < this.byFrame.length) {
      this.byFrame[frame] = code;
      if (frame > this.maxFrame) this.maxFrame = frame;
      return;
    }
    if (frame <= 0 || frame >= FRAME_LIMIT) {
      this.unrecorded++;
      return;
    }
    if (frame >= this.byFrame.length) {
      let n = this.byFrame.length * 2;
      while (n <= frame) n *= 2;
      const grown = new Uint8Array(n);
      grown.set(this.byFrame);
      this.byFrame = grown;
    }
    this.byFrame[frame] = code;
    if (frame > this.maxFrame) this.maxFrame = frame;
  }

  score(labels: AtpLabels): LabelScore {
    const s: LabelScore = {
      attackPackets: 0,
      attackDropped: 0,
      attackFlagged: 0,
      legitPackets: 0,
      legitDropped: 0,
      legitFlagged: 0,
      legitFlows: 0,
      legitFlowsChallenged: 0,
      legitFlowsHarmed: 0,
      legitFlowsWouldBeHarmed: 0,
      legitFlowsDropped: 0,
      unrecorded: this.unrecorded,
    };
    const flows = new Map<number, number>();
    for (let frame = 1; frame <= this.maxFrame; frame++) {
      const code = this.byFrame[frame];
      if (code === Outcome.NONE) continue;
      const label = labels.label(frame);
      const dropped = code >= Outcome.DROP && code < Outcome.FLAG;
      const flagged = code >= Outcome.FLAG;
      if (label === 'attack') {
        s.attackPackets++;
        if (dropped) s.attackDropped++;
        if (flagged) s.attackFlagged++;
      } else if (label === 'legit') {
        s.legitPackets++;
        if (dropped) s.legitDropped++;
        if (flagged) s.legitFlagged++;
        const flow = labels.flow(frame);
        if (flow !== null) flows.set(flow, advance(flows.get(flow) ?? 0, code));
      }
    }
    for (const bits of flows.values()) {
      s.legitFlows++;
      const actual = bits & 0xf;
      const would = bits >> 4;
      if ((actual | would) & CHALLENGED) s.legitFlowsChallenged++;
      if (actual & (HARMED | PENDING)) s.legitFlowsHarmed++;
      if (would & (HARMED | PENDING)) s.legitFlowsWouldBeHarmed++;
      if (actual & DROPPED) s.legitFlowsDropped++;
    }
    return s;
  }
}

// A flow's bits: low nibble for the actual world, high nibble for the would-be world.
function advance(bits: number, code: number): number {
  const reason = code & 7;
  const kind = code & ~7;
  return step(bits & 0xf, kind === Outcome.DROP ? reason : 0) | (step(bits >> 4, kind === Outcome.DROP || kind === Outcome.FLAG ? reason : 0) << 4);
}

// `reason`: 0 passed, an ATP reason code, or 7 (DROP_OTHER's) for a drop by another stage.
function step(bits: number, reason: number): number {
  if (reason === Reason.NONE) return bits & ~PENDING;
  if (reason === Reason.CHALLENGE_NEEDED) return bits | CHALLENGED | PENDING | DROPPED;
  if (reason === Reason.CHALLENGE_PASSED) return (bits & ~PENDING) | DROPPED;
  return bits | HARMED | DROPPED;
}
