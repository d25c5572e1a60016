// The cases `edgesim pin` writes for a configuration: each reachable rule's packet named after the
// rule and its description, expecting its verdict and rule; a proved space for an exact region;
// packets just outside it; the default pass; a packet per ATP filter and rule scope; and the rules
// and filters it cannot pin, each with why.
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { pinnedCases } from '../../src/suite/pin/pin-suite.js';

const snapshot: Snapshot = {
  tcp_protection_status: { enabled: true },
  prefixes: [{ prefix: '203.0.113.0/24' }],
  syn_protection: {
    rules: [{ scope: 'region', name: 'WEUR', mode: 'monitoring' }],
    filters: [
      { id: 'ssh-off', expression: 'tcp.dstport == 22', mode: 'disabled' },
      { id: 'elsewhere', expression: 'ip.dst in {10.0.0.0/8}', mode: 'enabled' },
    ],
  },
  rulesets: [
    {
      name: 'edge',
      kind: 'root',
      phase: 'edge_transit',
      rules: [
        { ref: 'ssh', action: 'block', expression: 'tcp.dstport in {22..23}', description: 'No remote shells' },
        { ref: 'again', action: 'block', expression: 'tcp.dstport == 22' },
        { ref: 'off', action: 'block', expression: 'udp.dstport == 53', enabled: false },
      ],
    },
  ],
};

describe('pinned cases', () => {
  it('pin each rule, its region and its edges, the default, ATP filters and scopes; list the rest with why', async () => {
    const { cases, unpinned } = pinnedCases(snapshot, await SuitePaths.open(snapshot, {}));
    const byName = new Map(cases.map((c) => [c.name, c]));
    expect(byName.get('ssh: No remote shells')?.expect).toEqual({ verdict: 'drop', rule: 'ssh' });
    // its region whole, one case: a union of its IPv4 and IPv6 boxes
    expect(byName.get('ssh: every packet of its region')).toMatchObject({
      body: [
        [
          'space',
          [
            { 'tcp.dstport': ['22-23'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' },
            { 'tcp.dstport': ['22-23'], 'ip.src': ['::/0'], 'ip.proto': 'tcp' },
          ],
        ],
      ],
      expect: { verdict: 'drop', rule: 'ssh' },
    });
    expect(byName.has('ssh: every packet of its region (2)')).toBe(false);
    expect(byName.get('ssh: just outside, tcp.dstport 24')?.expect).toEqual({ verdict: 'pass', rule: null });
    expect(byName.get('ssh: just outside, tcp.dstport 21')?.expect).toEqual({ verdict: 'pass', rule: null });
    expect(byName.get('no rule decides: passed by default')?.expect).toEqual({ verdict: 'pass', rule: null });
    expect([...byName.keys()].filter((n) => n.startsWith('syn_protection'))).toEqual(['syn_protection ssh-off: filter (disabled) tcp.dstport == 22', 'syn_protection syn_protection.rules[0]: rule (monitoring) region WEUR']);
    expect(unpinned).toEqual([
      'again (edge, block): unreachable: every packet it matches is decided earlier by ssh',
      'off (edge, block): disabled',
      'syn_protection elsewhere: matches no TCP packet to a protected prefix',
    ]);
  });

  it('a rule of short packets (issue 33: `ip.len <= 28`) is pinned by a packet a suite builds: not a TCP one, whose headers take 40 bytes', async () => {
    const short: Snapshot = {
      rulesets: [
        {
          name: 'edge',
          kind: 'root',
          phase: 'edge_transit',
          rules: [
            { ref: 'tiny', action: 'block', expression: 'ip.len <= 28' },
            { ref: 'web', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 443' },
          ],
        },
      ],
    };
    const { cases, unpinned } = pinnedCases(short, await SuitePaths.open(short, {}));
    expect(unpinned).toEqual([]);
    const tiny = cases.find((c) => c.name === 'tiny')!;
    expect(tiny.expect).toEqual({ verdict: 'drop', rule: 'tiny' });
    expect(tiny.body).toEqual([['packet', expect.objectContaining({ 'ip.proto': 'udp', 'ip.len': 28 })]]);
  });
});
