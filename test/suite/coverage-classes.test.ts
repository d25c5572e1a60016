// Condition coverage counted once per class of packets the rules cannot tell apart
// (src/suite/condition-classes.ts, used by coverage.ts): over random rulesets (comparisons of every
// kind the firewall has: ports, prefixes of both families, lists, protocols, flags and bitwise
// masks, countries, data centers, sip, byte strings, regular expressions) and random packets, it
// counts exactly what evaluating every condition of every reached rule for every packet counts
// (the reference, written here as coverage.ts did it before classes); and a packet of a class
// already counted evaluates no condition: a capture counted twice costs no condition the second
// time (before classes it cost every uncovered condition of every rule each packet reached).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { witnessRecord, type Witness } from '../../src/analysis/index.js';
import { COLO_NAMES } from '../../src/data/colos.js';
import { Has, type PacketRecord } from '../../src/capture/record.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { recordBinding } from '../../src/fields/binding.js';
import { ConditionProbe } from '../../src/lang/index.js';
import { decideRecord } from '../../src/sim/decide-frame.js';
import { Lane } from '../../src/sim/lane.js';
import { Run } from '../../src/sim/run.js';
import type { PacketVerdict } from '../../src/sim/verdict.js';
import { SuitePaths } from '../../src/suite/case-path.js';
import { ConfigurationCoverage, RunCoverage } from '../../src/suite/coverage.js';
import { loadSuite } from '../../src/suite/load.js';
import { runSuites } from '../../src/suite/run.js';
import { prefixPortTerms } from '../../bench/analysis-shapes.js';
import { ruleSpecs, snapshotOf } from '../analysis/replay.js';
import { BIN } from '../helpers/cli.js';
import { tempDir, writeSuite } from './helpers.js';

/** What coverage.ts counted before classes: every uncovered condition of every reached rule, for every packet. */
class Reference {
  readonly reached: number[];
  readonly matched: number[];
  readonly decided: number[];
  readonly conditions: Array<Array<{ true: boolean; false: boolean }>>;
  private readonly probes: Array<ConditionProbe<PacketRecord>>;

  constructor(private readonly paths: SuitePaths) {
    const fw = paths.firewall;
    this.probes = fw.syntax.map((ast) => new ConditionProbe(ast, recordBinding, { lists: paths.path.lists }));
    this.reached = fw.rules.map(() => 0);
    this.matched = fw.rules.map(() => 0);
    this.decided = fw.rules.map(() => 0);
    this.conditions = this.probes.map((p) => p.texts.map(() => ({ true: false, false: false })));
  }

  packet(rec: PacketRecord, v: PacketVerdict): void {
    if ((rec.present & Has.IP) === 0 || (v.stage !== null && v.stage !== 'firewall')) return;
    const rules = this.paths.firewall.rules;
    const last = v.firewall.decidingRule < 0 ? rules.length - 1 : v.firewall.decidingRule;
    for (let i = 0; i <= last; i++) {
      if (!rules[i]!.enabled) continue;
      this.reached[i]!++;
      this.conditions[i]!.forEach((c, k) => {
        const seen = this.probes[i]!.condition(k, rec);
        c.true ||= seen.isTrue;
        c.false ||= seen.isFalse;
      });
    }
    for (let k = 0; k < v.firewall.matchedCount; k++) this.matched[v.firewall.matched[k]!]!++;
    if (v.firewall.decidingRule >= 0) this.decided[v.firewall.decidingRule]!++;
  }
}

const SOURCES = ['10.0.0.1', '10.1.2.3', '10.1.200.1', '192.0.2.5', '198.51.100.7', '203.0.113.9', '2001:db8::1', '2001:db8::7', '2001:db8:1::9'];
const DESTINATIONS = ['192.0.2.1', '203.0.113.10', '198.51.100.1', '2001:db8::2', '2001:db8:2::2'];
const PORTS = [0, 22, 53, 80, 123, 443, 1023, 1024, 5000, 65535];

/** A packet as witnesses write them: a transport, addresses of one family, ports and flags, TTL, length, countries, data center, payload markers. */
const packetArb: fc.Arbitrary<Witness> = fc
  .record({
    v6: fc.boolean(),
    src: fc.nat(100),
    dst: fc.nat(100),
    proto: fc.constantFrom('tcp', 'udp', 'icmp', 'gre'),
    sport: fc.constantFrom(...PORTS),
    dport: fc.constantFrom(...PORTS),
    flags: fc.constantFrom(0x02, 0x12, 0x10, 0x11, 0x04, 0x18),
    icmpType: fc.constantFrom(0, 3, 8, 11),
    ttl: fc.constantFrom(1, 9, 10, 64, 255),
    len: fc.constantFrom(60, 1000, 1001, 1400),
    country: fc.constantFrom('US', 'CN', 'UA', 'DE', undefined),
    colo: fc.constantFrom('sfo06', 'fra02', 'lhr01'),
    sip: fc.boolean(),
  })
  .map((p) => {
    const family = SOURCES.filter((a) => a.includes(':') === p.v6);
    const targets = DESTINATIONS.filter((a) => a.includes(':') === p.v6);
    const w: Witness = { 'ip.src': family[p.src % family.length]!, 'ip.dst': targets[p.dst % targets.length]!, 'ip.proto': p.proto === 'icmp' && p.v6 ? 'ipv6-icmp' : p.proto, 'ip.ttl': p.ttl, 'ip.len': p.len, 'cf.colo.name': p.colo, sip: p.sip };
    if (!p.v6) w['ip.hdr_len'] = 5;
    if (p.country !== undefined) w['ip.src.country'] = p.country;
    if (p.proto === 'tcp') Object.assign(w, { 'tcp.srcport': p.sport, 'tcp.dstport': p.dport, 'tcp.flags': p.flags });
    if (p.proto === 'udp') Object.assign(w, { 'udp.srcport': p.sport, 'udp.dstport': p.dport });
    if (p.proto === 'icmp') Object.assign(w, { 'icmp.type': p.icmpType, 'icmp.code': 0 });
    return w;
  });

