// The engine counts: frames of each lane, the frames the compiled lane decoded for rules whose
// conditions it does not write, and the warnings naming the causes with their counts of frames, as
// people write counts.
import { describe, expect, it } from 'vitest';
import { EngineCounts, engineWarnings, type FrameLane } from '../../src/sim/engine-counts.js';

/** A frame that fell back for `why`, or that the compiled lane decided reading `rules` on its decoded record. */
function frame(why: string | null, rules: string[] = []): FrameLane {
  return { fallbackReason: () => why, decodedRules: () => rules.length, decodedReason: (i) => rules[i]! };
}

describe('EngineCounts', () => {
  it('counts decoded frames within the compiled ones, and each rule read on them', () => {
    const counts = new EngineCounts();
    counts.add(frame(null));
    counts.add(frame(null, ['rule a: x', 'rule b: y']));
    counts.add(frame(null, ['rule b: y']));
    counts.add(frame('decode note'));
    expect(counts.report()).toEqual({ compiled: 3, fallback: 1, fallback_reasons: { 'decode note': 1 }, decoded: 2, decoded_reasons: { 'rule b: y': 2, 'rule a: x': 1 } });
  });

  it('adds up parts', () => {
    const one = new EngineCounts();
    const a = new EngineCounts();
    const b = new EngineCounts();
    const frames = [frame(null, ['rule a: x']), frame('link type'), frame(null), frame(null, ['rule a: x', 'rule c: z'])];
    frames.forEach((f, i) => {
      one.add(f);
      (i < 2 ? a : b).add(f);
    });
    a.absorb(b.parts());
    expect(a.report()).toEqual(one.report());
  });
});

describe('engineWarnings', () => {
  it('counts each cause in frames, one frame in the singular and thousands grouped', () => {
    const counts = new EngineCounts();
    for (let i = 0; i < 1234; i++) counts.add(frame('decode note'));
    counts.add(frame('link type'));
    counts.add(frame(null));
    expect(engineWarnings(counts.report())).toEqual([
      '99.9% of the frames went through the decoder and evaluator instead of the compiled path: decode note (1,234 frames); link type (1 frame)',
    ]);
  });

  it('names the rules read on decoded frames when more than 5% were decoded, and nothing at 5%', () => {
    const counts = new EngineCounts();
    for (let i = 0; i < 95; i++) counts.add(frame(null));
    for (let i = 0; i < 5; i++) counts.add(frame(null, ['rule a: field ip.src: list $x not compiled']));
    expect(engineWarnings(counts.report())).toEqual([]);
    counts.add(frame(null, ['rule b: field ip.dst: list $y not compiled', 'rule a: field ip.src: list $x not compiled']));
    expect(engineWarnings(counts.report())).toEqual([
      '5.9% of the frames were decoded for rules the compiled path does not read itself: rule a: field ip.src: list $x not compiled (6 frames); rule b: field ip.dst: list $y not compiled (1 frame)',
    ]);
  });
});
