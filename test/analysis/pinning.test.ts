// What `edgesim pin` asks of the analysis (src/analysis/pinning.ts), checked against the real
// firewall: each rule's witness is decided (a log rule's matched) by it, or the rule says why not;
// every packet of a pinned space gets its verdict (and rule); a packet just outside a rule's
// region is not matched by it; the fallthrough packet is decided by no rule. And pinProtection's
// packet per ATP filter and rule scope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { pinFirewall, pinProtection } from '../../src/analysis/index.js';
import { spaceModel } from '../../src/analysis/prove.js';
import { type RuleSpec, randomSource, replayer, ruleSpecs, samples, snapshotOf } from './replay.js';

const rule = (action: RuleSpec['action'], expression: string, enabled = true): RuleSpec => ({ action, expression, enabled });

describe('pinFirewall', () => {
  it('says why a rule cannot be pinned: disabled, unmatchable, unreachable (by which rules), indeterminate', () => {
    const pinning = pinFirewall(
      snapshotOf([
        rule('block', 'tcp.dstport in {22..23}'),
        rule('block', 'tcp.dstport == 80'),
        rule('block', 'tcp.dstport in {22 80}'),
        rule('block', 'udp.dstport == 53', false),
        rule('block', 'tcp.dstport == 1 and tcp.dstport == 2'),
        rule('block', 'tcp contains "abc"'),
      ]),
    );
    expect(pinning.rules.map((r) => [r.ref, r.ruleset, r.path, r.action, r.why])).toEqual([
      ['r1', 'rs', 'rulesets[0].rules[0]', 'block', null],
      ['r2', 'rs', 'rulesets[0].rules[1]', 'block', null],
      ['r3', 'rs', 'rulesets[0].rules[2]', 'block', 'unreachable: every packet it matches is decided earlier by r1, r2'],
      ['r4', 'rs', 'rulesets[0].rules[3]', 'block', 'disabled'],
      ['r5', 'rs', 'rulesets[0].rules[4]', 'block', 'unmatchable: it matches no packet'],
      [
        'r6',
        'rs',
        'rulesets[0].rules[5]',
        'block',
        'indeterminate: parts the analysis does not model (regular expressions, byte strings, functions, unknown lists) decide whether it is reached',
      ],
    ]);
    for (const r of pinning.rules.slice(2)) expect([r.witness, r.spaces, r.edges]).toEqual([null, [], []]);
  });

  it('pins a region by its boxes (the rule when it decides all of a box, else the verdict) and one packet per edge', () => {
    const pinning = pinFirewall(snapshotOf([rule('block', 'tcp.dstport in {22..23}'), rule('skip', 'ip.src in {10.0.0.0/8} and ip.ttl < 10'), rule('block', 'tcp.dstport >= 1024')]));
    const [ssh, trusted, high] = pinning.rules;
    expect(ssh!.spaces).toEqual([
      { space: { 'tcp.dstport': ['22-23'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' }, verdict: 'drop', rule: 'r1' },
      { space: { 'tcp.dstport': ['22-23'], 'ip.src': ['::/0'], 'ip.proto': 'tcp' }, verdict: 'drop', rule: 'r1' },
    ]);
    // the same edge in the IPv6 box is not pinned twice
    expect(ssh!.edges.map((e) => [e.field, e.witness['tcp.dstport']])).toEqual([
      ['tcp.dstport', 21],
      ['tcp.dstport', 24],
    ]);
    // its TCP box is decided partly by r1 and r3: neither the rule nor one verdict holds there; no transport header: too many protocols to write
    expect(trusted!.spaces).toEqual([
      { space: { 'ip.src': ['10.0.0.0/8'], 'ip.ttl': ['0-9'], 'ip.proto': 'udp' }, verdict: 'pass', rule: 'r2' },
      { space: { 'ip.src': ['10.0.0.0/8'], 'ip.ttl': ['0-9'], 'ip.proto': 'icmp' }, verdict: 'pass', rule: 'r2' },
    ]);
    // ip.ttl 0 is the field's first value: no packet below it
    expect(trusted!.edges.map((e) => [e.field, e.witness[e.field]])).toEqual([
      ['ip.src', '9.255.255.255'],
      ['ip.src', '11.0.0.0'],
      ['ip.ttl', 10],
    ]);
    expect(high!.edges.map((e) => [e.field, e.witness[e.field]])).toEqual([['tcp.dstport', 1023]]);
  });

  it('pins edges of ordered fields only (a protocol number, not a country or sip), never "absent" as a value, of the first 32 boxes and the first 32 ranges of a field', () => {
    const edgesOf = (expression: string) => pinFirewall(snapshotOf([rule('block', expression)])).rules[0]!.edges.map((e) => [e.field, e.witness[e.field]]);
    expect(edgesOf('ip.src.country == "US"')).toEqual([]);
    expect(edgesOf('ip.proto == "gre"').map(([field]) => field)).toEqual(['ip.proto', 'ip.proto']);
    expect(edgesOf('ip.proto == "gre"').map(([, value]) => value)).not.toContain('gre');
    expect(edgesOf('ip.opt.type == 0')).toEqual([['ip.opt.type', 1]]);
    expect(edgesOf('sip')).toEqual([]);
    // 40 addresses apart: the ends of the first 32 ranges only (10.0.0.0 to 10.0.0.64)
    const apart = Array.from({ length: 40 }, (_, i) => `10.0.0.${2 * i + 1}`).join(' ');
    expect(edgesOf(`ip.src in {${apart}}`).map(([, v]) => v)).toEqual(Array.from({ length: 33 }, (_, i) => `10.0.0.${2 * i}`));
    // five comparisons of 8 boxes each: the last one's edges (ip.ttl 7 and 9) are past the 32 boxes, but ip.ttl 7 is also the fourth's
    expect(edgesOf('ip.ttl == 0 or ip.ttl == 2 or ip.ttl == 4 or ip.ttl == 6 or ip.ttl == 8').map(([, v]) => v)).toEqual([1, 3, 5, 7]);
  });

  it('pins no space of a log rule, of a region it cannot say exactly, or of more than 8 boxes; the verdict alone where another rule decides first', () => {
    const many = Array.from({ length: 5 }, (_, i) => `ip.ttl == ${i}`).join(' or ');
    const pinning = pinFirewall(
      snapshotOf([
        rule('log', 'udp.dstport == 53'),
        rule('block', 'udp.dstport == 53 and ip.src.country matches "^U"'),
        rule('block', many),
        rule('block', 'udp.dstport == 123'),
        rule('skip', 'udp.dstport in {100..200}'),
      ]),
    );
    const [log, inexact, eight, ntp, skip] = pinning.rules;
    expect(log!.witness!['udp.dstport']).toBe(53);
    // certain for UDP, possible for TCP: not pinned though its certain part is
    expect(pinFirewall(snapshotOf([rule('block', 'udp.dstport == 53 or tcp contains "abc"')])).rules[0]!.spaces).toEqual([]);
    // 8 boxes, one per family and transport
    expect(pinFirewall(snapshotOf([rule('block', 'ip.ttl < 10')])).rules[0]!.spaces).toHaveLength(8);
    expect([log!.spaces, inexact!.spaces, eight!.spaces]).toEqual([[], [], []]);
    // a log rule decides nothing: its packets' verdict is another rule's (here the default's)
    expect(pinFirewall(snapshotOf([rule('log', 'udp.dstport == 53')])).rules[0]!.spaces).toEqual([]);
    // r3 decides some of r4's packets first, with the same verdict: the verdict holds, not the rule
    expect(ntp!.spaces).toEqual([
      { space: { 'udp.dstport': [123], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' }, verdict: 'drop' },
      { space: { 'udp.dstport': [123], 'ip.src': ['::/0'], 'ip.proto': 'udp' }, verdict: 'drop' },
    ]);
    // r4 drops some of its packets: neither the rule nor the verdict pass holds
    expect(skip!.spaces).toEqual([]);
  });

  it('has no fallthrough packet when some rule decides every packet', () => {
    expect(pinFirewall(snapshotOf([rule('log', 'ip.ttl < 10'), rule('block', 'ip.ttl >= 0')])).fallthrough).toBeNull();
    expect(pinFirewall(snapshotOf([rule('block', 'ip.ttl < 10'), rule('skip', 'ip.ttl >= 5')])).fallthrough).toBeNull();
    expect(pinFirewall(snapshotOf([rule('block', 'ip.ttl < 10'), rule('skip', 'ip.ttl >= 11')])).fallthrough).toMatchObject({ 'ip.ttl': 10 });
  });

  it('witnesses, spaces and the fallthrough are what the real firewall decides', () => {
    fc.assert(
      fc.property(ruleSpecs, fc.integer(), (rules, seed) => {
        const snapshot = snapshotOf(rules);
        const replay = replayer(snapshot);
        const pinning = pinFirewall(snapshot);
        expect(pinning.rules.map((r) => r.ref)).toEqual(rules.map((_, i) => `r${i + 1}`));
        for (const [i, r] of pinning.rules.entries()) {
          expect(r.action).toBe(rules[i]!.action);
          expect((r.witness === null) !== (r.why === null)).toBe(true);
          if (!rules[i]!.enabled) expect(r.why).toBe('disabled');
          if (r.witness !== null) {
            const decided = replay(r.witness);
            if (r.action === 'log') expect(decided.matched).toContain(r.ref);
            else expect(decided.rule).toBe(r.ref);
          }
          for (const s of r.spaces) {
            const { hs, region } = spaceModel(snapshot, s.space);
            for (const w of samples(region, hs.names, randomSource(seed), 5)) {
              const decided = replay(w);
              expect(decided.verdict).toBe(s.verdict);
              if (s.rule !== undefined) expect(decided.rule).toBe(s.rule);
            }
          }
        }
        if (pinning.fallthrough !== null) expect(replay(pinning.fallthrough)).toMatchObject({ verdict: 'pass', rule: null });
      }),
      { numRuns: 40 },
    );
  });

  // conjunctions of comparisons on one field each: within each family and transport the region is one box, so a packet moved past one of its edges is outside it
  const single = fc.constantFrom(
    'tcp.dstport in {22 80}',
    'tcp.dstport >= 1024',
    'tcp.dstport != 22',
    'udp.srcport in {53 123}',
    'ip.src in {10.1.0.0/16 192.0.2.0/24}',
    'ip.dst in {2001:db8::/32}',
    'ip.src != 10.0.0.1',
    'ip.proto in {"udp" "icmp" "gre"}',
    'tcp.flags.syn',
    'icmp.type == 8',
    'ip.ttl < 10',
    'ip.len > 1000',
    'ip.hdr_len == 5',
    'ip.src.country == "US"',
    'sip',
  );

  it('a packet just outside a rule region is not matched by it; the field named is the one moved', () => {
    fc.assert(
      fc.property(fc.uniqueArray(single, { minLength: 1, maxLength: 3 }), (atoms) => {
        const snapshot = snapshotOf([rule('block', atoms.join(' and '))]);
        const replay = replayer(snapshot);
        const [pinned] = pinFirewall(snapshot).rules;
        for (const { field, witness } of pinned!.edges) {
          expect(replay(witness).matched).toEqual([]);
          expect(replay({ ...witness, [field]: pinned!.witness![field]! }).matched).toEqual(['r1']);
        }
      }),
      { numRuns: 60 },
    );
  });
});

const protectedSnapshot = (extra: Partial<Snapshot>): Snapshot => ({
  tcp_protection_status: { enabled: true },
  prefixes: [{ prefix: '203.0.113.0/24' }],
  ...extra,
});

describe('pinProtection', () => {
  it('a TCP packet to a protected prefix for each filter that matches one; null for one that matches none', () => {
    const pinned = pinProtection(
      protectedSnapshot({
        syn_protection: {
          filters: [
            { id: 'ssh-off', expression: 'tcp.dstport == 22', mode: 'disabled' },
            { expression: 'ip.dst in {10.0.0.0/8}', mode: 'enabled' },
          ],
        },
        tcp_flow_protection: { filters: [{ expression: 'tcp.srcport in {1024..65535}', mode: 'monitoring' }] },
      }),
    );
    expect(pinned.map(({ witness, ...rest }) => rest)).toEqual([
      { component: 'syn_protection', ref: 'ssh-off', what: 'filter (disabled) tcp.dstport == 22' },
      { component: 'syn_protection', ref: 'syn_protection.filters[1]', what: 'filter (enabled) ip.dst in {10.0.0.0/8}' },
      { component: 'tcp_flow_protection', ref: 'tcp_flow_protection.filters[0]', what: 'filter (monitoring) tcp.srcport in {1024..65535}' },
    ]);
    expect(pinned[0]!.witness).toMatchObject({ 'ip.proto': 'tcp', 'tcp.dstport': 22, 'ip.dst': '203.0.113.0' });
    expect(pinned[1]!.witness).toBeNull();
    expect(pinned[2]!.witness).toMatchObject({ 'ip.proto': 'tcp', 'ip.dst': '203.0.113.0' });
    expect(pinned[2]!.witness!['tcp.srcport']).toBeGreaterThanOrEqual(1024);
  });

  it("a packet in each rule's scope: a data center's or a region's name, any for a global rule", () => {
    const pinned = pinProtection(
      protectedSnapshot({
        syn_protection: { rules: [{ id: 'everywhere', scope: 'global', name: '', mode: 'enabled' }] },
        tcp_flow_protection: {
          rules: [
            { scope: 'datacenter', name: 'fra02', mode: 'monitoring' },
            { scope: 'region', name: 'WEUR', mode: 'disabled' },
          ],
        },
      }),
    );
    expect(pinned.map(({ witness, ...rest }) => rest)).toEqual([
      { component: 'syn_protection', ref: 'everywhere', what: 'rule (enabled) global' },
      { component: 'tcp_flow_protection', ref: 'tcp_flow_protection.rules[0]', what: 'rule (monitoring) datacenter fra02' },
      { component: 'tcp_flow_protection', ref: 'tcp_flow_protection.rules[1]', what: 'rule (disabled) region WEUR' },
    ]);
    for (const { witness } of pinned) expect(witness).toMatchObject({ 'ip.proto': 'tcp', 'ip.dst': '203.0.113.0' });
    expect(pinned[0]!.witness).toHaveProperty('cf.colo.name');
    expect(pinned[0]!.witness).toHaveProperty('cf.colo.region');
    expect(pinned[1]!.witness!['cf.colo.name']).toBe('fra02');
    expect(pinned[1]!.witness).not.toHaveProperty('cf.colo.region');
    expect(pinned[2]!.witness!['cf.colo.region']).toBe('WEUR');
    expect(pinned[2]!.witness).not.toHaveProperty('cf.colo.name');
  });

  it('a configuration of one component; a filter that does not parse is named by its place', () => {
    const one = pinProtection(protectedSnapshot({ syn_protection: { rules: [{ scope: 'global', name: '', mode: 'enabled' }] } }));
    expect(one.map((p) => p.ref)).toEqual(['syn_protection.rules[0]']);
    expect(() => pinProtection(protectedSnapshot({ tcp_flow_protection: { filters: [{ expression: 'tcp.dstport ==', mode: 'enabled' }] } }))).toThrow(
      expect.objectContaining({ path: 'tcp_flow_protection.filters[0].expression' }),
    );
  });

  it('nothing without a protected prefix', () => {
    expect(pinProtection({ syn_protection: { filters: [{ expression: 'tcp.dstport == 22', mode: 'enabled' }], rules: [{ scope: 'global', name: '', mode: 'enabled' }] } })).toEqual([]);
  });
});
