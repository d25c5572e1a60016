// `edgesim test --coverage` counted in process: suites of random packet cases over the demo
// configuration, whose coverage a naive model states (each demo rule and each of its conditions
// written out by hand as a predicate over a plain packet, walked in order, first terminating match
// deciding); adding a case never lowers coverage; space: cases count for the rules their region
// reaches; disabled, unreachable and unmatchable rules are apart and counted in no total.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunCoverage, type CoverageReport } from '../../src/suite/coverage.js';
import { loadSuite } from '../../src/suite/load.js';
import { runSuites } from '../../src/suite/run.js';
import type { Suite } from '../../src/suite/suite.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO_CONFIG, writeSuite } from './helpers.js';

interface Packet {
  src: string;
  dst: string;
  proto: 'tcp' | 'udp' | 'icmp';
  port: number;
  country?: string;
}

function v4(text: string): number {
  return text.split('.').reduce((n, b) => n * 256 + Number(b), 0);
}

function inCidrs(ip: string, cidrs: readonly string[]): boolean {
  return cidrs.some((c) => {
    const [net, len = '32'] = c.split('/');
    if (net!.includes(':')) return false;
    const size = 2 ** (32 - Number(len));
    return Math.floor(v4(ip) / size) === Math.floor(v4(net!) / size);
  });
}

