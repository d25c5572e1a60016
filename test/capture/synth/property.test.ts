// The generator against random flow specs: whatever the mix, it yields exactly the planned packets,
// in time order, each inside its part's window, between its part's sources and servers (or the
// reverse, for answers), on its part's ports, decoding fully; floods carry no flow id, flows do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../../src/capture/reader.js';
import { PacketRecord } from '../../../src/capture/record.js';
import { generate, parseSpec } from '../../../src/capture/synth/index.js';
import { planParts } from '../../../src/capture/synth/part.js';
import type { Cidr } from '../../../src/net/cidr.js';
import { mask4, mask6Word } from '../../../src/net/cidr.js';

const KINDS = ['handshake', 'dns', 'udp', 'icmp', 'syn-flood', 'ack-flood'] as const;
const FLOODS = new Set(['syn-flood', 'ack-flood']);

const partArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  size: fc.oneof(
    fc.record({ packets: fc.integer({ min: 1, max: 150 }) }),
    fc.record({ rate: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ share: fc.double({ min: 0.05, max: 0.3, noNaN: true }) }),
  ),
  window: fc.tuple(fc.double({ min: 0, max: 0.9, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true })),
  sources: fc.constantFrom(['198.51.100.0/24'], ['2001:db8:1::/64'], ['192.0.2.0/28', '2001:db8:2::/48'], undefined),
  servers: fc.constantFrom(['203.0.113.10'], ['203.0.113.0/25', '2001:db8:ffff::/64'], ['2001:db8:ffff::10', '203.0.113.99']),
  ports: fc.constantFrom([80], [443, 8080], [22, 53, 9999]),
  v6: fc.double({ min: 0, max: 1, noNaN: true }),
  exchanges: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 })),
});

function inside(p: Cidr[], rec: PacketRecord, src: boolean): boolean {
  return p.some((c) => {
    if (c.family !== rec.ipVersion) return false;
    if (c.family === 4) return ((src ? rec.src4 : rec.dst4) & mask4(c.len)) >>> 0 === c.v4;
    const a = src ? rec.src6 : rec.dst6;
    return [0, 1, 2, 3].every((w) => (a[w]! & mask6Word(c.len, w)) >>> 0 === c.v6[w]);
  });
}

describe('generator', () => {
  it('keeps every packet of a random flow spec where its part says, in order and in number', () => {
    fc.assert(
      fc.property(fc.array(partArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 30 }), (raw, seed, duration) => {
        const parts = raw.map((p) => {
          const start = p.window[0] * duration;
          const part: Record<string, unknown> = {
            kind: p.kind, ...p.size, start, duration: Math.max(0.001, (duration - start) * p.window[1]), servers: p.servers, v6: p.v6,
          };
          if (p.kind !== 'icmp') part.ports = p.ports;
          if (p.sources) part.sources = p.sources;
          if (!FLOODS.has(p.kind)) part.exchanges = [p.exchanges[0], p.exchanges[0] + p.exchanges[1]];
          return part;
        });
        // shares are of the top-level packets and must add up to 1
        const shared = parts.reduce((sum, part) => sum + ((part.share as number | undefined) ?? 0), 0);
        for (const part of parts) if (part.share !== undefined) part.share = (part.share as number) / shared;
        let spec;
        try {
          spec = parseSpec({ seed, duration, packets: 300, parts });
        } catch {
          fc.pre(false);
          return;
        }
        const planned = planParts(spec).map((p) => p.packets);
        const counts = planned.map(() => 0);
        const rec = new PacketRecord();
        let last = -1;
        const summary = generate(spec, {
          frame(data, len, timeUs, part, flow) {
            const p = spec.parts[part.index]!;
            counts[part.index]!++;
            expect(timeUs).toBeGreaterThanOrEqual(last);
            last = timeUs;
            expect(timeUs).toBeGreaterThanOrEqual(Math.round(p.start * 1e6));
            expect(timeUs).toBeLessThanOrEqual(Math.round((p.start + p.duration) * 1e6));
            rec.reset();
            decodeFrame(rec, 1, data, len);
            expect(rec.note).toBe('');
            const forward = inside(p.sources, rec, true) && inside(p.servers, rec, false);
            const back = inside(p.servers, rec, true) && inside(p.sources, rec, false);
            expect(forward || back).toBe(true);
            if (p.kind !== 'icmp') expect(p.ports).toContain(forward ? rec.dstPort : rec.srcPort);
            expect(flow === 0).toBe(FLOODS.has(p.kind));
          },
        });
        expect(counts).toEqual(planned);
        expect(summary.packets).toBe(planned.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 60 },
    );
  });
});
