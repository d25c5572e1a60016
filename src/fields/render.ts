// A packet's fields for people (edgesim inspect, test reports, trace): addresses as text,
// ip.proto, countries and data-center names as text, raw bytes as lowercase hex pairs joined by ':'
// (the Rules language's byte-string literal form, e.g. 45:00:00:3c). Not for the per-packet hot path.
import type { FieldAccess } from '../lang/binding.js';
import { formatIPv4 } from '../net/ipv4.js';
import { formatIPv6 } from '../net/ipv6.js';
import type { PacketRecord } from '../capture/record.js';
import { recordBinding } from './binding.js';

type R = PacketRecord;


const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const decoder = new TextDecoder();

function value(field: FieldAccess<R>, rec: R): string | number | boolean {
  switch (field.type) {
    case 'Int':
    case 'Bool':
      return field.get(rec);
    case 'Ip':
      return field.family(rec) === 4 ? formatIPv4(field.v4(rec)) : formatIPv6(field.v6(rec));
    case 'Bytes': {
      const bytes = field.bytes(rec).subarray(field.start(rec), field.end(rec));
      return 'isName' in field ? decoder.decode(bytes) : Array.from(bytes, (b) => HEX[b]).join(':');
    }
  }
}

/** A field's value as `recordFields` gives it, or null when the packet lacks it; undefined for a name that is no field. */
export function fieldReader(name: string): { type: FieldAccess<R>['type']; read(rec: R): string | number | boolean | null } | undefined {
  const field = Object.hasOwn(recordBinding, name) ? recordBinding[name]! : undefined;
  return field === undefined ? undefined : { type: field.type, read: (rec) => (field.has(rec) ? value(field, rec) : null) };
}

/**
 * Every field the packet has, by Rules-language name, with a JSON-friendly value: numbers and
 * booleans as such, addresses and names as text, raw bytes as "aa:bb:..." hex. For people and
 * reports (edgesim inspect), not for the per-packet hot path.
 */
export function recordFields(rec: PacketRecord): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, field] of Object.entries(recordBinding)) {
    if (field.has(rec)) out[name] = value(field, rec);
  }
  return out;
}

/** A packet's 5-tuple for people; a part the packet does not have (no IP, no ports) is null. */
export interface FiveTuple {
  src: string | null;
  dst: string | null;
  proto: string | null;
  sport: number | null;
  dport: number | null;
}

/** What `edgesim inspect` prints of a packet after its frame and time: every field it has, and `note` when decoding stopped early. */
export function inspectFields(rec: PacketRecord): Record<string, string | number | boolean> {
  const fields = recordFields(rec);
  if (rec.note !== '') fields.note = rec.note;
  return fields;
}

export function fiveTuple(rec: PacketRecord): FiveTuple {
  const read = (name: string): string | number | boolean | null => {
    const field = recordBinding[name]!;
    return field.has(rec) ? value(field, rec) : null;
  };
  const text = (name: string): string | null => {
    const v = read(name);
    return v === null ? null : String(v);
  };
  const port = (end: 'src' | 'dst'): number | null => (read(`tcp.${end}port`) ?? read(`udp.${end}port`)) as number | null;
  return { src: text('ip.src'), dst: text('ip.dst'), proto: text('ip.proto'), sport: port('src'), dport: port('dst') };
}
