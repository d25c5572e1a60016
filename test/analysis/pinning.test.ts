// What `edgesim pin` asks of the analysis (src/analysis/pinning.ts), checked against the real
// firewall: each rule's witness is decided (a log rule's matched) by it, or the rule says why not;
// every packet of a pinned space gets its verdict and rule (no rule for the spaces of the default);
// a packet just outside a rule's region is not matched by it; the fallthrough packet is decided by
// no rule; the bounds on a rule's cases hold and what they leave out is said. And pinProtection's
// packet per ATP filter and rule scope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { AnalysisBudget, MAX_CASES_PER_RULE, type PinnedRule, type Pinning, pinFirewall, pinProtection } from '../../src/analysis/index.js';
import { holdsItsHeaders } from '../../src/analysis/witness.js';
import { spaceModel, spaceParts } from '../../src/analysis/prove.js';
import { type RuleSpec, randomSource, replayer, ruleSpecs, samples, snapshotOf } from './replay.js';

const rule = (action: RuleSpec['action'], expression: string, enabled = true): RuleSpec => ({ action, expression, enabled });
/** `n` addresses two apart, the odd last parts after `prefix` (1, 3, 5…; in hex with `hex`), as a list's text */
const oddAddresses = (prefix: string, n: number, hex = false): string => Array.from({ length: n }, (_, i) => `${prefix}${hex ? (2 * i + 1).toString(16) : 2 * i + 1}`).join(' ');
/** three rules whose regions cut each other: SSH's ports, a trusted source's low ttls (skipped), the high ports */
const CUT_RULES: RuleSpec[] = [rule('block', 'tcp.dstport in {22..23}'), rule('skip', 'ip.src in {10.0.0.0/8} and ip.ttl < 10'), rule('block', 'tcp.dstport >= 1024')];
/** a log rule, a rule in part unmodelled (a country pattern), five ttls or-ed (one region of many boxes), NTP, a skipped port range */
const LOG_RULES: RuleSpec[] = [
  rule('log', 'udp.dstport == 53'),
  rule('block', 'udp.dstport == 53 and ip.src.country matches "^U"'),
  rule('block', Array.from({ length: 5 }, (_, i) => `ip.ttl == ${i}`).join(' or ')),
  rule('block', 'udp.dstport == 123'),
  rule('skip', 'udp.dstport in {100..200}'),
];
/** the cases pin writes for a rule: its witness, its spaces, its packets inside and its edges */
const cases = (r: PinnedRule): number => 1 + r.spaces.length + r.inside.length + r.edges.length;

/**
 * pin's answer with the run's whole budget, then with every total of it from 0 to what that run spent
 * (or `runs` totals, evenly apart), each beside the budget it ran under.
 */
