// A case that names a rule the configuration does not have (a typo, or a rule a change deleted or
// renamed) is that case's failure, with the nearest ref there is; the suite stays valid and its other
// cases run (issue 33: every deleted rule made the whole suite invalid instead of failing cases).
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load.js';
import { runSuites } from '../../src/suite/run.js';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, writeSuite } from './helpers.js';

const SUITE = `config: ${DEMO_CONFIG}
cases:
  - name: a typo in the deciding rule
    packet: {tcp.dstport: 22, ip.src: 203.0.113.99}
    expect: {verdict: drop, rule: ssh-from-ofice}
  - name: a deleted rule among the matched ones
    packet: {ip.proto: icmp, icmp.type: 8}
    expect: {matched: [log-icmp-echo, log-ping-v2]}
  - name: a space decided by a rule that is gone
    space: {tcp.dstport: [23]}
    expect: {verdict: drop, rule: block-telnet-old}
  - name: a capture counting a rule that is gone
    capture: ${DEMO_PCAP}
    expect: {by_rule: {block-telnet: 36, geo-blok: 3}}
  - name: this one still passes
    packet: {tcp.dstport: 23}
    expect: {verdict: drop, rule: block-telnet}
`;

describe('a rule the configuration does not have', () => {
  it('fails the case that names it, with did-you-mean, and the other cases run', async () => {
    const results = await runSuites([await loadSuite(writeSuite(SUITE))]);
    expect(results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'passed']);
    expect(results[0]!.message).toBe('rule: expected ssh-from-ofice (no rule has the ref "ssh-from-ofice" (did you mean "ssh-from-office"?)), got ssh-from-office');
    expect(results[1]!.message).toBe('matched: expected [log-icmp-echo, log-ping-v2] (no rule has the ref "log-ping-v2"), got [log-icmp-echo]');
    expect(results[2]!.message).toMatch(/^expected drop by block-telnet-old \(no rule has the ref "block-telnet-old" \(did you mean "block-telnet"\?\)\) for every packet, got /);
    expect(results[3]!.message).toBe('by_rule.geo-blok: no rule has the ref "geo-blok" (did you mean "geo-block"?)');
  });

  it('edgesim test exits 1 (a case failed), not 2 (an invalid suite)', () => {
    const r = runCli(['test', writeSuite(SUITE)]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('PASS');
    expect(r.stderr).toBe('');
  });
});
