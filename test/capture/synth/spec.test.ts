import { describe, expect, it } from 'vitest';
import { parseSpec, SpecError, specToJson } from '../../../src/capture/synth/spec.js';
import { planParts } from '../../../src/capture/synth/part.js';

const part = (p: Record<string, unknown>): unknown => ({ parts: [{ kind: 'handshake', ...p }] });

// [what, spec, the exact message]
const BAD: Array<[string, unknown, string]> = [
  ['not an object', [], 'spec: expected an object, got an array'],
  ['unknown top-level key, with a suggestion', { packet: 5, parts: [{ kind: 'dns' }] }, 'packet: unknown key (did you mean "packets"?)'],
  ['unknown top-level key, far from any', { colour: 1, parts: [] }, 'colour: unknown key; expected one of seed, packets, duration, start, parts'],
  ['no parts', { parts: [] }, 'parts: expected a non-empty list of parts, got an array'],
  ['missing parts', {}, 'parts: expected a non-empty list of parts, got undefined'],
  ['a part that is not an object', { parts: [{ kind: 'dns' }, 3] }, 'parts[1]: expected an object, got 3'],
  ['missing kind', { parts: [{ packets: 3 }] }, 'parts[0].kind: missing; expected one of handshake, dns, udp, icmp, syn-flood, ack-flood'],
  ['unknown kind', { parts: [{ kind: 'tcp' }] }, 'parts[0].kind: unknown kind "tcp"; expected one of handshake, dns, udp, icmp, syn-flood, ack-flood'],
  ['misspelt part key', part({ rat: 5 }), 'parts[0].rat: unknown key (did you mean "rate"?)'],
  ['two sizes', part({ packets: 5, rate: 3 }), 'parts[0]: give only one of packets, rate'],
  ['fractional packets', part({ packets: 2.5 }), 'parts[0].packets: expected a whole number, got 2.5'],
  ['string packets', part({ packets: '10' }), 'parts[0].packets: expected a number, got "10"'],
  ['zero rate', part({ rate: 0 }), 'parts[0].rate: 0 is out of range (more than 0, at most 10000000)'],
  ['share above 1', part({ share: 1.5 }), 'parts[0].share: 1.5 is out of range (more than 0, at most 1)'],
  ['flows of a flood', { parts: [{ kind: 'syn-flood', flows: 3 }] }, 'parts[0].flows: syn-flood parts have no flows; give packets, rate or share'],
  ['bad prefix', part({ sources: ['198.51.100.0/24', '10.0.0.300/8'] }), 'parts[0].sources[1]: "10.0.0.300/8": not an IPv4 or IPv6 address'],
  ['host bits set', part({ servers: ['203.0.113.1/24'] }), 'parts[0].servers[0]: "203.0.113.1/24": host bits are set (did you mean 203.0.113.0/24?)'],
  ['non-string source', part({ sources: [5] }), 'parts[0].sources[0]: expected a string, got 5'],
  ['unknown country', part({ countries: ['US', 'XX'] }), 'parts[0].countries[1]: no address blocks for country "XX"; known: US, DE, BR, GB, FR, JP, CN, IN, AU, RU, NL, CA, KR, AR'],
  ['port out of range', part({ ports: [80, 70000] }), 'parts[0].ports[1]: 70000 is out of range (at least 1, at most 65535)'],
  ['empty port list', part({ ports: [] }), 'parts[0].ports: expected a port or a non-empty list of ports, got an array'],
  ['ports on icmp', { parts: [{ kind: 'icmp', ports: [7] }] }, 'parts[0].ports: icmp has no ports'],
  ['rst outside ack-flood', part({ rst: 0.5 }), 'parts[0].rst: only ack-flood parts take rst'],
  ['exchanges on a flood', { parts: [{ kind: 'ack-flood', exchanges: 2 }] }, 'parts[0].exchanges: ack-flood parts send single packets; exchanges applies to handshake, dns, udp and icmp'],
  ['exchanges min above max', part({ exchanges: [3, 2] }), 'parts[0].exchanges[1]: 2 is out of range (at least 3, at most 100)'],
  ['v6 above 1', part({ v6: 2 }), 'parts[0].v6: 2 is out of range (at least 0, at most 1)'],
  ['start after the end', { duration: 10, parts: [{ kind: 'dns', start: 10 }] }, 'parts[0].start: 10 s is not before the end of the capture (10 s)'],
  ['part past the end', { duration: 10, parts: [{ kind: 'dns', start: 5, duration: 6 }] }, 'parts[0].duration: start + duration (11 s) is past the end of the capture (10 s)'],
  ['families do not meet', part({ sources: ['2001:db8::/32'], servers: ['203.0.113.10'] }), 'parts[0]: sources and servers have no address family in common'],
  ['shares above 1', { parts: [{ kind: 'dns', share: 0.6 }, { kind: 'udp', share: 0.5 }] }, 'parts: the shares add up to 1.1, more than 1'],
  ['shares below 1 with no part to take the rest', { parts: [{ kind: 'dns', share: 0.5 }, { kind: 'udp', share: 0.2 }, { kind: 'syn-flood', rate: 100 }] }, 'parts: the shares add up to 0.7, less than 1, so 30% of the packets would be missing; make them add up to 1, or leave a part without a size to take the rest'],
  ['nothing left for an unsized part', { parts: [{ kind: 'dns', share: 1 }, { kind: 'udp' }] }, 'parts[1]: the other parts take every packet; give it packets, flows, rate or share'],
  ['duplicate explicit names', { parts: [{ kind: 'dns', name: 'a' }, { kind: 'udp', name: 'a' }] }, 'parts[1].name: "a" is already the name of parts[0]'],
  ['bad label', part({ label: 'benign' }), 'parts[0].label: expected "legit" or "attack", got "benign"'],
  ['bad date', { start: 'yesterday', parts: [{ kind: 'dns' }] }, 'start: "yesterday" is not a date (use ISO 8601, e.g. 2024-01-01T00:00:00Z, or seconds since the epoch)'],
  ['negative seed', { seed: -1, parts: [{ kind: 'dns' }] }, 'seed: -1 is out of range (at least 0, at most 4294967295)'],
  ['too many packets', { packets: 1e9, parts: [{ kind: 'dns' }] }, 'packets: 1000000000 is out of range (at least 1, at most 100000000)'],
];

