// The fallback warning names its causes with their counts of frames, as people write counts.
import { describe, expect, it } from 'vitest';
import { EngineCounts, fallbackWarning } from '../../src/sim/engine-counts.js';

describe('fallbackWarning', () => {
  it('counts each cause in frames, one frame in the singular and thousands grouped', () => {
    const counts = new EngineCounts();
    for (let i = 0; i < 1234; i++) counts.add('rule a reads http.request.uri');
    counts.add('a VLAN tag');
    counts.add(null);
    expect(fallbackWarning(counts.report())).toBe(
      '99.9% of the frames went through the decoder and evaluator instead of the compiled path: rule a reads http.request.uri (1,234 frames); a VLAN tag (1 frame)',
    );
  });
});
