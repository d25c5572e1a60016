// The registry's fields (src/field-registry.ts) on the header space's dimensions (space.ts Dim):
// each field names its dimension; ip.geoip.country has those of the fields it stands for, and a
// dimension shared by several fields (the ports) is written as its field of the packet's transport.
import { FIELD_REGISTRY, transportOf, type FieldEntry } from '../field-registry.js';
import { dimIndex } from './space.js';

const ENTRIES = new Map(FIELD_REGISTRY.map((f) => [f.name, f]));

/** A field's dimensions: the one the registry names, or those of the fields it stands for; undefined when the space has no such dimension. */
export function dimensions(f: FieldEntry): number[] | undefined {
  const own = (e: FieldEntry): readonly string[] => (e.kind === 'name' && e.anyOf !== undefined ? e.anyOf.flatMap((n) => own(ENTRIES.get(n)!)) : 'dim' in e && e.dim !== undefined ? [e.dim] : []);
  const dims = own(f).map(dimIndex);
  return dims.every((d) => d !== undefined) ? (dims as number[]) : undefined;
}

/** the fields with a dimension of their own, by dimension */
const OWN_FIELDS = new Map<number, FieldEntry[]>();
for (const f of FIELD_REGISTRY) {
  if (f.kind === 'name' && f.anyOf !== undefined) continue;
  const [d] = dimensions(f) ?? [];
  if (d !== undefined) OWN_FIELDS.set(d, [...(OWN_FIELDS.get(d) ?? []), f]);
}

/** The dimensions that are some field's own, in ascending order. */
export const FIELD_DIMENSIONS: readonly number[] = [...OWN_FIELDS.keys()].sort((a, b) => a - b);

/** The field dimension `d` is written as in a packet of `transport` ("tcp", "udp", …); undefined when it has none there. */
export function fieldOf(d: number, transport: string | undefined): FieldEntry | undefined {
  const fields = OWN_FIELDS.get(d) ?? [];
  return fields.length === 1 ? fields[0] : fields.find((f) => transportOf(f) === transport);
}