describe('flow spec validation', () => {
  it.each(BAD)('rejects %s, naming the key', (_what, spec, message) => {
    let err: unknown;
    try {
      parseSpec(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SpecError);
    expect((err as Error).message).toBe(message);
  });

  it('fills in the defaults of a minimal spec', () => {
    const s = parseSpec({ parts: [{ kind: 'syn-flood' }] });
    expect(s).toMatchObject({ seed: 1, packets: 10000, duration: 60, start: 1704067200 });
    expect(s.parts[0]).toMatchObject({ name: 'syn-flood', label: 'attack', share: 1, start: 0, duration: 60, ports: [80], v6: 0.3 });
    expect(specToJson(s).parts).toEqual([expect.objectContaining({ sources: ['0.0.0.0/0'], servers: ['203.0.113.10'] })]);
  });

  it('lets overrides win over the file, and reads ISO dates', () => {
    const s = parseSpec({ seed: 5, packets: 100, start: '2025-03-01T12:00:00Z', parts: [{ kind: 'dns' }] }, { seed: 9, duration: 5 });
    expect([s.seed, s.packets, s.duration, s.start]).toEqual([9, 100, 5, Date.UTC(2025, 2, 1, 12) / 1000]);
  });

  it('splits the packets left over among unsized parts and names unnamed duplicates apart', () => {
    const s = parseSpec({ packets: 1000, parts: [{ kind: 'dns', packets: 50 }, { kind: 'udp', share: 0.5 }, { kind: 'udp' }, { kind: 'icmp' }] });
    expect(s.parts.map((p) => [p.name, p.share])).toEqual([['dns', undefined], ['udp', 0.5], ['udp-2', 0.25], ['icmp', 0.25]]);
  });

  it('gives exactly `packets` to parts whose shares add up to 1 (largest remainder)', () => {
    for (const packets of [1, 7, 100, 999, 12345]) {
      const s = parseSpec({ packets, parts: [{ kind: 'dns', share: 1 / 3 }, { kind: 'udp', share: 1 / 3 }, { kind: 'syn-flood', share: 1 / 3 }] });
      expect(planParts(s).reduce((n, p) => n + p.packets, 0)).toBe(packets);
    }
  });

  it('sizes a part by rate over its duration, and by flows', () => {
    const s = parseSpec({ duration: 10, parts: [{ kind: 'syn-flood', rate: 250, start: 2, duration: 4 }, { kind: 'handshake', flows: 7, exchanges: 2 }] });
    const [flood, tcp] = planParts(s);
    expect(flood!.packets).toBe(1000);
    expect(tcp!.count).toBe(7);
    expect(tcp!.packets).toBe(7 * (6 + 2 * 2));
  });

  it('accepts what specToJson prints, unchanged', () => {
    const s = parseSpec({ packets: 500, parts: [{ kind: 'ack-flood', rst: 0.5, sources: ['198.51.100.0/24'] }, { kind: 'icmp', countries: ['JP'] }] });
    expect(parseSpec(specToJson(s))).toEqual(s);
  });
});
