// decideFrame (src/sim/decide-frame.ts): the one place a frame goes from its bytes to its verdict, on
// a compiled path in a run. A frame without IP passes uninspected; the verdict carries the counting
// column of the stage that dropped it on both lanes; protection runs before the firewall on both
// lanes, so the firewall never counts a packet protection drops; each run keeps its own counts over
// one compiled path; the lane is chosen once per frame and counted with its reason.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Frame } from '../../src/capture/frame.js';
import { readFrames } from '../../src/capture/reader.js';
import { PacketRecord } from '../../src/capture/record.js';
import { generateToFile } from '../../src/capture/synth/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { createEnrichment } from '../../src/data/enrichment.js';
import { Firewall } from '../../src/firewall/firewall.js';
import { atpConfiguration, compilePath } from '../../src/sim/build.js';
import { CompiledPath } from '../../src/sim/compiled-path.js';
import { decideFrame, decideRecord } from '../../src/sim/decide-frame.js';
import { Lane } from '../../src/sim/lane.js';
import { Run } from '../../src/sim/run.js';
import { SERIES_COLUMNS } from '../../src/sim/verdict-series.js';
import { ethernet, ipv4, tcp } from '../capture/helpers/build.js';
import { record } from '../helpers/records.js';
import { tempDir } from '../helpers/temp-dir.js';

const firewall = () =>
  Firewall.compile([{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'outsiders', action: 'block', expression: 'not ip.src in { 10.0.0.0/8 }' }] }]);

const rule = { scope: 'global' as const, name: 'global', mode: 'enabled' as const, rate_sensitivity: 'high' as const, burst_sensitivity: 'high' as const };
const eager = { learningSeconds: 0, syn_protection: { baselinePps: 5, minRatePps: 5, minBurstPps: 5 }, tcp_flow_protection: { baselinePps: 5, minRatePps: 5, minBurstPps: 5 } };

/** protection on for 203.0.113.0/24, and a firewall that logs every packet it sees and blocks DNS */
function protectedSnapshot(): Snapshot {
  return {
    tcp_protection_status: { enabled: true },
    prefixes: [{ prefix: '203.0.113.0/24', excluded: false }],
    syn_protection: { rules: [rule] },
    tcp_flow_protection: { rules: [rule] },
    rulesets: [{ name: 'rs', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'seen', action: 'log', expression: 'ip.len > 0' }, { ref: 'dns', action: 'block', expression: 'udp.dstport == 53' }] }],
  };
}

