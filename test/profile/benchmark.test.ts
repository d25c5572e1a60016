// The bench measurement on packets held in memory: a frame without IP is counted in the packets but
// never reaches the firewall (as on the packet path), the rules' shares add up to the firewall's
// time, and the per-rule counts agree with counting each rule's matches directly.
import { Frame } from '../../src/capture/frame.js';
import { describe, expect, it } from 'vitest';
import { benchmark } from '../../src/profile/benchmark.js';
import { loadCapture, loadScenario } from '../../src/profile/frames.js';
import { compileRecordExpression } from '../../src/fields/compile.js';

describe('benchmark()', () => {
  it('says how many packets --limit held in memory, one in the singular', async () => {
    for (const [limit, said] of [[1, 'loaded only the first 1 packet (--limit)'], [1000, 'loaded only the first 1,000 packets (--limit)']] as const) {
      const store = await loadCapture('examples/demo.pcap', limit);
      expect(store.count).toBe(limit);
      expect(store.warnings).toEqual([said]);
    }
  });

  it('counts frames without IP as packets but not as firewall evaluations', async () => {
    const store = loadScenario('mixed', { packets: 600, seed: 3 });
    const arp = new Uint8Array(42);
    arp.fill(0xff, 0, 6);
    arp[12] = 0x08;
    arp[13] = 0x06;
    store.add(arp, 0, arp.length, arp.length, 1, 1_700_000_000, 0);
    const snapshot = {
      rulesets: [
        {
          name: 'rs',
          kind: 'root' as const,
          phase: 'edge_transit' as const,
          rules: [
            { ref: 'web', action: 'skip' as const, action_parameters: { ruleset: 'current' as const }, expression: 'tcp.dstport in { 80 443 }' },
            { ref: 'udp', action: 'block' as const, expression: 'ip.proto == "udp"' },
          ],
        },
      ],
    };
    const report = await benchmark(store, snapshot, { runs: 1 });
    expect(report.packets).toBe(601);
    expect(report.firewall.packets).toBe(600);
    const recs = store.decodeAll(new Frame()).slice(0, 600);
    const web = compileRecordExpression('rule', 'tcp.dstport in { 80 443 }').predicate;
    const udp = compileRecordExpression('rule', 'ip.proto == "udp"').predicate;
    const webHits = recs.filter(web).length;
    expect(report.rules.map((r) => [r.rule, r.evaluations, r.matches])).toEqual([
      ['web', 600, webHits],
      ['udp', 600 - webHits, recs.filter((r) => !web(r) && udp(r)).length],
    ]);
    expect(report.rules.reduce((s, r) => s + r.share, 0)).toBeCloseTo(1, 9);
    expect(report.rules.reduce((s, r) => s + r.ns_total, 0)).toBeCloseTo(report.firewall.ns_median, 3);
  });

  it('counts the frames the compiled path decided and why the others fell back, as a replay does', async () => {
    const store = loadScenario('mixed', { packets: 300, seed: 3 });
    const cut = new Uint8Array(20);
    cut[12] = 0x08; // IPv4 cut inside its header: the decoder notes it, so the compiled path leaves it to the decoder
    store.add(cut, 0, cut.length, 60, 1, 1_700_000_000, 0);
    const snapshot = { rulesets: [{ name: 'rs', kind: 'root' as const, phase: 'edge_transit' as const, rules: [{ ref: 'telnet', action: 'block' as const, expression: 'tcp.dstport == 23' }] }] };
    const report = await benchmark(store, snapshot, { runs: 1 });
    expect(report.engine).toEqual({ compiled: 300, fallback: 1, fallback_reasons: { 'decode note': 1 }, decoded: 0, decoded_reasons: {} });
  });
});