/** Decides `packets` on the suite's path and counts each, classed and not. */
async function counted(snapshot: Snapshot, packets: readonly Witness[]): Promise<{ classed: ConfigurationCoverage; reference: Reference }> {
  const paths = await SuitePaths.open(snapshot, {});
  const classed = new ConfigurationCoverage(paths);
  const reference = new Reference(paths);
  for (const w of packets) {
    const rec = witnessRecord(w);
    // decided on the decoder's lane, as a suite's packet case decides
    const run = new Run(paths.path, { record: true });
    const v = decideRecord(rec, paths.path, run);
    v.lane = Lane.DECODER;
    classed.packet(v, rec);
    reference.packet(rec, v);
  }
  return { classed, reference };
}

describe('condition coverage by class', () => {
  it('counts what evaluating every condition of every packet counts, over random rulesets and packets', async () => {
    let seenBothWays = 0;
    await fc.assert(
      fc.asyncProperty(ruleSpecs, fc.array(packetArb, { minLength: 1, maxLength: 40 }), async (rules, packets) => {
        // each packet twice, some classes many times
        const { classed, reference } = await counted(snapshotOf(rules), [...packets, ...packets]);
        const details = classed.details();
        details.forEach((d, i) => {
          expect({ reached: d.reached, matched: d.matched, decided: d.decided, conditions: d.conditions.map((c) => ({ true: c.true, false: c.false })) }).toEqual({
            reached: reference.reached[i],
            matched: reference.matched[i],
            decided: reference.decided[i],
            conditions: reference.conditions[i],
          });
          seenBothWays += d.conditions.filter((c) => c.true && c.false).length;
        });
      }),
      { numRuns: 150 },
    );
    expect(seenBothWays).toBeGreaterThan(100);
  }, 120_000);

  it('counts the same where a class does not fit a number (more comparisons than a double has bits)', async () => {
    const colos = COLO_NAMES.slice(0, 60);
    const snapshot = snapshotOf(colos.map((c, i) => ({ action: i % 2 === 0 ? ('block' as const) : ('log' as const), expression: `cf.colo.name == "${c}" and tcp.dstport != ${i}`, enabled: true })));
    const packets = colos.flatMap((c, i) => [0, 1, i].map((port): Witness => ({ 'ip.src': '192.0.2.1', 'ip.dst': '203.0.113.10', 'ip.proto': 'tcp', 'ip.ttl': 64, 'ip.len': 60, 'ip.hdr_len': 5, 'tcp.srcport': 40000, 'tcp.dstport': port, 'tcp.flags': 2, 'cf.colo.name': c, sip: false })));
    const { classed, reference } = await counted(snapshot, [...packets, ...packets]);
    const details = classed.details();
    expect(details.map((d) => d.conditions.map((c) => [c.true, c.false]))).toEqual(reference.conditions.map((r) => r.map((c) => [c.true, c.false])));
    expect(details.map((d) => [d.reached, d.matched, d.decided])).toEqual(reference.reached.map((r, i) => [r, reference.matched[i], reference.decided[i]]));
    expect(details.some((d) => d.conditions.some((c) => c.true && c.false))).toBe(true);
  });
});

describe('a class already counted evaluates no condition', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a capture counted twice evaluates conditions only the first time, and on the first time at most once a class', async () => {
    const dir = tempDir();
    const capture = path.join(dir, 'mixed.pcap');
    execFileSync(process.execPath, [BIN, 'synth', 'mixed', '--packets', '2000', '--out', capture, '--no-labels'], { stdio: 'ignore' });
    const config = path.join(dir, 'config.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(config, JSON.stringify(prefixPortTerms(20)));
    const suite = await loadSuite(writeSuite(`config: ${config}\ncases:\n  - name: once\n    capture: ${capture}\n    expect: {totals: {packets: 2000}}\n  - name: again\n    capture: ${capture}\n    expect: {totals: {packets: 2000}}\n`, 'suite.yaml', dir));
    const calls: number[] = [];
    const spy = vi.spyOn(ConditionProbe.prototype, 'condition');
    const coverage = new RunCoverage();
    const results = await runSuites([suite], { coverage, onCase: () => calls.push(spy.mock.calls.length) });
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed']);
    const conditions = coverage.report().conditions.total;
    expect(conditions).toBe(20 * 78);
    // the first replay: some classes, each evaluating at most every condition once (2,000 packets each reaching every rule would be 3.1 million)
    expect(calls[0]!).toBeGreaterThan(0);
    expect(calls[0]!).toBeLessThan(20 * conditions);
    // the second: every class already counted
    expect(calls[1]).toBe(calls[0]);
  }, 120_000);
});
