// Which lane decided each frame of a replay: the compiled one (the ruleset's generated function,
// fastpath/, reading the frame's bytes) or the fallback (the decoder and the evaluator), and for each
// frame that fell back, why (PacketDecider.fallbackReason): a rule the compiled path cannot evaluate,
// a frame it does not read (a decode note, a VLAN tag, a link type), or no compiled path at all.
// The counts are frames, so compiled + fallback is the replay's packet count, on any number of threads.

import { counted } from '../numbers.js';

/** The JSON summary's `engine`. */
export interface EngineReport {
  compiled: number;
  fallback: number;
  /** frames by reason, most first */
  fallback_reasons: Record<string, number>;
}

/** a replay whose fallback share is above this says which rules or frames cause it */
export const FALLBACK_SHARE_WARNING = 0.05;

export class EngineCounts {
  compiled = 0;
  private readonly reasons = new Map<string, number>();

  /** Counts a frame: `fallbackReason` null when the compiled lane decided it. */
  add(fallbackReason: string | null): void {
    if (fallbackReason === null) this.compiled++;
    else this.reasons.set(fallbackReason, (this.reasons.get(fallbackReason) ?? 0) + 1);
  }

  /** The counts as plain data, for a part of a replay on several threads. */
  parts(): [compiled: number, reasons: Array<[string, number]>] {
    return [this.compiled, [...this.reasons]];
  }

  absorb([compiled, reasons]: [number, Array<[string, number]>]): void {
    this.compiled += compiled;
    for (const [reason, n] of reasons) this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + n);
  }

  report(): EngineReport {
    const sorted = [...this.reasons].sort((a, b) => b[1] - a[1]);
    return { compiled: this.compiled, fallback: sorted.reduce((sum, [, n]) => sum + n, 0), fallback_reasons: Object.fromEntries(sorted) };
  }
}

/** What a replay says when more than FALLBACK_SHARE_WARNING of its frames fell back, naming the causes; else null. */
export function fallbackWarning(engine: EngineReport): string | null {
  const frames = engine.compiled + engine.fallback;
  if (frames === 0 || engine.fallback / frames <= FALLBACK_SHARE_WARNING) return null;
  const share = ((100 * engine.fallback) / frames).toFixed(1);
  const causes = Object.entries(engine.fallback_reasons).slice(0, 3).map(([reason, n]) => `${reason} (${counted(n, 'frame')})`);
  const more = Object.keys(engine.fallback_reasons).length - causes.length;
  return `${share}% of the frames went through the decoder and evaluator instead of the compiled path: ${causes.join('; ')}${more > 0 ? `; ${more} more in the summary's engine.fallback_reasons` : ''}`;
}
