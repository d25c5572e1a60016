// Helpers the layer modules write their fields with: each keeps a field's name and kind as literal
// types, so the registry's typed list (RegisteredField) knows them. Imports nothing outside this folder.
import type { FieldEntry, Transport } from './field-entry.js';
import type { LayerField } from './layer.js';

/** A layer's field: its registry entry and the rest of what the stages need of it. */
export const field = <const E extends FieldEntry>(entry: E, rest: Omit<LayerField, 'entry'> = {}) => ({ entry, ...rest });

export const PORT = 0xffff;
export const BYTE = 0xff;

/** tcp.srcport, udp.dstport, …: 16 bits at the start of the transport header (source, then destination) */
export const port = <P extends Transport, S extends 'src' | 'dst'>(proto: P, side: S, fallback: number, usual: readonly number[]) =>
  field(
    {
      name: `${proto}.${side}port` as `${P}.${S}port`,
      kind: 'int',
      max: PORT,
      local: `${side[0]}port`,
      dim: `${side[0]}port`,
      part: proto,
      unit: 'port number',
      meaning: `${side === 'src' ? 'Source' : 'Destination'} port of the ${proto.toUpperCase()} header (0-65535). Absent when the packet is not ${proto.toUpperCase()} or is a non-first fragment.`,
      ...(proto === 'tcp' ? { inFilters: true as const } : {}),
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
