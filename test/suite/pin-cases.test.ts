// The cases `edgesim pin` writes for a configuration: each reachable rule's packet named after the
// rule and its description, expecting its verdict and rule; a proved space for an exact region;
// packets just outside it; the default pass; a packet per ATP filter and rule scope; and the rules
// and filters it cannot pin, each with why.
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { pinnedCases } from '../../src/suite/pin/pin-suite.js';
import { suiteText } from '../../src/suite/pin/suite-text.js';

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

  it("a rule every packet's class can match pins a space per transport and one without: that one names no protocol (no `ip.proto: undefined` in the suite)", async () => {
    const ttl: Snapshot = { rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'ttl', action: 'block', expression: 'ip.ttl == 5' }] }] };
    const { cases } = pinnedCases(ttl, await SuitePaths.open(ttl, {}));
    const spaces = (cases.find((c) => c.name === 'ttl: every packet of its region')!.body[0]![1] as Array<Record<string, unknown>>).map((s) => s['ip.proto'] ?? 'none');
    expect(spaces).toEqual(['tcp', 'udp', 'icmp', 'none', 'tcp', 'udp', 'ipv6-icmp', 'none']);
    const text = suiteText('', 'config.yaml', cases, '');
    expect(text).not.toContain('undefined');
    expect(text).toContain('      - {ip.ttl: [5], ip.src: [0.0.0.0/0]}\n');
  });

  it("pins a rule of packets too short for its first class's headers by the next class whose headers fit: no port or type then, a packet cut short of its transport header", async () => {
    /** the packet pinning a lone rule `r` */
    const pinned = async (expression: string): Promise<Record<string, unknown>> => {
      const config: Snapshot = { rulesets: [{ name: 'edge', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'r', action: 'block', expression }] }] };
      const { cases, unpinned } = pinnedCases(config, await SuitePaths.open(config, {}));
      expect(unpinned).toEqual([]);
      const body = cases.find((c) => c.name === 'r')!.body;
      expect(body).toHaveLength(1);
      return body[0]![1] as Record<string, unknown>;
    };
    const transport = (p: Record<string, unknown>): string[] => Object.keys(p).filter((k) => /^(tcp|udp|icmp)\./.test(k));
    // 30 bytes: TCP's 20 + 20 do not fit, UDP's 20 + 8 do
    expect(await pinned('ip.len >= 30 and ip.len <= 39')).toMatchObject({ 'ip.proto': 'udp', 'ip.len': 30, 'udp.dstport': 53 });
    // 24 bytes: neither UDP's nor an echo request's 28: only a packet without a transport header
    const bare = await pinned('ip.len >= 24 and ip.len <= 27');
    expect([bare['ip.len'], transport(bare)]).toEqual([24, []]);
    // IPv6: a 40-byte header, TCP's 60 do not fit 40 to 59, UDP's 48 do
    expect(await pinned('ip.len >= 40 and ip.len <= 59 and ip.src in {2001:db8::/32}')).toMatchObject({ 'ip.src': '2001:db8::1', 'ip.proto': 'udp', 'ip.len': 48 });
    // a 15-word IPv4 header: TCP needs 80 bytes, UDP 68
    expect(await pinned('ip.hdr_len == 15 and ip.len >= 40 and ip.len <= 79')).toMatchObject({ 'ip.hdr_len': 15, 'ip.proto': 'udp', 'ip.len': 68 });
    // an ICMP error carries the invoking packet's 28 bytes: 56 do not fit 28 to 55, GRE's 24 do
    expect(await pinned('ip.len >= 28 and ip.len <= 55 and (icmp.type == 3 or ip.proto == "gre")')).toMatchObject({ 'ip.proto': 'gre', 'ip.len': 28 });
    // a SIP request's first line, 64 bytes more: 104 with TCP's headers, 92 with UDP's, 88 without a transport header
    const sip = await pinned('sip and ip.len >= 40 and ip.len <= 91');
    expect([sip.sip, sip['ip.len'], transport(sip)]).toEqual([true, 88, []]);
  });
});
