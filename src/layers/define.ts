// Helpers the layer modules write their fields with: each keeps a field's name and kind as literal
// types, so the registry's typed list (RegisteredField) knows them. Imports nothing outside this folder.
import type { FieldEntry, Transport } from './field-entry.js';
import type { Layer, LayerField } from './layer.js';

/** A layer's field: its registry entry and the rest of what the stages need of it. */
export const field = <const E extends FieldEntry>(entry: E, rest: Omit<LayerField, 'entry'> = {}) => ({ entry, ...rest });

/**
 * A layer's fields as a readonly tuple of their literal types, as `[…] as const` gives; and a layer, as
 * `{…} as const satisfies Layer`. The tables are written with these rather than `as const`, whose
 * expression StrykerJS does not mutate at all (an `as` expression is a type node to it): so mutation
 * testing reaches every field's entry, place, record property, default and usual values.
 */
export const fieldList = <const T extends readonly LayerField[]>(...list: T): T => list;
export const layer = <const L extends Layer>(l: L): L => l;
/** A name with its literal type (for a template literal, which `as` would hide from mutation testing). */
export const named = <N extends string>(name: string): N => name as N;

export const PORT = 0xffff;
export const BYTE = 0xff;

/** tcp.srcport, udp.dstport, …: 16 bits at the start of the transport header (source, then destination) */
export const port = <P extends Transport, S extends 'src' | 'dst'>(proto: P, side: S, fallback: number, usual: readonly number[]) =>
  field(
    {
      name: named<`${P}.${S}port`>(`${proto}.${side}port`),
      kind: 'int',
      max: PORT,
      local: `${side[0]}port`,
      dim: `${side[0]}port`,
      part: proto,
      unit: 'port number',
      meaning: `${side === 'src' ? 'Source' : 'Destination'} port of the ${proto.toUpperCase()} header (0-65535). Absent when the packet is not ${proto.toUpperCase()} or is a non-first fragment.`,
      ...(proto === 'tcp' ? { inFilters: true } : {}),
    },
    { at: { offset: side === 'src' ? 0 : 2, bytes: 2 }, record: side === 'src' ? 'srcPort' : 'dstPort', default: fallback, usual },
  );

/** a transport's bytes as captured */
export const raw = <T extends Transport>(name: T, what: string, select = `ip.proto == "${name}"`) =>
  field({
    name,
    kind: 'raw',
    part: name,
    unit: 'bytes',
    meaning: `${what} as captured, for bit_slice, contains and matches. Not a condition: to select ${name.toUpperCase()} packets write ${select}.`,
  });
