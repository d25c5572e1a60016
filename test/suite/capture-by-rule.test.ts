// A capture case's by_rule expectation: a count that does not hold fails, saying what was expected
// as people write counts (one packet in the singular) and what the replay decided.
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load.js';
import { runSuites } from '../../src/suite/run.js';
import { DEMO_CONFIG, DEMO_PCAP, writeSuite } from './helpers.js';

describe('by_rule', () => {
  it('says how many packets were expected and how many the rule decided', async () => {
    const file = writeSuite(`config: ${DEMO_CONFIG}
cases:
  - name: telnet and geo counts, both wrong
    capture: ${DEMO_PCAP}
    expect: {by_rule: {block-telnet: 1, geo-block: 2}}
`);
    const [result] = await runSuites([await loadSuite(file)]);
    expect(result!.status).toBe('failed');
    expect(result!.details).toContain('by_rule.block-telnet: expected 1 packet decided, got 36\n');
    expect(result!.details).toContain('by_rule.geo-block: expected 2 packets decided, got 3');
  });
});