describe('decideFrame', () => {
  it('passes a frame without IP uninspected, although a negated rule would match its absent fields', () => {
    const p = new CompiledPath({ firewall: firewall() });
    const run = new Run(p);
    const arp = new PacketRecord();
    const v = decideRecord(arp, p, run);
    expect({ drop: v.drop, stage: v.stage, matched: v.firewall.matchedCount }).toEqual({ drop: false, stage: null, matched: 0 });
    expect(run.tally.hits[0]).toBe(0);
    expect(decideRecord(record({ src: '192.0.2.1', dst: '203.0.113.10' }), p, run)).toMatchObject({ drop: true, stage: 'firewall' });
  });

  it('leaves nothing of the previous packet in the verdict (no stale monitoring note on a frame without IP)', () => {
    const p = new CompiledPath({ firewall: firewall(), atp: atpConfiguration({ tcp_protection_status: { enabled: true }, prefixes: [{ prefix: '203.0.113.0/24' }], tcp_flow_protection: { rules: [{ ...rule, mode: 'monitoring' }] } }, eager) });
    const run = new Run(p);
    run.verdict.atp.monitor = { stage: 'tcp_flow_protection', verdict: 'drop', reason: 'NOT_FOUND' };
    run.verdict.atp.dropFor(1, 1);
    const v = decideRecord(new PacketRecord(), p, run);
    expect(v.atp.drop).toBe(false);
    expect(v.atp.monitor).toBeNull();
    expect(v.monitor).toBeNull();
  });

  it('looks up no fields for a frame without IP: it never reaches the network firewall', async () => {
    const enrichment = await createEnrichment({ need: { country: { src: true, dst: true }, colo: true } });
    const p = new CompiledPath({ enrichment, firewall: firewall() });
    const arp = new PacketRecord();
    decideRecord(arp, p, new Run(p));
    expect(arp.present).toBe(0);
  });

  it('gives each verdict the counting column of the stage that dropped it, on both lanes', async () => {
    const capture = path.join(tempDir('edgesim-columns-'), 'mixed.pcap');
    await generateToFile('mixed', capture, { packets: 4000, duration: 20, seed: 3 });
    const p = await compilePath(protectedSnapshot(), { atp: eager });
    for (const record of [true, false]) {
      const run = new Run(p, { record });
      const columns = new Map<string, number>();
      await readFrames(capture, (frame) => {
        const v = decideFrame(frame, p, run);
        const key = `${v.stage}:${v.column}`;
        columns.set(key, (columns.get(key) ?? 0) + 1);
        if (v.column !== (v.drop ? SERIES_COLUMNS.indexOf(v.stage!) : 0)) throw new Error(`frame ${frame.number}: ${key}`);
      });
      // every stage dropped something, so every column was checked
      expect([...columns.keys()].sort(), `record ${record}`).toEqual(['firewall:1', 'null:0', 'syn_protection:2', 'tcp_flow_protection:3']);
    }
  });

  it('runs protection before the firewall on both lanes: a packet protection drops is never counted by a rule', async () => {
    const capture = path.join(tempDir('edgesim-protect-first-'), 'syn-flood.pcap');
    await generateToFile('syn-flood', capture, { packets: 3000, duration: 20, seed: 4 });
    const p = await compilePath(protectedSnapshot(), { atp: eager });
    const counts: Array<{ seen: number; ip: number; atpDrops: number; compiled: number }> = [];
    for (const record of [true, false]) {
      const run = new Run(p, { record });
      let ip = 0;
      let atpDrops = 0;
      let compiled = 0;
      await readFrames(capture, (frame) => {
        const v = decideFrame(frame, p, run);
        if (v.record.ipVersion !== 0) ip++;
        if (v.lane === Lane.COMPILED) compiled++;
        if (v.drop && v.stage !== 'firewall') {
          atpDrops++;
          expect(v.firewall.matchedCount).toBe(0);
          expect(v.rule).not.toBeNull();
        }
      });
      counts.push({ seen: run.tally.hits[0]!, ip, atpDrops, compiled });
    }
    const [decoder, compiled] = counts;
    expect(decoder!.atpDrops).toBeGreaterThan(100);
    expect(compiled!.compiled).toBe(3000);
    // `seen` matches every IP packet the firewall sees: all but those protection dropped
    for (const c of counts) expect(c.seen).toBe(c.ip - c.atpDrops);
    expect(compiled!.seen).toBe(decoder!.seen);
  });

  it('keeps each run\'s counts and protection state its own over one compiled path, compiled once', async () => {
    const capture = path.join(tempDir('edgesim-runs-'), 'mixed.pcap');
    await generateToFile('mixed', capture, { packets: 2000, duration: 10, seed: 8 });
    const p = await compilePath(protectedSnapshot(), { atp: eager });
    const program = p.program;
    const tallies: number[][] = [];
    for (let k = 0; k < 2; k++) {
      const run = new Run(p);
      await readFrames(capture, (frame) => decideFrame(frame, p, run));
      tallies.push([...run.tally.hits, ...run.tally.decided, run.protection!.report().packets.dropped]);
    }
    expect(tallies[1]).toEqual(tallies[0]);
    expect(tallies[0]![0]).toBeGreaterThan(0);
    expect(p.program).toBe(program);
  });

  it('chooses the lane once per frame and counts it with its reason', () => {
    const p = new CompiledPath({ firewall: firewall() });
    const bytes = ethernet(0x0800, ipv4({ src: '10.0.0.1', dst: '203.0.113.10', proto: 6 }, tcp(40000, 80, 0x02)));
    const frame = new Frame();
    const decide = (run: Run, linkType: number) => {
      frame.set(linkType, bytes, 0, bytes.length, bytes.length);
      frame.number++;
      return decideFrame(frame, p, run).lane;
    };
    const run = new Run(p);
    expect([decide(run, 1), decide(run, 1), decide(run, 147)]).toEqual([Lane.COMPILED, Lane.COMPILED, Lane.DECODER]);
    // a cut-off IPv4 header: the compiled lane hands the frame to the decoder, which notes it
    frame.set(1, bytes, 0, 20, bytes.length);
    expect(decideFrame(frame, p, run).lane).toBe(Lane.DECODER);
    expect(run.tally.lanes.report()).toMatchObject({ compiled: 2, fallback: 2, fallback_reasons: { 'link type': 1, 'decode note': 1 } });
    const fields = new Run(p, { record: true });
    expect(decide(fields, 1)).toBe(Lane.DECODER);
    expect(fields.tally.lanes.report().fallback_reasons).toEqual({ 'compiled path switched off': 1 });
  });

  it('with protection on, the compiled lane passes a frame without IP uninspected and hands a cut-off one to the decoder', async () => {
    const p = await compilePath(protectedSnapshot(), { atp: eager });
    expect(p.program).not.toBeNull();
    const run = new Run(p);
    const frame = new Frame();
    // an ARP frame: protection never sees it, the rules never count it, nothing is left from before
    const arp = ethernet(0x0806, new Uint8Array(28));
    run.verdict.atp.dropFor(1, 1);
    frame.set(1, arp, 0, arp.length, arp.length);
    const v = decideFrame(frame, p, run);
    expect({ lane: v.lane, drop: v.drop, stage: v.stage, atpDrop: v.atp.drop }).toEqual({ lane: Lane.COMPILED, drop: false, stage: null, atpDrop: false });
    expect(run.protection!.report().packets.seen).toBe(0);
    expect([...run.tally.hits]).toEqual([0, 0]);
    // a SYN to the protected prefix cut off inside its IPv4 header: the decoder's lane, counted as a decode note
    const syn = ethernet(0x0800, ipv4({ src: '198.51.100.1', dst: '203.0.113.10', proto: 6 }, tcp(40000, 80, 0x02)));
    frame.set(1, syn, 0, 24, syn.length);
    expect(decideFrame(frame, p, run).lane).toBe(Lane.DECODER);
    expect(run.tally.lanes.report()).toMatchObject({ compiled: 1, fallback: 1, fallback_reasons: { 'decode note': 1 } });
  });

  it('takes the decoder\'s lane, and says why, when protection is scoped by region: the compiled lane does not look up the ingress data center', async () => {
    const snapshot = protectedSnapshot();
    snapshot.syn_protection = { rules: [{ ...rule, scope: 'region', name: 'WEUR' }] };
    const p = await compilePath(snapshot, { atp: eager });
    expect(p.program).toBeNull();
    const bytes = ethernet(0x0800, ipv4({ src: '10.0.0.1', dst: '203.0.113.10', proto: 6 }, tcp(40000, 80, 0x02)));
    const frame = new Frame();
    frame.set(1, bytes, 0, bytes.length, bytes.length);
    const run = new Run(p);
    expect(decideFrame(frame, p, run).lane).toBe(Lane.DECODER);
    expect(run.tally.lanes.report()).toMatchObject({ compiled: 0, fallback: 1, fallback_reasons: { 'protection scoped by data center or region': 1 } });
  });
});
