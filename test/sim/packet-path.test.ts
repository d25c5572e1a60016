import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import { OOS, Reason } from '../../src/atp/vocabulary.js';
import { readCapture } from '../../src/capture/reader.js';
import { PacketRecord } from '../../src/capture/record.js';
import { generateToFile } from '../../src/capture/synth/index.js';
import { createEnrichment } from '../../src/data/enrichment.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { buildPacketPath } from '../../src/sim/build.js';
import { PacketDecider } from '../../src/sim/packet-decider.js';
import { PacketPath } from '../../src/sim/packet-path.js';
import { SERIES_COLUMNS } from '../../src/sim/verdict-series.js';
import { record } from '../helpers/records.js';
import { tempDir } from '../helpers/temp-dir.js';

const firewall = () =>
  Firewall.compile([{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'outsiders', action: 'block', expression: 'not ip.src in { 10.0.0.0/8 }' }] }]);

describe('packet path', () => {
  it('passes a frame without IP uninspected, although a negated rule would match its absent fields', () => {
    const fw = firewall();
    const path = new PacketPath({ firewall: fw, atp: AdvancedTcpProtection.fromSnapshot({}) });
    const v = path.newVerdict();
    const arp = new PacketRecord();
    arp.reset();
    path.process(arp, v);
    expect({ drop: v.drop, stage: v.stage, matched: v.firewall.matchedCount }).toEqual({ drop: false, stage: null, matched: 0 });
    expect(fw.hits[0]).toBe(0);
    path.process(record({ src: '192.0.2.1', dst: '203.0.113.10' }), v);
    expect({ drop: v.drop, stage: v.stage }).toEqual({ drop: true, stage: 'firewall' });
  });

  it('leaves nothing of the previous packet in the verdict (no stale monitoring note on a frame without IP)', () => {
    const path = new PacketPath({ firewall: firewall(), atp: AdvancedTcpProtection.fromSnapshot({}) });
    const v = path.newVerdict();
    v.atp.monitor = { stage: 'tcp_flow_protection', verdict: 'drop', reason: 'NOT_FOUND' };
    v.atp.dropFor(OOS, Reason.NOT_FOUND);
    const arp = new PacketRecord();
    arp.reset();
    path.process(arp, v);
    expect(v.atp.monitor).toBeNull();
    expect(v.atp.drop).toBe(false);
  });

  it('looks up no fields for a frame without IP: it never reaches the network firewall', async () => {
    const enrichment = await createEnrichment({ need: { country: { src: true, dst: true }, colo: true } });
    const path = new PacketPath({ enrichment, firewall: firewall(), atp: AdvancedTcpProtection.fromSnapshot({}) });
    const arp = new PacketRecord();
    arp.reset();
    path.process(arp, path.newVerdict());
    expect(arp.present).toBe(0);
  });

  it('gives each verdict the counting column of the stage that dropped it, on the packet path and on the fast path', async () => {
    const capture = path.join(tempDir('edgesim-columns-'), 'mixed.pcap');
    await generateToFile('mixed', capture, { packets: 4000, duration: 20, seed: 3 });
    const rule = { scope: 'global' as const, name: 'global', mode: 'enabled' as const, rate_sensitivity: 'high' as const, burst_sensitivity: 'high' as const };
    const built = await buildPacketPath(
      {
        tcp_protection_status: { enabled: true },
        prefixes: [{ prefix: '203.0.113.0/24', excluded: false }],
        syn_protection: { rules: [rule] },
        tcp_flow_protection: { rules: [rule] },
        rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'dns', action: 'block', expression: 'udp.dstport == 53' }] }],
      },
      { atp: { learningSeconds: 0, syn_protection: { baselinePps: 5, minRatePps: 5, minBurstPps: 5 }, tcp_flow_protection: { baselinePps: 5, minRatePps: 5, minBurstPps: 5 } } },
    );
    for (const fastPath of [false, true]) {
      const decider = PacketDecider.of(built, fastPath);
      const columns = new Map<string, number>();
      await readCapture(capture, (rec) => {
        const v = decider.decide(rec);
        const key = `${v.stage}:${v.column}`;
        columns.set(key, (columns.get(key) ?? 0) + 1);
        if (v.column !== (v.drop ? SERIES_COLUMNS.indexOf(v.stage!) : 0)) throw new Error(`frame ${rec.frame}: ${key}`);
      }, { decodeFrame: decider.decodeFrame });
      // every stage dropped something, so every column was checked
      expect([...columns.keys()].sort(), `fastPath ${fastPath}`).toEqual(['firewall:1', 'null:0', 'syn_protection:2', 'tcp_flow_protection:3']);
    }
  });
});
