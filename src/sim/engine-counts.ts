// Which lane decided each frame of a run (lane.ts): the compiled one (the ruleset's generated
// function, fastpath/, reading the frame's bytes) or the decoder's (the decoder and the evaluator),
// and for each frame that took the decoder's lane, why (Run.fallbackReason): a frame the compiled
// program does not read (a decode note, a link type), or no compiled lane for the run at all. A frame the compiled path decided may
// still have been decoded, once, for the rules whose conditions it does not write (their predicates
// read the decoded record: fastpath/frame-record.ts); those frames and rules are counted apart.
// The counts are frames, so compiled + fallback is the replay's packet count, on any number of threads.

import { counted } from '../numbers.js';

/** The JSON summary's `engine`. */
export interface EngineReport {
  compiled: number;
  fallback: number;
  /** frames by reason, most first */
  fallback_reasons: Record<string, number>;
  /** frames of `compiled` that were also decoded, for rules whose conditions the compiled path does not write */
  decoded: number;
  /** those frames by the rule read on the decoded record ("rule <ref>: …"), most first; a frame read for two rules counts under each */
  decoded_reasons: Record<string, number>;
}

/** What the counts read of the frame just decided (Run). */
export interface FrameLane {
  /** why the frame went through the decoder and evaluator; null when the compiled lane decided it */
  fallbackReason(): string | null;
  /** how many rules the compiled lane read on the frame's decoded record */
  decodedRules(): number;
  /** why the i-th of them was */
  decodedReason(i: number): string;
}

/** a replay whose fallback (or decoded) share is above this says which rules or frames cause it */
export const FALLBACK_SHARE_WARNING = 0.05;

type Parts = [compiled: number, reasons: Array<[string, number]>, decoded: number, decodedReasons: Array<[string, number]>];

function bump(counts: Map<string, number>, reason: string, n: number): void {
  counts.set(reason, (counts.get(reason) ?? 0) + n);
}

function mostFirst(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export class EngineCounts {
  compiled = 0;
  private readonly reasons = new Map<string, number>();
  private decoded = 0;
  private readonly decodedReasons = new Map<string, number>();

  /** Counts the frame just decided. */
  add(lane: FrameLane): void {
    const fallbackReason = lane.fallbackReason();
    if (fallbackReason !== null) {
      bump(this.reasons, fallbackReason, 1);
      return;
    }
    this.compiled++;
    const rules = lane.decodedRules();
    if (rules === 0) return;
    this.decoded++;
    for (let i = 0; i < rules; i++) bump(this.decodedReasons, lane.decodedReason(i), 1);
  }

  /** The counts as plain data, for a part of a replay on several threads. */
  parts(): Parts {
    return [this.compiled, [...this.reasons], this.decoded, [...this.decodedReasons]];
  }

  absorb([compiled, reasons, decoded, decodedReasons]: Parts): void {
    this.compiled += compiled;
    for (const [reason, n] of reasons) bump(this.reasons, reason, n);
    this.decoded += decoded;
    for (const [reason, n] of decodedReasons) bump(this.decodedReasons, reason, n);
  }

  report(): EngineReport {
    const sorted = mostFirst(this.reasons);
    return {
      compiled: this.compiled,
      fallback: sorted.reduce((sum, [, n]) => sum + n, 0),
      fallback_reasons: Object.fromEntries(sorted),
      decoded: this.decoded,
      decoded_reasons: Object.fromEntries(mostFirst(this.decodedReasons)),
    };
  }
}

/** "rule a (1,234 frames); …" for the three largest causes, then how many more the summary has under `key`. */
function causes(reasons: Record<string, number>, key: string): string {
  const top = Object.entries(reasons).slice(0, 3).map(([reason, n]) => `${reason} (${counted(n, 'frame')})`);
  const more = Object.keys(reasons).length - top.length;
  return `${top.join('; ')}${more > 0 ? `; ${more} more in the summary's engine.${key}` : ''}`;
}

/**
 * What a replay says when more than FALLBACK_SHARE_WARNING of its frames fell back, or were decoded
 * for rules the compiled path does not write, naming the causes.
 */
export function engineWarnings(engine: EngineReport): string[] {
  const frames = engine.compiled + engine.fallback;
  const share = (n: number) => ((100 * n) / frames).toFixed(1);
  const said: string[] = [];
  if (frames === 0) return said;
  if (engine.fallback / frames > FALLBACK_SHARE_WARNING) {
    said.push(`${share(engine.fallback)}% of the frames went through the decoder and evaluator instead of the compiled path: ${causes(engine.fallback_reasons, 'fallback_reasons')}`);
  }
  if (engine.decoded / frames > FALLBACK_SHARE_WARNING) {
    said.push(`${share(engine.decoded)}% of the frames were decoded for rules the compiled path does not read itself: ${causes(engine.decoded_reasons, 'decoded_reasons')}`);
  }
  return said;
}
