import { describe, expect, it } from 'vitest';
import { AdvancedTcpProtection } from '../../src/atp/index.js';
import { PacketRecord } from '../../src/capture/record.js';
import { createEnrichment } from '../../src/data/enrichment.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { PacketPath } from '../../src/sim/packet-path.js';
import { record } from '../helpers/records.js';

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
    v.atp.drop = true;
    const arp = new PacketRecord();
    arp.reset();
    path.process(arp, v);
    expect(v.atp.monitor).toBeNull();
    expect(v.atp.drop).toBe(false);
  });

  it('looks up no fields for a frame without IP: it never reaches the network firewall', async () => {
    const enrichment = await createEnrichment({ need: { country: true, colo: true } });
    const path = new PacketPath({ enrichment, firewall: firewall(), atp: AdvancedTcpProtection.fromSnapshot({}) });
    const arp = new PacketRecord();
    arp.reset();
    path.process(arp, path.newVerdict());
    expect(arp.present).toBe(0);
  });
});
