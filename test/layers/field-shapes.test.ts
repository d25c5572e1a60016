// Header fields of every shape a layer can place (src/layers/layer.ts HeaderSlot): the product's
// placed fields are one or two bytes at offsets 0 to 20, so the four-byte reading and writing, a
// two-byte field at an odd offset and a mask over part of a byte are reached only by a field a layer
// adds. Three are added to the TCP layer here (as test-only-field.test.ts adds tcp.urgent_pointer):
// the sequence number (4 bytes at offset 4), bytes 1-2 (the source port's low byte and the
// destination port's high byte) and the data offset (the high nibble of byte 12). Each is written by
// the suites' builder into its bytes and no other, decoded, and decided on by both lanes.
//
// The stages are loaded anew inside each test (not in beforeAll), so that a stage that fails to load
// fails the test.
import { describe, expect, it } from 'vitest';
import type { LayerField } from '../../src/layers/index.js';
import { type Stages, stagesWith } from './stages.js';

const ADDED: Array<[name: string, field: LayerField]> = [
  ['tcp.t_seq', { entry: { name: 'tcp.t_seq', kind: 'int', max: 0xffffffff, local: 'tSeq', dim: 'tSeq', part: 'tcp', unit: 'number', meaning: 'The TCP sequence number (test only).' }, at: { offset: 4, bytes: 4 } }],
  ['tcp.t_odd', { entry: { name: 'tcp.t_odd', kind: 'int', max: 0xffff, local: 'tOdd', dim: 'tOdd', part: 'tcp', unit: 'bytes', meaning: 'TCP header bytes 1-2 (test only).' }, at: { offset: 1, bytes: 2 } }],
  ['tcp.t_doff', { entry: { name: 'tcp.t_doff', kind: 'int', max: 0xf0, local: 'tDoff', dim: 'tDoff', part: 'tcp', unit: 'words, shifted', meaning: 'The TCP data offset nibble, in place (test only).' }, at: { offset: 12, bytes: 1, mask: 0xf0 } }],
];

let loading: Promise<Stages> | null = null;

/** every stage, with the three fields added (loaded once, inside the first test that asks) */
const stages = () => (loading ??= stagesWith('tcp', ADDED.map(([, f]) => f)));

function built(s: Stages, packet: Record<string, unknown>) {
  const frame = new s.frame.Frame();
  new s.builder.PacketBuilder().build(s.packet.packetSpec(packet as never), frame);
  return frame;
}

/** the TCP header's bytes of a frame the builder wrote (Ethernet 14 + IPv4 20), its checksum (bytes 16-17) left out */
const tcpHeader = (frame: { data: Uint8Array; off: number }): number[] => [...frame.data.subarray(frame.off + 34, frame.off + 54)].map((b, i) => (i === 16 || i === 17 ? -1 : b));

/** one ruleset of one rule blocking `expression` */
const ruleset = (expression: string) => [{ name: 'rs', kind: 'root' as const, phase: 'edge_transit' as const, rules: [{ ref: 'r', action: 'block' as const, expression }] }];

function decided(s: Stages, packet: Record<string, unknown>, record: boolean, expression: string): boolean {
  const firewall = s.firewall.Firewall.compile(ruleset(expression), {});
  const program = s.fast.FastFirewall.compile(firewall, {});
  const path = new s.path.CompiledPath({ firewall, program });
  return s.decide.decideFrame(built(s, packet), path, new s.run.Run(path, { record })).drop;
}

const BASE = { 'tcp.srcport': 0x1234, 'tcp.dstport': 0x5678 };

describe('header fields of every shape a layer can place', () => {
  it('are written by the suites\' builder into their bytes and no other', async () => {
    const s = await stages();
    const plain = tcpHeader(built(s, BASE));
    const changed = (packet: Record<string, unknown>): Array<[number, number]> =>
      tcpHeader(built(s, { ...BASE, ...packet })).flatMap((b, i) => (b === plain[i] ? [] : [[i, b] as [number, number]]));
    // a sequence number whose every byte differs from the builder's own (SYN: its initial one)
    const seq = plain.slice(4, 8).map((b) => b ^ 0xa5);
    const value = ((seq[0]! << 24) | (seq[1]! << 16) | (seq[2]! << 8) | seq[3]!) >>> 0;
    expect(changed({ 'tcp.t_seq': value })).toEqual(seq.map((b, i) => [4 + i, b]));
    expect(changed({ 'tcp.t_odd': 0xabcd })).toEqual([[1, 0xab], [2, 0xcd]]);
    // the low nibble (reserved bits, the AE flag) kept: 0 in the builder's header
    expect(plain[12]! & 0x0f).toBe(0);
    expect(changed({ 'tcp.t_doff': 0xa0 })).toEqual([[12, 0xa0]]);
  });

  it('are decoded from their bytes', async () => {
    const s = await stages();
    const rec = new s.record.PacketRecord();
    s.decode.decodeInto(rec, built(s, { ...BASE, 'tcp.t_seq': 0xdeadbeef }));
    expect(s.render.recordFields(rec)).toMatchObject({ 'tcp.t_seq': 0xdeadbeef, 'tcp.t_odd': 0x3456, 'tcp.t_doff': 0x50, 'tcp.srcport': 0x1234, 'tcp.dstport': 0x5678 });
  });

  it('are decided on by the compiled lane (its prologue reads them) and the decoder\'s lane alike', async () => {
    const s = await stages();
    for (const record of [false, true]) {
      expect(decided(s, { ...BASE, 'tcp.t_seq': 0xdeadbeef }, record, 'tcp.t_seq == 3735928559')).toBe(true);
      expect(decided(s, { ...BASE, 'tcp.t_seq': 0xdeadbeee }, record, 'tcp.t_seq == 3735928559')).toBe(false);
      expect(decided(s, BASE, record, 'tcp.t_odd == 13398')).toBe(true);
      expect(decided(s, BASE, record, 'tcp.t_doff == 80')).toBe(true);
      expect(decided(s, { ...BASE, 'tcp.t_doff': 0x60 }, record, 'tcp.t_doff == 80')).toBe(false);
    }
  });

  it('are modelled by the analysis, each in a dimension of its own: pinning writes a witness holding all three that both lanes drop', async () => {
    const s = await stages();
    // three fields after the product's last dimension (sip's): were two of them to share one with
    // each other or with sip, the rule could not match and would have no witness (no port is asked
    // for: tcp.t_odd overlaps both ports' bytes, which the analysis does not know)
    const rule = 'tcp.t_seq == 3735928559 and tcp.t_odd == 13398 and tcp.t_doff == 80 and not sip';
    const witness = s.pinning.pinFirewall({ rulesets: ruleset(rule) } as never).rules[0]!.witness!;
    expect(witness).toMatchObject({ 'tcp.t_seq': 0xdeadbeef, 'tcp.t_odd': 13398, 'tcp.t_doff': 80 });
    for (const record of [false, true]) expect(decided(s, witness, record, rule)).toBe(true);
  });
});