function atEveryTotal(snapshot: Snapshot, runs?: number): { whole: Pinning; cut: Array<{ budget: AnalysisBudget; pinning: Pinning }> } {
  const full = new AnalysisBudget();
  const whole = pinFirewall(snapshot, { budget: full });
  const cut: Array<{ budget: AnalysisBudget; pinning: Pinning }> = [];
  for (let total = 0; total <= full.spent; total += runs === undefined ? 1 : Math.ceil(full.spent / runs)) {
    const budget = new AnalysisBudget({ total });
    cut.push({ budget, pinning: pinFirewall(snapshot, { budget }) });
  }
  return { whole, cut };
}

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

  it('pins the packets each rule decides (its region less the earlier rules\') as one space expecting it (a union of its boxes), the rest as spaces expecting no rule, and one packet per edge', () => {
    const pinning = pinFirewall(snapshotOf(CUT_RULES));
    const [ssh, trusted, high] = pinning.rules;
    expect(ssh!.spaces).toEqual([
      {
        space: [
          { 'tcp.dstport': ['22-23'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'tcp' },
          { 'tcp.dstport': ['22-23'], 'ip.src': ['::/0'], 'ip.proto': 'tcp' },
        ],
        verdict: 'drop',
        rule: 'r1',
      },
    ]);
    // the same edge in the IPv6 box is not pinned twice
    expect(ssh!.edges.map((e) => [e.field, e.witness['tcp.dstport']])).toEqual([
      ['tcp.dstport', 21],
      ['tcp.dstport', 24],
    ]);
    // its TCP packets but r1's ports; no transport header: a space says it only with every protocol, which r1 and r3 decide in
    // part, so the union of the four is not proved: the three proved one by one are one case
    expect(trusted!.spaces).toEqual([
      {
        space: [
          { 'ip.src': ['10.0.0.0/8'], 'tcp.dstport': { not: ['22-23'] }, 'ip.ttl': ['0-9'], 'ip.proto': 'tcp' },
          { 'ip.src': ['10.0.0.0/8'], 'ip.ttl': ['0-9'], 'ip.proto': 'udp' },
          { 'ip.src': ['10.0.0.0/8'], 'ip.ttl': ['0-9'], 'ip.proto': 'icmp' },
        ],
        verdict: 'pass',
        rule: 'r2',
      },
    ]);
    expect(trusted!.omitted).toEqual(['1 of the 4 boxes of its decided region not pinned as spaces (1 not proved to be decided by it alone)']);
    // ip.ttl 0 is the field's first value: no packet below it
    expect(trusted!.edges.map((e) => [e.field, e.witness[e.field]])).toEqual([
      ['ip.src', '9.255.255.255'],
      ['ip.src', '11.0.0.0'],
      ['ip.ttl', 10],
    ]);
    // r2's packets are not r3's: every IPv4 source but 10.0.0.0/8, or those with ttl 10 and more
    expect(high!.spaces).toEqual([
      {
        space: [
          { 'ip.src': { not: ['10.0.0.0/8', '::/0'] }, 'tcp.dstport': ['1024-65535'], 'ip.proto': 'tcp' },
          { 'ip.src': ['10.0.0.0/8'], 'tcp.dstport': ['1024-65535'], 'ip.ttl': ['10-255'], 'ip.proto': 'tcp' },
          { 'tcp.dstport': ['1024-65535'], 'ip.src': ['::/0'], 'ip.proto': 'tcp' },
        ],
        verdict: 'drop',
        rule: 'r3',
      },
    ]);
    expect(high!.edges.map((e) => [e.field, e.witness[e.field]])).toEqual([['tcp.dstport', 1023]]);
    expect(pinning.fallthroughSpaces).toHaveLength(1);
    expect(pinning.fallthroughSpaces[0]!.space).toContainEqual({ 'tcp.dstport': ['0-21', '24-1023'], 'ip.src': ['::/0'], 'ip.proto': 'tcp' });
    expect(pinning.fallthroughSpaces.every((s) => s.verdict === 'pass' && s.rule === undefined)).toBe(true);
  });

  it('pins edges of ordered fields only (a protocol number, not a country or sip), never "absent" as a value; each field\'s two ends first, then the edges of each range, within the rule\'s cases', () => {
    const pinned = (expression: string) => pinFirewall(snapshotOf([rule('block', expression)])).rules[0]!;
    const edgesOf = (expression: string) => pinned(expression).edges.map((e) => [e.field, e.witness[e.field]]);
    expect(edgesOf('ip.src.country == "US"')).toEqual([]);
    expect(edgesOf('ip.proto == "gre"').map(([field]) => field)).toEqual(['ip.proto', 'ip.proto']);
    expect(edgesOf('ip.proto == "gre"').map(([, value]) => value)).not.toContain('gre');
    expect(edgesOf('ip.opt.type == 0')).toEqual([['ip.opt.type', 1]]);
    expect(edgesOf('sip')).toEqual([]);
    // 40 addresses apart: a space says the first 16 (of the same size); packets inside the other 24, and just outside: below the
    // first and above the last, then the ends of each range; in turns, as many as the rule's cases leave room for
    const apart = pinned(`ip.src in {${oddAddresses('10.0.0.', 40)}}`);
    // (one space case, a union of the four boxes' parts)
    expect(apart.spaces.map((s) => spaceParts(s.space).map((part) => (part['ip.src'] as string[]).length))).toEqual([[16, 16, 16, 16]]);
    expect(apart.edges.map((e) => e.witness['ip.src'])).toEqual(['10.0.0.0', '10.0.0.80', ...Array.from({ length: 9 }, (_, i) => `10.0.0.${2 * i + 2}`)]);
    expect(apart.inside.map((p) => p.what)).toEqual(Array.from({ length: 11 }, (_, i) => `ip.src 10.0.0.${33 + 2 * i}`));
    expect(cases(apart)).toBe(MAX_CASES_PER_RULE);
    expect(apart.omitted).toEqual([
      '4 boxes of its decided region pinned in part (a space lists at most 16 values of a field, the largest kept, and no absent value or unnamed country)',
      '13 of the 24 packets inside the parts of its region no space pins (at most 24 cases a rule)',
      '23 of the 34 packets just outside its region (at most 24 cases a rule)',
    ]);
    // five comparisons on one field are one box a transport: every edge of it
    expect(edgesOf('ip.ttl == 0 or ip.ttl == 2 or ip.ttl == 4 or ip.ttl == 6 or ip.ttl == 8').map(([, v]) => v)).toEqual([9, 1, 3, 5, 7]);
  });

  it('pins no space of a log rule; of a rule in part unmodelled, the part it certainly decides; a region of many boxes whole, as one space', () => {
    const pinning = pinFirewall(snapshotOf(LOG_RULES));
    const [log, , five, ntp, skip] = pinning.rules;
    expect(log!.witness!['udp.dstport']).toBe(53);
    expect(log!.spaces).toEqual([]);
    // certain for UDP, possible for TCP: its UDP part is pinned
    expect(pinFirewall(snapshotOf([rule('block', 'udp.dstport == 53 or tcp contains "abc"')])).rules[0]!.spaces).toEqual([
      {
        space: [
          { 'udp.dstport': [53], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' },
          { 'udp.dstport': [53], 'ip.src': ['::/0'], 'ip.proto': 'udp' },
        ],
        verdict: 'drop',
        rule: 'r1',
      },
    ]);
    // one box a family and transport, UDP's less r2's port; the two of no transport header are not proved (a space of them names every protocol)
    expect(five!.spaces).toHaveLength(1);
    expect(spaceParts(five!.spaces[0]!.space)).toHaveLength(6);
    expect(spaceParts(five!.spaces[0]!.space)[1]).toEqual({ 'udp.dstport': { not: [53] }, 'ip.ttl': ['0-4'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' });
    expect(five!.omitted).toEqual(['4 of the 10 boxes of its decided region not pinned as spaces (2 a space cannot say; 2 not proved to be decided by it alone)']);
    // r3 decides r4's packets of ttl 0-4 first
    expect(ntp!.spaces).toEqual([
      {
        space: [
          { 'udp.dstport': [123], 'ip.ttl': ['5-255'], 'ip.src': ['0.0.0.0/0'], 'ip.proto': 'udp' },
          { 'udp.dstport': [123], 'ip.ttl': ['5-255'], 'ip.src': ['::/0'], 'ip.proto': 'udp' },
        ],
        verdict: 'drop',
        rule: 'r4',
      },
    ]);
    expect(spaceParts(skip!.spaces[0]!.space).map((part) => part['udp.dstport'])).toEqual([
      ['100-122', '124-200'],
      ['100-122', '124-200'],
    ]);
    // 40 boxes (20 or-ed parts, in IPv4 and IPv6): every one, in one space (before: 12 spaces, 28 boxes left out)
    const wide = pinFirewall(snapshotOf([rule('block', Array.from({ length: 20 }, (_, i) => `(ip.ttl == ${2 * i} and tcp.dstport == ${2 * i})`).join(' or '))])).rules[0]!;
    expect(wide.spaces).toHaveLength(1);
    expect(spaceParts(wide.spaces[0]!.space)).toHaveLength(40);
    expect(wide.omitted.filter((o) => o.includes('boxes of its decided region'))).toEqual([]);
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
        for (const s of pinning.fallthroughSpaces) {
          const { hs, region } = spaceModel(snapshot, s.space);
          for (const w of samples(region, hs.names, randomSource(seed), 5)) expect(replay(w)).toMatchObject({ verdict: 'pass', rule: null });
        }
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

describe('pinning: edges, witnesses and the packets inside a rule (lines 1-239)', () => {
  const v4 = oddAddresses('10.0.0.', 17);

  it('inside a part no space pins: a packet where each later enabled, deciding rule matches too (moved first, that rule decides it), each packet said once', () => {
    const rules = [
      rule('block', `ip.src in {${v4}}`),
      rule('block', 'ip.src == 10.0.0.33', false),
      rule('log', 'ip.src == 10.0.0.33'),
      rule('skip', 'ip.src == 10.0.0.33'),
      // the same packet as r4's: not said again
      rule('block', 'ip.src in {10.0.0.31 10.0.0.33}'),
      rule('block', 'ip.src == 10.0.0.35'),
    ];
    const pinning = pinFirewall(snapshotOf(rules));
    const [r1] = pinning.rules;
    // 10.0.0.33 is the address the space leaves out
    expect(r1!.omitted[0]).toMatch(/^4 boxes of its decided region pinned in part/);
    expect(r1!.inside.map((p) => p.what)).toEqual(['where r4 matches too', 'ip.src 10.0.0.33']);
    const [where, end] = r1!.inside;
    expect(where!.witness['ip.src']).toBe('10.0.0.33');
    expect(replayer(snapshotOf(rules))(where!.witness)).toMatchObject({ verdict: 'drop', rule: 'r1' });
    // r4 moved before r1 decides it (passes it): the case this packet makes fails
    expect(replayer(snapshotOf([rules[3]!, ...rules.slice(0, 3), ...rules.slice(4)]))(where!.witness).verdict).toBe('pass');
    // the first box's packet (TCP's; the region's boxes are TCP, UDP, ICMP, then no transport header)
    expect(end!.witness).toMatchObject({ 'ip.src': '10.0.0.33', 'ip.proto': 'tcp' });
    expect(end!.witness).toHaveProperty('tcp.dstport');
    // the packets no rule decides meet no deciding rule: their packets inside are the ends of their ranges alone
    expect(pinning.fallthroughInside.length).toBeGreaterThan(0);
    for (const p of pinning.fallthroughInside) expect(p.what).toMatch(/^ip\.src /);
    // a rule all of whose boxes spaces pin has no packet inside
    expect(pinFirewall(snapshotOf([rule('block', 'tcp.dstport in {22..23}')])).rules[0]!.inside).toEqual([]);
  });

  it("inside a part no space pins: for each part of the expression that another of its family and transport meets, a packet that part alone matches", () => {
    const expression = `ip.src in {${v4}} or ip.ttl == 64`;
    const [r1] = pinFirewall(snapshotOf([rule('block', expression)])).rules;
    // the 12 parts: the addresses' in IPv4's four transports (TCP, UDP, ICMP, none), then ip.ttl's in both families'
    expect(r1!.inside.map((p) => p.what)).toEqual([...[1, 2, 3, 4].map((k) => `matched by one part of its expression alone (${k} of 12)`), 'ip.src 10.0.0.33']);
    const whole = replayer(snapshotOf([rule('block', expression)]));
    const addresses = replayer(snapshotOf([rule('block', `ip.src in {${v4}}`)]));
    const ttl = replayer(snapshotOf([rule('block', 'ip.ttl == 64')]));
    const alone = r1!.inside.slice(0, 4).map((p) => p.witness);
    for (const w of alone) {
      expect(whole(w).rule).toBe('r1');
      expect(addresses(w).rule).toBe('r1');
      // not a packet the other part matches too (a ttl of 64 is a witness's usual one)
      expect(ttl(w).rule).toBeNull();
    }
    expect(alone.map((w) => [w['ip.proto'], 'tcp.dstport' in w || 'udp.dstport' in w || 'icmp.type' in w])).toEqual([
      ['tcp', true],
      ['udp', true],
      ['icmp', true],
      ['tcp', false],
    ]);
    // parts of different families never meet: no packet for them
    const families = pinFirewall(snapshotOf([rule('block', `ip.src in {${v4}} or ip.dst in {${oddAddresses('2001:db8::', 17, true)}}`)])).rules[0]!;
    expect(families.inside.map((p) => p.what)).toEqual(['ip.src 10.0.0.33', 'ip.dst 2001:db8::21']);
  });

  it('a packet just past each end of every range of a box, none inside the region: past the ends of wide ranges, and where another box holds the value in that field alone', () => {
    const edgesOf = (expression: string) => {
      const snapshot = snapshotOf([rule('block', expression)]);
      const replay = replayer(snapshot);
      const { edges } = pinFirewall(snapshot).rules[0]!;
      for (const { witness } of edges) expect(replay(witness).matched).toEqual([]);
      return edges.map((e) => [e.field, e.witness[e.field]]);
    };
    // each range's two ends, the lower one's packet below it
    expect(edgesOf('ip.src in {10.1.0.0/16 192.0.2.0/24}')).toEqual([
      ['ip.src', '10.0.255.255'],
      ['ip.src', '192.0.3.0'],
      ['ip.src', '10.2.0.0'],
      ['ip.src', '192.0.1.255'],
    ]);
    // ports 79 and 81 are the second box's, but with a ttl of 21 and more: outside the region with the first box's ttl
    expect(edgesOf('(tcp.dstport == 80 and ip.ttl < 10) or (tcp.dstport in {70..90} and ip.ttl > 20)')).toEqual([
      ['tcp.dstport', 69],
      ['tcp.dstport', 91],
      ['tcp.dstport', 79],
      ['tcp.dstport', 81],
      ['ip.ttl', 10],
      ['ip.ttl', 20],
    ]);
  });

  it("the ends of each field's ranges inside a part no space pins: ports as the transport's field, each value once (the first box's packet), no flag; of the first 32 boxes, as are the edges", () => {
    const snapshot = snapshotOf([rule('block', `sip and tcp.dstport in {443 8080} and ip.ttl in {3..5} and ip.src in {${v4}}`)]);
    const [r1] = pinFirewall(snapshot).rules;
    expect(r1!.inside.map((p) => p.what)).toEqual(['ip.src 10.0.0.33', 'tcp.dstport 443', 'tcp.dstport 8080', 'ip.ttl 3', 'ip.ttl 5']);
    const replay = replayer(snapshot);
    for (const { what, witness } of r1!.inside) {
      expect(replay(witness).rule).toBe('r1');
      const [field, value] = what.split(' ');
      expect(String(witness[field!])).toBe(value);
      // the box's packet (the first, its one source) moved in that field alone
      expect({ ...witness, [field!]: r1!.inside[0]!.witness[field!] }).toEqual(r1!.inside[0]!.witness);
    }
    // 40 parts of 17 lengths each (a space pins 16): the first 32 boxes' edges and ends, not the last 8's
    const lengths = Array.from({ length: 17 }, (_, i) => 1001 + 2 * i).join(' ');
    const parts = Array.from({ length: 40 }, (_, i) => `(ip.ttl == ${i} and tcp.dstport == ${i})`).join(' or ');
    const many = pinFirewall(snapshotOf([rule('block', `ip.src in {10.0.0.0/8} and ip.len in {${lengths}} and (${parts})`)])).rules[0]!;
    // just outside: ports and ttls 0 to 32 (33 each), the 18 lengths beside the 17, two sources
    expect(many.omitted).toContain(`${33 + 33 + 18 + 2 - many.edges.length} of the ${33 + 33 + 18 + 2} packets just outside its region (at most ${MAX_CASES_PER_RULE} cases a rule)`);
    // inside: one packet a part (the first 32 parts) alone matches, ports and ttls 0 to 31, the source's two ends, the length left out
    expect(many.omitted).toContain(`${32 + 32 + 32 + 2 + 1 - many.inside.length} of the ${32 + 32 + 32 + 2 + 1} packets inside the parts of its region no space pins (at most ${MAX_CASES_PER_RULE} cases a rule)`);
  });

  it("when the run's work ends before the packets inside are looked for, pin still answers: the packets inside it found, each decided by the rule", () => {
    const snapshot = snapshotOf([rule('block', `ip.src in {${v4}} or ip.ttl == 64`)]);
    const replay = replayer(snapshot);
    let cut = 0;
    for (const { pinning } of atEveryTotal(snapshot, 16).cut) {
      const [r1] = pinning.rules;
      for (const p of r1!.inside) expect(replay(p.witness).rule).toBe('r1');
      // reached, its packets inside found, but not those one part alone matches: the run ended before that search
      if (r1!.why === null && r1!.inside.length > 0 && !r1!.inside.some((p) => p.what.startsWith('matched by one part'))) cut++;
    }
    expect(cut).toBeGreaterThan(0);
  });
});

describe('pinning: the spaces and cases of a firewall, and ATP filters (lines 240 on)', () => {
  const apart = `ip.src in {${oddAddresses('10.0.0.', 40)}}`;

  it('a region of one box is one space, not a union of one; a rule whose region every space pins whole has no packet inside', () => {
    const pinning = pinFirewall(snapshotOf([rule('block', 'ip.src in {10.0.0.0/8} and tcp.dstport == 80')]));
    const [web] = pinning.rules;
    expect(web!.spaces).toEqual([{ space: { 'ip.src': ['10.0.0.0/8'], 'tcp.dstport': [80], 'ip.proto': 'tcp' }, verdict: 'drop', rule: 'r1' }]);
    expect(web!.inside).toEqual([]);
    expect(web!.edges.length).toBeGreaterThan(0);
    expect(web!.omitted).toEqual([]);
    // the packets no rule decides: every box but one, whose space names every protocol, proved; none said twice
    expect(pinning.omitted).toEqual(['1 of the 9 boxes of the packets no rule decides not pinned as spaces (1 not proved to be decided by it alone)']);
  });

  it('a rule with no region (a log rule, one not reached) has no cases beyond its witness and nothing left out', () => {
    const pinning = pinFirewall(snapshotOf([rule('log', 'udp.dstport == 53'), rule('block', 'tcp.dstport == 22'), rule('block', 'tcp.dstport == 22')]));
    const [log, , unreachable] = pinning.rules;
    expect([log!.spaces, log!.inside, log!.omitted]).toEqual([[], [], []]);
    expect(unreachable!.why).toMatch(/^unreachable/);
    expect([unreachable!.spaces, unreachable!.edges, unreachable!.inside, unreachable!.omitted]).toEqual([[], [], [], []]);
  });

  it("a witness whose ip.len cannot hold its headers is replaced by a packet of the rule's region that can (a log rule's stays)", () => {
    const snapshot = snapshotOf([rule('log', 'ip.len < 30'), rule('block', 'ip.len < 30')]);
    const replay = replayer(snapshot);
    const [log, short] = pinFirewall(snapshot).rules;
    // no region of its own to take another from: the first packet of its matches, a TCP one of ip.len 0
    expect(log!.witness).toMatchObject({ 'ip.proto': 'tcp', 'ip.len': 0 });
    expect(holdsItsHeaders(short!.witness!)).toBe(true);
    expect(short!.witness).toMatchObject({ 'ip.proto': 'udp', 'ip.len': 28 });
    expect(replay(short!.witness!).rule).toBe('r2');
  });

  it("a run whose budget ends before any space is proved: the rule's packets inside and outside in turns, still at most MAX_CASES_PER_RULE cases, and why", () => {
    const pinning = pinFirewall(snapshotOf([rule('block', apart)]), { budget: new AnalysisBudget({ total: 0 }) });
    const [r] = pinning.rules;
    expect(r!.spaces).toEqual([]);
    // 23 places, the first (and the 23rd) a packet inside
    expect([r!.inside.length, r!.edges.length]).toEqual([12, 11]);
    expect(cases(r!)).toBe(MAX_CASES_PER_RULE);
    expect(r!.inside.every((p) => typeof p.what === 'string' && p.witness['ip.src'] !== undefined)).toBe(true);
    const limit = 'the analysis reached its work limit for the whole run (0 steps)';
    expect(r!.omitted).toEqual([
      `4 of the 4 boxes of its decided region not pinned as spaces (${limit})`,
      '20 of the 32 packets inside the parts of its region no space pins (at most 24 cases a rule)',
      '23 of the 34 packets just outside its region (at most 24 cases a rule)',
    ]);
    // the packets no rule decides are not built: no fallthrough packet, no space, nothing inside
    expect([pinning.fallthrough, pinning.fallthroughSpaces, pinning.fallthroughInside]).toEqual([null, [], []]);
    expect(pinning.omitted).toEqual([`no space of the packets no rule decides: ${limit}`]);
  });

  it('a decided region that takes more steps to build than a question may: no space of it, and why', () => {
    const pinning = pinFirewall(snapshotOf([rule('block', 'tcp.dstport in {22..23}'), rule('block', 'tcp.dstport == 80')]), { budget: new AnalysisBudget({ perQuestion: 1 }) });
    // each rule's boxes are built (the first rule's region is its meaning, the second's one cut), their proofs are not
    expect(pinning.rules.map((r) => r.omitted)).toEqual([
      ['2 of the 2 boxes of its decided region not pinned as spaces (2 not proved to be decided by it alone)'],
      ['2 of the 2 boxes of its decided region not pinned as spaces (2 not proved to be decided by it alone)'],
    ]);
    expect(pinning.rules.every((r) => r.spaces.length === 0 && r.inside.length > 0)).toBe(true);
    expect(pinning.omitted).toEqual(['no space of the packets no rule decides: it takes more than 256 boxes or 1 step to build']);
    expect(pinFirewall(snapshotOf([rule('block', 'tcp.dstport in {22..23}'), rule('block', 'tcp.dstport == 80')]), { budget: new AnalysisBudget({ perQuestion: 30 }) }).omitted).toEqual([
      'no space of the packets no rule decides: it takes more than 256 boxes or 30 steps to build',
    ]);
  });

  it("whatever the run's budget, a region proved whole is pinned as one space or, when the budget ends in its proof, none, said as the run's limit (never 'not proved')", () => {
    const snapshot = snapshotOf([rule('block', 'ip.len < 30')]);
    const { whole, cut } = atEveryTotal(snapshot);
    expect([whole.rules[0]!.spaces.length, whole.rules[0]!.omitted]).toEqual([1, []]);
    for (const { budget, pinning } of cut) {
      const [r] = pinning.rules;
      if (r!.spaces.length === 1) expect(r!.omitted).toEqual([]);
      else {
        expect([r!.spaces, r!.omitted]).toEqual([[], [`8 of the 8 boxes of its decided region not pinned as spaces (${budget.exhausted})`]]);
        // nor, once the run's budget has ended, the packets no rule decides
        expect(pinning.fallthroughSpaces).toEqual([]);
        expect(pinning.omitted.length).toBeGreaterThan(0);
        for (const o of pinning.omitted) expect(o).toContain(`${budget.exhausted}`);
      }
    }
  });

  it('the packets no rule decides: at most MAX_SPACES boxes proved one by one, one case; a box pinned in part; at most MAX_CASES_PER_RULE packets inside, the rest said', () => {
    const wide = Array.from({ length: 20 }, (_, i) => `(ip.ttl == ${2 * i} and tcp.dstport == ${2 * i})`).join(' or ');
    const pinning = pinFirewall(snapshotOf([rule('block', wide)]));
    expect(pinning.fallthroughSpaces).toHaveLength(1);
    expect(spaceParts(pinning.fallthroughSpaces[0]!.space)).toHaveLength(12);
    expect(pinning.fallthroughInside).toHaveLength(MAX_CASES_PER_RULE);
    expect(pinning.omitted).toEqual([
      '1 box of the packets no rule decides pinned in part (a space lists at most 16 values of a field, the largest kept, and no absent value or unnamed country)',
      '36 of the 48 boxes of the packets no rule decides not pinned as spaces (at most 12 a rule)',
      '39 of the 63 packets inside the parts no space pins of the packets no rule decides (at most 24)',
    ]);
  });
});

describe('pinning: the notes of what no space pins, and the bounds on a region (lines 240 on)', () => {
  it('a region of which exactly two boxes are proved one by one (its union not proved): one case, their union', () => {
    const pinning = pinFirewall(snapshotOf([rule('block', 'tcp.dstport in {22..23}'), rule('block', 'ip.src in {10.0.0.0/8} and ip.ttl < 10 and ip.proto != "udp"'), rule('block', 'tcp.dstport >= 1024')]));
    const [, trusted] = pinning.rules;
    // its TCP and ICMP boxes; the third, of no transport header, is said with every protocol, which r1 and r3 decide in part
    expect(trusted!.spaces).toEqual([
      {
        space: [
          { 'ip.src': ['10.0.0.0/8'], 'tcp.dstport': { not: ['22-23'] }, 'ip.ttl': ['0-9'], 'ip.proto': 'tcp' },
          { 'ip.src': ['10.0.0.0/8'], 'ip.ttl': ['0-9'], 'ip.proto': 'icmp' },
        ],
        verdict: 'drop',
        rule: 'r2',
      },
    ]);
    expect(trusted!.omitted).toEqual(['1 of the 3 boxes of its decided region not pinned as spaces (1 not proved to be decided by it alone)']);
  });

  it("a region of one box not pinned is said in the singular, whatever the run's budget", () => {
    const snapshot = snapshotOf([rule('block', 'ip.src in {10.0.0.0/8} and tcp.dstport == 80')]);
    let unpinned = 0;
    for (const { pinning } of atEveryTotal(snapshot).cut) {
      const [web] = pinning.rules;
      if (web!.why !== null || web!.spaces.length > 0) continue;
      unpinned++;
      // (why: the run's limit, or its proof cut by it)
      expect(web!.omitted).toHaveLength(1);
      expect(web!.omitted[0]).toMatch(/^1 of the 1 box of its decided region not pinned as spaces \(.+\)$/);
    }
    expect(unpinned).toBeGreaterThan(0);
  });

  it('a decided region of more than 256 boxes, built within its question, is not pinned, and pin says why', () => {
    // 44 or-ed parts of four fields each, one box a family (the rule's region, pinned as one space): the packets no rule decides,
    // the rest, take more than 256 boxes, built well within a question of 100,000 steps
    const stairs = Array.from({ length: 44 }, (_, i) => `(ip.ttl==${i} and ip.len==${i} and tcp.dstport==${i} and tcp.srcport==${i})`).join(' or ');
    const pinning = pinFirewall(snapshotOf([rule('block', stairs)]), { budget: new AnalysisBudget({ perQuestion: 100_000 }) });
    expect(pinning.rules[0]!.spaces).toHaveLength(1);
    expect([pinning.fallthroughSpaces, pinning.fallthroughInside]).toEqual([[], []]);
    expect(pinning.omitted).toEqual(['no space of the packets no rule decides: it takes more than 256 boxes or 100,000 steps to build']);
  });

  it('a region proved whole less the boxes a space cannot say counts those boxes alone', () => {
    // the packets no rule decides (every TCP packet, the rest of ttl 5 and more): 8 boxes, 2 of them no space can say, the other 6
    // proved as one union
    const pinning = pinFirewall(snapshotOf([rule('block', 'ip.ttl < 5 and ip.proto != "tcp"')]));
    expect(pinning.fallthroughSpaces).toHaveLength(1);
    expect(spaceParts(pinning.fallthroughSpaces[0]!.space)).toHaveLength(6);
    expect(pinning.omitted).toEqual(['2 of the 8 boxes of the packets no rule decides not pinned as spaces (2 a space cannot say)']);
  });

  it("the replacement of a witness whose ip.len cannot hold its headers is looked for in the region's first 32 boxes only", () => {
    // 32 TCP boxes (16 a family) of ip.len below 40 (no room for the headers), then an IPv6 UDP box whose packets from ip.len 48 have room
    const tcp = Array.from({ length: 16 }, (_, i) => `(tcp.dstport==${i} and ip.ttl==${i})`).join(' or ');
    const [r] = pinFirewall(snapshotOf([rule('block', `(ip.len < 40 and (${tcp})) or (ip.src in {::/0} and udp.dstport == 0 and ip.len < 60)`)])).rules;
    expect(r!.witness).toMatchObject({ 'ip.proto': 'tcp', 'ip.len': 0 });
    expect(holdsItsHeaders(r!.witness!)).toBe(false);
  });

  it("whatever the run's budget, the run's limit is named for a region only when some of its boxes were left untried", () => {
    const t = (i: number): string => `(ip.ttl==${i} and ip.len==${i})`;
    // r2: proved whole but the box a space cannot say; r4: three boxes pinned one by one, the fourth (said with every protocol) not
    // proved; r5: 16 boxes, at most 12 pinned, proved after both
    const snapshot = snapshotOf([
      rule('skip', 'ip.src in {11.0.0.0/8} and ip.ttl < 5 and ip.proto != "tcp"'),
      rule('block', 'ip.src in {11.0.0.0/8} and ip.ttl < 10 and ip.proto != "udp"'),
      rule('block', 'tcp.dstport in {22..23}'),
      rule('block', 'ip.src in {10.0.0.0/8} and ip.ttl < 10'),
      rule('block', `ip.src in {10.0.0.0/8} and (${[t(21), t(23), t(25), t(27)].join(' or ')})`),
    ]);
    const { whole, cut } = atEveryTotal(snapshot, 256);
    expect(whole.rules.map((r) => r.omitted[0])).toEqual([
      undefined,
      '1 of the 3 boxes of its decided region not pinned as spaces (1 a space cannot say)',
      undefined,
      '1 of the 4 boxes of its decided region not pinned as spaces (1 not proved to be decided by it alone)',
      '4 of the 16 boxes of its decided region not pinned as spaces (at most 12 a rule)',
    ]);
    let after = 0;
    for (const { budget, pinning } of cut) {
      const notes = [...pinning.rules.flatMap((r) => r.omitted), ...pinning.omitted];
      let tried = false;
      for (const note of notes) {
        const m = /^(\d+) of the \d+ box(?:es)? of .* not pinned as spaces \((.*)\)$/.exec(note);
        if (m === null) continue;
        const said = m[2]!.split('; ');
        const counted = said.map((s) => /^(\d+) (?:a space cannot say|not proved to be decided by it alone)$/.exec(s)).reduce((n, c) => n + (c === null ? 0 : Number(c[1])), 0);
        if (counted < Number(m[1])) continue;
        // every box left is one a space cannot say or not proved: no limit, no bound named
        tried = true;
        expect(said.every((s) => !s.includes('work limit') && !s.startsWith('at most'))).toBe(true);
      }
      // a region tried to the end, the run's budget ending later in another's proofs
      if (tried && budget.exhausted !== null && notes.some((o) => o.includes(budget.exhausted!))) after++;
    }
    expect(after).toBeGreaterThan(0);
  });
});

describe("pinning: the run's budget ending between two of pin's questions, and the packets pin picks (lines 240 on)", () => {
  it("a run whose budget ends in building the packets no rule decides tries no space: a rule's box is said left to the run's limit, never 'not proved'", () => {
    const snapshot = snapshotOf([rule('block', 'ip.src in {10.0.0.0/8} and tcp.dstport == 80')]);
    let building = 0;
    for (const { budget, pinning } of atEveryTotal(snapshot).cut) {
      // the rule's region is built before the rest's, and every space is proved after both
      if (budget.exhausted === null || !pinning.omitted.includes(`no space of the packets no rule decides: ${budget.exhausted}`)) continue;
      building++;
      expect(pinning.rules[0]!.spaces).toEqual([]);
      expect(pinning.rules[0]!.omitted).toEqual([`1 of the 1 box of its decided region not pinned as spaces (${budget.exhausted})`]);
    }
    expect(building).toBeGreaterThan(0);
  });

  it("a box said 'not proved' stays so in every longer run: the box whose proof the run's end cut, and those never reached, are left to its limit", () => {
    // how many boxes a decision's notes say not proved
    const notProved = (said: readonly string[]): number => said.reduce((n, s) => n + Number(/[(;] ?(\d+) not proved to be decided by it alone/.exec(s)?.[1] ?? 0), 0);
    const counts = (p: Pinning): number[] => [notProved(p.omitted), ...p.rules.map((r) => notProved(r.omitted))];
    let saidBeforeTheEnd = 0;
    // LOG_RULES: two boxes of the packets no rule decides (and of the ttl rule's) no space proves
    for (const rules of [LOG_RULES, CUT_RULES]) {
      const { whole, cut } = atEveryTotal(snapshotOf(rules));
      const wholeSaid = counts(whole);
      // the boxes of a region are tried in order, each proof the same question whatever the total: a longer
      // run has tried those a shorter one did, with the same results, so it says at least as many not proved
      const runs = [...cut.map(({ budget, pinning }) => ({ total: budget.total, said: counts(pinning) })), { total: Infinity, said: wholeSaid }];
      for (const [a, b] of runs.slice(1).map((r, i) => [runs[i]!, r] as const)) {
        a.said.forEach((n, i) => expect(n, `decision ${i}: ${a.total} steps, then ${b.total}`).toBeLessThanOrEqual(b.said[i]!));
        if (a.said.some((n, i) => n > 0 && n < wholeSaid[i]!)) saidBeforeTheEnd++;
      }
    }
    // some totals end the run after a box was said not proved and before the others were
    expect(saidBeforeTheEnd).toBeGreaterThan(0);
  });

  it("whatever the run's budget, a region of two boxes whose union holds is pinned as that one space or not at all, never one box of it", () => {
    const snapshot = snapshotOf([rule('block', 'tcp.dstport in {22..23}')]);
    const { whole, cut } = atEveryTotal(snapshot);
    // its IPv4 and IPv6 boxes
    expect(whole.rules[0]!.spaces.map((s) => spaceParts(s.space).length)).toEqual([2]);
    for (const { budget, pinning } of cut) {
      const [r] = pinning.rules;
      if (r!.why !== null) continue;
      if (r!.spaces.length > 0) expect([r!.spaces.map((s) => spaceParts(s.space).length), r!.omitted]).toEqual([[2], []]);
      else expect(r!.omitted).toEqual([`2 of the 2 boxes of its decided region not pinned as spaces (${budget.exhausted})`]);
    }
  });

  it("a witness that holds its headers is the rule's first packet, kept (not replaced by another of its region)", () => {
    // it matches the packets of every protocol but ESP, TCP, UDP, GRE and ICMP: its first, IPv4's hopopt (protocol 0), has no
    // transport header to make room for
    const snapshot = snapshotOf([rule('block', 'ip.proto == "hopopt" or not ip.proto in {"esp" "tcp" "udp" "gre" "icmp"}')]);
    const [r] = pinFirewall(snapshot).rules;
    expect(r!.witness).toMatchObject({ 'ip.proto': 'hopopt', 'ip.src': expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    expect(holdsItsHeaders(r!.witness!)).toBe(true);
    expect(replayer(snapshot)(r!.witness!).rule).toBe('r1');
  });

  it('the edges of a rule of more than 256 boxes are those of its first 256: a part after them adds none, even one beside the first', () => {
    // 33 parts of 8 boxes each (each family's four transports), then one that differs from the first in ip.len alone
    const parts = Array.from({ length: 33 }, (_, i) => `(ip.ttl==${i} and ip.len==${i})`);
    const snapshot = snapshotOf([rule('block', `${parts.join(' or ')} or (ip.ttl==0 and ip.len==999)`)]);
    const [r] = pinFirewall(snapshot, { budget: new AnalysisBudget({ perQuestion: 1_000_000 }) }).rules;
    expect(r!.why).toBeNull();
    const replay = replayer(snapshot);
    for (const { witness } of r!.edges) expect(replay(witness).matched).toEqual([]);
    expect(r!.edges.map((e) => e.field)).toContain('ip.len');
    // the lengths beside 999 are edges of the whole region, not of its first 256 boxes
    expect(r!.edges.map((e) => e.witness['ip.len'])).not.toContain(998);
    expect(r!.edges.map((e) => e.witness['ip.len'])).not.toContain(1000);
    expect(r!.omitted.filter((o) => o.includes('just outside'))).toEqual([]);
  });
});
