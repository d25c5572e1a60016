// Adding a field is one entry in its layer's module: tcp.urgent_pointer, which the product does not
// have, defined here only, is picked up by every stage: the registry and `edgesim fields`' reference,
// the Rules-language scheme, the decoder and the binding, the compiled lane (read by the prologue,
// not on the decoded frame), the decoder's lane, the suites' packet spec and builder, the analysis
// and the witness pinning builds.
//
// The field must be in its layer before any stage reads the layers, so every module is loaded anew
// (vi.resetModules) after addLayerField, by dynamic import.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LayerField } from '../../src/layers/index.js';
import { stagesWith } from './stages.js';

const URGENT: LayerField = {
  entry: { name: 'tcp.urgent_pointer', kind: 'int', max: 0xffff, local: 'urgent', dim: 'urgent', part: 'tcp', unit: 'bytes', meaning: 'The TCP urgent pointer (header bytes 18-19). Absent when the packet is not TCP.' },
  at: { offset: 18, bytes: 2 },
  usual: [0],
};

const stages = () => stagesWith('tcp', [URGENT]);

let s: Awaited<ReturnType<typeof stages>>;
beforeAll(async () => {
  s = await stages();
}, 60_000);

const RULE = 'tcp.urgent_pointer == 150';

function ruleset(expression: string) {
  return [{ name: 'rs', kind: 'root' as const, phase: 'edge_transit' as const, rules: [{ ref: 'urgent', action: 'block' as const, expression }] }];
}

/** a suite's packet, built by the suites' builder into a frame */
function built(packet: Record<string, unknown>) {
  const frame = new s.frame.Frame();
  new s.builder.PacketBuilder().build(s.packet.packetSpec(packet as never), frame);
  return frame;
}

/** the verdict and lane of a packet through a path compiled for the rule: the compiled lane (record: false) or the decoder's (record: true) */
function decided(packet: Record<string, unknown>, record: boolean, expression = RULE) {
  const firewall = s.firewall.Firewall.compile(ruleset(expression), {});
  const program = s.fast.FastFirewall.compile(firewall, {});
  const path = new s.path.CompiledPath({ firewall, program });
  const run = new s.run.Run(path, { record });
  const verdict = s.decide.decideFrame(built(packet), path, run);
  return { drop: verdict.drop, lane: verdict.lane, decodedRules: verdict.lane === s.lane.Lane.COMPILED ? run.decodedRules() : null };
}

describe('a field defined only in a test (tcp.urgent_pointer)', () => {
  it('is in the registry and the reference, after the TCP layer\'s own fields', () => {
    const names = s.registry.FIELD_REGISTRY.map((f) => f.name);
    expect(names.indexOf('tcp.urgent_pointer')).toBe(names.indexOf('tcp.flags.urg') + 1);
    expect(s.reference.FIELD_REFERENCE.find((r) => r.name === 'tcp.urgent_pointer')).toMatchObject({ type: 'Int', unit: 'bytes' });
  });

  it('is a field of the Rules-language scheme, with its type', () => {
    expect(() => s.lang.parse(RULE, s.lang.FIREWALL_SCHEME)).not.toThrow();
    expect(() => s.lang.parse('tcp.urgent_pointer == "a"', s.lang.FIREWALL_SCHEME)).toThrow();
  });

  it('is written by the suites\' builder where its layer places it, and read back by the decoder and the binding', () => {
    const frame = built({ 'tcp.urgent_pointer': 150 });
    // Ethernet 14 + IPv4 20, then the TCP header: bytes 18-19
    expect([...frame.data.subarray(frame.off + 34 + 18, frame.off + 34 + 20)]).toEqual([0, 150]);
    const rec = new s.record.PacketRecord();
    s.decode.decodeInto(rec, frame);
    expect(s.render.recordFields(rec)['tcp.urgent_pointer']).toBe(150);
    const udp = new s.record.PacketRecord();
    s.decode.decodeInto(udp, built({ 'udp.dstport': 53 }));
    expect(s.render.recordFields(udp)).not.toHaveProperty('tcp.urgent_pointer');
  });

  it('is checked by the suites\' packet spec (range, transport) rather than ignored', () => {
    expect(() => s.packet.packetSpec({ 'tcp.urgent_pointer': 70000 } as never)).toThrow(/70000 is out of range \(0 to 65535\)/);
    expect(() => s.packet.packetSpec({ 'tcp.urgent_pointer': 1, 'udp.dstport': 53 } as never)).toThrow(/contradicts/);
  });

  it('is decided on by the compiled lane, reading it in the prologue (not on the decoded frame), and by the decoder\'s lane alike', () => {
    for (const record of [false, true]) {
      const hit = decided({ 'tcp.urgent_pointer': 150 }, record);
      const miss = decided({ 'tcp.urgent_pointer': 149 }, record);
      expect({ hit: hit.drop, miss: miss.drop }).toEqual({ hit: true, miss: false });
      expect(hit.lane).toBe(record ? s.lane.Lane.DECODER : s.lane.Lane.COMPILED);
      if (!record) expect(hit.decodedRules).toBe(0);
    }
    // a range and its complement, in both lanes
    for (const record of [false, true]) {
      expect(decided({ 'tcp.urgent_pointer': 120 }, record, 'tcp.urgent_pointer in {100..200} and not tcp.urgent_pointer == 150').drop).toBe(true);
      expect(decided({ 'tcp.dstport': 22 }, record, 'tcp.urgent_pointer != 0').drop).toBe(false);
      // absent from a UDP packet: every comparison false but !=, in both lanes
      expect(decided({ 'udp.dstport': 53 }, record, 'tcp.urgent_pointer != 0').drop).toBe(true);
      expect(decided({ 'udp.dstport': 53 }, record, 'tcp.urgent_pointer == 0').drop).toBe(false);
    }
  });

  it('is modelled by the analysis: pinning writes a witness with it that the builder builds and the rule drops', () => {
    const pinning = s.pinning.pinFirewall({ rulesets: ruleset('tcp.urgent_pointer in {150..160} and tcp.dstport == 22') } as never);
    const witness = pinning.rules[0]!.witness!;
    expect(witness['tcp.urgent_pointer']).toBeGreaterThanOrEqual(150);
    expect(witness['tcp.urgent_pointer']).toBeLessThanOrEqual(160);
    expect(s.witness.witnessRecord(witness).layerValues[0]).toBe(witness['tcp.urgent_pointer']);
    for (const record of [false, true]) expect(decided(witness, record, 'tcp.urgent_pointer in {150..160} and tcp.dstport == 22').drop).toBe(true);
  });

  it('cannot be added once a stage has read the layers', () => {
    expect(() => s.layers.addLayerField('tcp', { ...URGENT, entry: { ...URGENT.entry, name: 'tcp.late' } })).toThrow(/read already/);
  });
});