const BOTNET = readFileSync(path.join(ROOT, 'datasets/lists/svc.botnetcc.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

const tcp = (p: Packet): number | undefined => (p.proto === 'tcp' ? p.port : undefined);
const udp = (p: Packet): number | undefined => (p.proto === 'udp' ? p.port : undefined);
const icmp = (p: Packet): number | undefined => (p.proto === 'icmp' ? p.port : undefined);
const resolver = (p: Packet): boolean => p.dst === '198.51.100.53';
const office = (p: Packet): boolean => inCidrs(p.src, ['10.0.0.0/8', '192.168.0.0/16']);
const webServers = (p: Packet): boolean => inCidrs(p.dst, ['203.0.113.0/24']);
const webPort = (p: Packet): boolean => tcp(p) === 80 || tcp(p) === 443;
const sshPorts = (p: Packet): boolean => [22, 80, 443].includes(tcp(p) ?? -1);

interface ModelRule {
  ref: string;
  action: 'block' | 'skip' | 'log';
  enabled?: false;
  matches: (p: Packet) => boolean;
  /** each operand of and/or/not, outermost first, left to right */
  conditions: Array<(p: Packet) => boolean>;
}

/** examples/demo-snapshot.json's firewall, by hand. */
const DEMO: ModelRule[] = [
  { ref: 'allow-partners', action: 'skip', matches: (p) => inCidrs(p.src, ['192.0.2.0/24']), conditions: [] },
  { ref: 'block-botnet-cc', action: 'block', matches: (p) => inCidrs(p.src, BOTNET), conditions: [] },
  { ref: 'log-icmp-echo', action: 'log', matches: (p) => p.proto === 'icmp' && icmp(p) === 8, conditions: [(p) => p.proto === 'icmp', (p) => icmp(p) === 8] },
  { ref: 'block-telnet', action: 'block', matches: (p) => tcp(p) === 23 || tcp(p) === 2323, conditions: [] },
  { ref: 'dns-only-to-resolver', action: 'block', matches: (p) => udp(p) === 53 && !resolver(p), conditions: [(p) => udp(p) === 53, (p) => !resolver(p), resolver] },
  { ref: 'geo-block', action: 'block', matches: (p) => p.country === 'KP' || p.country === 'IR', conditions: [] },
  { ref: 'allow-web', action: 'skip', matches: (p) => webServers(p) && webPort(p), conditions: [webServers, webPort] },
  { ref: 'ssh-from-office', action: 'block', matches: (p) => tcp(p) === 22 && !office(p), conditions: [(p) => tcp(p) === 22, (p) => !office(p), office] },
  { ref: 'block-fragments', action: 'block', enabled: false, matches: () => false, conditions: [() => false, () => false] },
  {
    ref: 'block-other-tcp',
    action: 'block',
    matches: (p) => p.proto === 'tcp' && webServers(p) && !sshPorts(p),
    conditions: [(p) => p.proto === 'tcp', webServers, (p) => !sshPorts(p), sshPorts],
  },
];

interface ModelCoverage {
  verdicts: Array<'pass' | 'drop'>;
  rules: Map<string, { reached: number; matched: number; decided: number; conditions: Array<{ true: boolean; false: boolean }> }>;
}

function model(packets: readonly Packet[]): ModelCoverage {
  const rules = new Map(DEMO.map((r) => [r.ref, { reached: 0, matched: 0, decided: 0, conditions: r.conditions.map(() => ({ true: false, false: false })) }]));
  const verdicts = packets.map((p): 'pass' | 'drop' => {
    for (const rule of DEMO) {
      if (rule.enabled === false) continue;
      const counts = rules.get(rule.ref)!;
      counts.reached++;
      rule.conditions.forEach((c, i) => {
        counts.conditions[i]![c(p) ? 'true' : 'false'] = true;
      });
      if (!rule.matches(p)) continue;
      counts.matched++;
      if (rule.action === 'log') continue;
      counts.decided++;
      return rule.action === 'block' ? 'drop' : 'pass';
    }
    return 'pass';
  });
  return { verdicts, rules };
}

const packetArb: fc.Arbitrary<Packet> = fc.record(
  {
    src: fc.constantFrom('192.0.2.10', '198.51.100.130', '10.1.2.3', '192.168.7.7', '198.51.100.7'),
    dst: fc.constantFrom('203.0.113.5', '198.51.100.53', '198.51.100.99'),
    proto: fc.constantFrom('tcp', 'udp', 'icmp'),
    port: fc.constantFrom(0, 8, 22, 23, 53, 80, 443, 2323),
    country: fc.constantFrom('KP', 'US'),
  },
  { requiredKeys: ['src', 'dst', 'proto', 'port'] },
).map((p) => (p.proto === 'icmp' ? { ...p, port: p.port === 8 ? 8 : 0 } : p));

function caseYaml(p: Packet, i: number, verdict: string): string {
  const transport = p.proto === 'tcp' ? `tcp.dstport: ${p.port}` : p.proto === 'udp' ? `udp.dstport: ${p.port}` : `ip.proto: icmp, icmp.type: ${p.port}`;
  const country = p.country === undefined ? '' : `, ip.src.country: ${p.country}`;
  return `  - name: case ${i}\n    packet: {ip.src: ${p.src}, ip.dst: ${p.dst}, ${transport}${country}}\n    expect: {verdict: ${verdict}, stage: ${verdict === 'drop' ? 'firewall' : 'null'}}\n`;
}

async function demoSuite(packets: readonly Packet[], extra = ''): Promise<Suite> {
  const verdicts = model(packets).verdicts;
  return loadSuite(writeSuite(`config: ${DEMO_CONFIG}\ncases:\n${packets.map((p, i) => caseYaml(p, i, verdicts[i]!)).join('')}${extra}`));
}

/** The coverage of running `suite`; every case must pass unless `failing` says they may fail (coverage counts them all the same). */
async function coverageOf(suite: Suite, failing = false): Promise<CoverageReport> {
  const coverage = new RunCoverage();
  const results = await runSuites([suite], { coverage });
  if (!failing) expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.name}: ${r.message}`)).toEqual([]);
  return coverage.report();
}

/** space: cases over the demo's addresses and ports, expecting a drop (true of some, not all) */
const spaceCaseArb = fc
  .record({ dst: fc.subarray(['203.0.113.0/28', '198.51.100.53', '198.51.100.0/25'], { minLength: 1 }), port: fc.subarray([22, 23, 53, 80, 443], { minLength: 1 }), proto: fc.constantFrom('tcp', 'udp') })
  .map(({ dst, port, proto }) => `  - name: space ${dst.join(' ')} ${proto} ${port.join(' ')}\n    space: {ip.dst: [${dst.join(', ')}], ${proto}.dstport: [${port.join(', ')}]}\n    expect: {verdict: drop}\n`);

describe('test --coverage', () => {
  it('over the demo configuration, counts what a naive model of its rules says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(packetArb, { minLength: 1, maxLength: 12 }), async (packets) => {
        const report = await coverageOf(await demoSuite(packets));
        const want = model(packets);
        for (const r of report.details) {
          const m = want.rules.get(r.rule)!;
          expect({ rule: r.rule, reached: r.reached, matched: r.matched, decided: r.decided, conditions: r.conditions.map((c) => ({ true: c.true, false: c.false })) }).toEqual({
            rule: r.rule,
            ...m,
          });
        }
        const counted = DEMO.filter((r) => r.enabled !== false);
        const uncovered = counted.filter((r) => want.rules.get(r.ref)!.matched === 0).map((r) => r.ref);
        const conditions = counted.flatMap((r) => want.rules.get(r.ref)!.conditions);
        expect(report.rules).toEqual({ covered: counted.length - uncovered.length, total: counted.length, uncovered });
        expect(report.conditions).toEqual({ covered: conditions.filter((c) => c.true && c.false).length, total: conditions.length });
        expect(report.excluded).toEqual([{ rule: 'block-fragments', ruleset: 'demo edge_transit', why: 'disabled' }]);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('adding a case never lowers coverage', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(packetArb, { minLength: 1, maxLength: 8 }), fc.uniqueArray(spaceCaseArb, { maxLength: 3 }), fc.nat(), async (packets, spaces, at) => {
        const suite = await demoSuite(packets, spaces.join(''));
        const added = at % suite.cases.length;
        const before = await coverageOf({ ...suite, cases: suite.cases.filter((_, i) => i !== added) }, true);
        const after = await coverageOf(suite, true);
        expect(after.rules.covered).toBeGreaterThanOrEqual(before.rules.covered);
        expect(after.conditions.covered).toBeGreaterThanOrEqual(before.conditions.covered);
        expect(before.rules.uncovered).toEqual(expect.arrayContaining(after.rules.uncovered));
        after.details.forEach((r, i) =>
          r.conditions.forEach((c, k) => {
            const was = before.details[i]!.conditions[k]!;
            expect(c.true || !was.true).toBe(true);
            expect(c.false || !was.false).toBe(true);
          }),
        );
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('a space: case counts for every rule its region reaches, and for no condition', async () => {
    const report = await coverageOf(
      await demoSuite(
        [],
        `  - name: telnet is closed
    space: {ip.src: [203.0.113.0/24], ip.proto: tcp, tcp.dstport: [23]}
    expect: {verdict: drop, rule: block-telnet}
`,
      ),
    );
    expect(report.details.filter((r) => r.matched > 0).map((r) => [r.rule, r.decided, r.spaces])).toEqual([['block-telnet', 1, 1]]);
    expect(report.conditions.covered).toBe(0);
  }, 60_000);

  it('a space reaching earlier rules counts them too, log rules as matched only', async () => {
    const report = await coverageOf(
      await demoSuite(
        [],
        `  - name: pings from the partners and beyond
    space: {ip.src: [192.0.2.0/24, 198.51.100.0/26], ip.src.country: [US], ip.proto: icmp, icmp.type: [8]}
    expect: {verdict: pass}
`,
      ),
    );
    expect(report.details.filter((r) => r.matched > 0).map((r) => [r.rule, r.decided, r.status])).toEqual([
      ['allow-partners', 1, 'decided'],
      ['log-icmp-echo', 0, 'matched'],
    ]);
  }, 60_000);

  it('disabled, unreachable and unmatchable rules are apart and counted in no total', async () => {
    const config = {
      rulesets: [
        {
          name: 'edge',
          phase: 'edge_transit',
          kind: 'root',
          rules: [
            { ref: 'block-ssh', action: 'block', expression: 'tcp.dstport == 22' },
            { ref: 'shadowed', action: 'block', expression: 'tcp.dstport == 22 and ip.src in {10.0.0.0/8}' },
            { ref: 'never', action: 'block', expression: 'tcp.dstport == 80 and udp.dstport == 53' },
            { ref: 'off', action: 'block', enabled: false, expression: 'ip.ttl < 2 or ip.len > 1400' },
            { ref: 'block-dns', action: 'block', expression: 'udp.dstport == 53 and not ip.dst in {198.51.100.53}' },
          ],
        },
      ],
    };
    const file = writeSuite(`config: ${JSON.stringify(config)}\ncases:\n  - name: ssh\n    packet: {tcp.dstport: 22}\n    expect: {verdict: drop, rule: block-ssh}\n`);
    const report = await coverageOf(await loadSuite(file));
    expect(report.excluded.map((e) => [e.rule, e.why])).toEqual([
      ['shadowed', 'unreachable'],
      ['never', 'unmatchable'],
      ['off', 'disabled'],
    ]);
    expect(report.rules).toEqual({ covered: 1, total: 2, uncovered: ['block-dns'] });
    expect(report.details.map((r) => [r.rule, r.status])).toEqual([
      ['block-ssh', 'decided'],
      ['shadowed', 'never reached'],
      ['never', 'never reached'],
      ['off', 'never reached'],
      ['block-dns', 'never reached'],
    ]);
    expect(report.conditions).toEqual({ covered: 0, total: 3 });
    expect(report.rulesets).toEqual([{ ruleset: 'edge', rules: { covered: 1, total: 2 }, conditions: { covered: 0, total: 3 } }]);
  }, 60_000);

  it('suites of one configuration add up to one coverage', async () => {
    const coverage = new RunCoverage();
    const one = await demoSuite([{ src: '198.51.100.7', dst: '203.0.113.5', proto: 'tcp', port: 23 }]);
    const two = await demoSuite([{ src: '198.51.100.7', dst: '198.51.100.99', proto: 'udp', port: 53 }]);
    await runSuites([one, two], { coverage });
    const report = coverage.report();
    expect(report.rules.total).toBe(9);
    expect(report.details.filter((r) => r.decided > 0).map((r) => r.rule)).toEqual(['block-telnet', 'dns-only-to-resolver']);
  }, 60_000);
});
