// The registry's fields on the header space's dimensions (src/analysis/field-dimensions.ts), stated
// from the registry's own data: each field's dimensions are those its `dim` names (a flag and raw
// bytes have none; ip.geoip.country those of the fields it stands for, in their order); the field
// dimensions are the dimensions some field names, each once, ascending; and a dimension is written
// as its one field, or — shared by the ports of several transports — as the packet's transport's.
import { describe, expect, it } from 'vitest';
import { dimensions, FIELD_DIMENSIONS, fieldOf } from '../../src/analysis/field-dimensions.js';
import { Dim, DIMS } from '../../src/analysis/space.js';
import { FIELD_REGISTRY, type FieldEntry } from '../../src/field-registry.js';

const DIM_OF: Readonly<Record<string, number>> = Dim;
const byName = (name: string): FieldEntry => FIELD_REGISTRY.find((f) => f.name === name)!;
const dimNamed = (f: FieldEntry): string | undefined => ('dim' in f ? f.dim : undefined);
/** the registry's fields naming dimension `d` as their own */
const namingDim = (d: number): FieldEntry[] => FIELD_REGISTRY.filter((f) => dimNamed(f) !== undefined && DIM_OF[dimNamed(f)!] === d);
const TRANSPORTS = ['tcp', 'udp', 'icmp', 'gre', undefined] as const;

describe('a field’s dimensions', () => {
  it.each(FIELD_REGISTRY.map((f) => [f.name, f] as const))('%s: the one its dim names, those of the fields it stands for, or none', (_, f) => {
    const expected = f.kind === 'name' && f.anyOf !== undefined ? f.anyOf.map((n) => DIM_OF[dimNamed(byName(n))!]) : dimNamed(f) === undefined ? [] : [DIM_OF[dimNamed(f)!]];
    expect(expected.every((d) => d !== undefined && d >= 0 && d < DIMS)).toBe(true);
    expect(dimensions(f)).toEqual(expected);
  });

  it('ip.geoip.country has the source’s and the destination’s country, in that order', () => {
    expect(dimensions(byName('ip.geoip.country'))).toEqual([Dim.srcCountry, Dim.dstCountry]);
  });

  it('a field naming a dimension the space does not have has none: undefined', () => {
    expect(dimensions({ ...byName('ip.ttl'), dim: 'hopLimit' } as FieldEntry)).toBeUndefined();
  });
});

describe('the field dimensions', () => {
  it('are those some field names as its own, each once, ascending', () => {
    const named = new Set(FIELD_REGISTRY.filter((f) => !(f.kind === 'name' && f.anyOf !== undefined) && dimNamed(f) !== undefined).map((f) => DIM_OF[dimNamed(f)!]!));
    expect(FIELD_DIMENSIONS).toEqual([...named].sort((a, b) => a - b));
    expect(FIELD_DIMENSIONS).not.toContain(Dim.l4); // the transport header carried: no field's own
  });
});

describe('the field a dimension is written as', () => {
  it.each(FIELD_DIMENSIONS.map((d) => [Object.keys(Dim).find((k) => DIM_OF[k] === d)!, d] as const))('%s: its one field whatever the transport, or the transport’s own', (_, d) => {
    const fields = namingDim(d);
    for (const transport of TRANSPORTS) {
      const expected = fields.length === 1 ? fields[0] : fields.find((f) => f.part === transport);
      expect(fieldOf(d, transport)).toBe(expected);
    }
  });

  it('a port is its transport’s field; no transport’s packet has none', () => {
    expect(fieldOf(Dim.dport, 'tcp')?.name).toBe('tcp.dstport');
    expect(fieldOf(Dim.sport, 'udp')?.name).toBe('udp.srcport');
    expect(fieldOf(Dim.dport, 'icmp')).toBeUndefined();
    expect(fieldOf(Dim.sport, undefined)).toBeUndefined();
  });

  it('a field of the IP header is itself in every packet; a dimension no field owns has none', () => {
    for (const transport of TRANSPORTS) expect(fieldOf(Dim.ttl, transport)?.name).toBe('ip.ttl');
    expect(fieldOf(Dim.l4, 'tcp')).toBeUndefined();
  });
});
