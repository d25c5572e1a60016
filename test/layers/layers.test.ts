// What the protocol layers (src/layers/) say of their fields, as a user meets it: which fields an ATP
// filter may name, the largest ip.len a suite's packet may give, and the layers a test may add a field
// to, each listed after its layer's own fields. (Each field read from the bytes, written by the suites'
// builder and read back by both lanes: test/field-registry.test.ts; a field added to a layer:
// test-only-field.test.ts.)
import { describe, expect, it, vi } from 'vitest';
import { FILTER_SCHEME, parse } from '../../src/lang/index.js';
import type { LayerField } from '../../src/layers/index.js';
import { packetSpec } from '../../src/lib/packet.js';

describe('the protocol layers', () => {
  it('give ATP filters the addresses and the TCP ports, no other field', () => {
    expect(FILTER_SCHEME.fieldNames().sort()).toEqual(['ip.dst', 'ip.src', 'tcp.dstport', 'tcp.srcport']);
    expect(() => parse('ip.src in {192.0.2.0/24} and ip.dst == 198.51.100.1 and tcp.srcport > 1023 and tcp.dstport == 443', FILTER_SCHEME)).not.toThrow();
    expect(() => parse('udp.dstport == 53', FILTER_SCHEME)).toThrow(/udp\.dstport/);
  });

  it("let a suite's packet give ip.len up to a jumbogram's largest (the 32-bit Jumbo Payload length plus the 40-byte header), no more", () => {
    const largest = 0xffffffff + 40;
    for (const addresses of [{}, { 'ip.src': '2001:db8::1', 'ip.dst': '2001:db8::2' }]) {
      expect(() => packetSpec({ 'ip.len': largest, ...addresses })).not.toThrow();
      expect(() => packetSpec({ 'ip.len': largest + 1, ...addresses })).toThrow(`ip.len: ${largest + 1} is out of range (0 to ${largest})`);
    }
  });

  it('take a field added to each layer by its name, and list it after that layer\'s own fields', async () => {
    vi.resetModules();
    const layers = await import('../../src/layers/index.js');
    const names = ['ip', 'location', 'tcp', 'udp', 'icmp', 'colo'];
    const added = new Map<string, LayerField>(names.map((layer) => [layer, { entry: { name: `${layer}.added`, kind: 'int', max: 1, part: 'ip', unit: 'test', meaning: 'added by a test' } }]));
    for (const [layer, f] of added) layers.addLayerField(layer, f);
    expect(() => layers.addLayerField('ethernet', added.get('ip')!)).toThrow('no layer ethernet');
    const listed = layers.layerFields().map((f) => f.entry.name);
    // each added field right after the last of its layer's own fields, the layers in the registry's order
    const after = ['ip.opt.type', 'ip.dst.asnum', 'tcp.flags.urg', 'udp.dstport', 'icmp.code', 'cf.colo.region'];
    expect(after.map((last) => listed[listed.indexOf(last) + 1])).toEqual(names.map((layer) => `${layer}.added`));
    expect(listed.indexOf('ip.added')).toBeLessThan(listed.indexOf('ip.src.country'));
  });
});
