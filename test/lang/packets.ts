// Plain-object packets for tests, with the trivial binding the brief asks for: each field is a
// property (absent when undefined); byte strings are views into a larger buffer (so offsets are
// exercised), IPv6 addresses four words.
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import type { CompoundValue, ElementValue, IpElement, SchemeBinding, Scheme, LangType } from '../../src/lang/index.js';

export interface View {
  buf: Uint8Array;
  start: number;
  end: number;
}
export type FieldValue = boolean | number | View | IpElement | CompoundValue;
export type ObjPacket = Record<string, FieldValue | undefined>;

export function ip(text: string): IpElement {
  const v4 = parseIPv4(text);
  if (v4 >= 0) return { family: 4, v4 };
  const v6 = parseIPv6(text);
  if (!v6) throw new Error(`bad address ${text}`);
  return { family: 6, v6 };
}

const enc = new TextEncoder();

/** A view of the bytes inside a buffer with `pad` junk bytes on each side. */
export function view(bytes: Uint8Array | string, pad = 3): View {
  const b = typeof bytes === 'string' ? enc.encode(bytes) : bytes;
  const buf = new Uint8Array(b.length + 2 * pad).fill(0xee);
  buf.set(b, pad);
  return { buf, start: pad, end: pad + b.length };
}

function element(v: unknown, type: LangType): ElementValue {
  if (type === 'Bytes') return typeof v === 'string' ? enc.encode(v) : (v as Uint8Array);
  if (type === 'Ip') return typeof v === 'string' ? ip(v) : (v as IpElement);
  if (type === 'Bool' || type === 'Int') return v as ElementValue;
  const inner = 'array' in type ? type.array : type.map;
  if ('array' in type) return (v as unknown[]).map((x) => element(x, inner));
  return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, element(x, inner)]));
}

/** A packet from friendly values: addresses and byte strings as text, arrays and maps as JS values. */
export function packet(scheme: Scheme, values: Record<string, unknown>): ObjPacket {
  const out: ObjPacket = {};
  for (const [name, v] of Object.entries(values)) {
    const type = scheme.field(name)!.type;
    if (v === undefined) continue;
    if (type === 'Bytes') out[name] = view(v as string | Uint8Array);
    else if (type === 'Ip') out[name] = typeof v === 'string' ? ip(v) : (v as IpElement);
    else if (type === 'Bool' || type === 'Int') out[name] = v as boolean | number;
    else out[name] = element(v, type) as CompoundValue;
  }
  return out;
}

/** Accessors reading the plain object for every field of the scheme. */
export function objectBinding(scheme: Scheme): SchemeBinding<ObjPacket> {
  const binding: Record<string, SchemeBinding<ObjPacket>[string]> = {};
  for (const name of scheme.fieldNames()) {
    const type = scheme.field(name)!.type;
    const has = (p: ObjPacket) => p[name] !== undefined;
    if (type === 'Bool') binding[name] = { type, has, get: (p) => p[name] as boolean };
    else if (type === 'Int') binding[name] = { type, has, get: (p) => p[name] as number };
    else if (type === 'Ip') {
      binding[name] = {
        type,
        has,
        family: (p) => (p[name] as IpElement).family,
        v4: (p) => (p[name] as { v4: number }).v4,
        v6: (p) => (p[name] as { v6: Uint32Array }).v6,
      };
    } else if (type === 'Bytes') {
      binding[name] = { type, has, bytes: (p) => (p[name] as View).buf, start: (p) => (p[name] as View).start, end: (p) => (p[name] as View).end };
    } else {
      binding[name] = { type: 'array' in type ? 'Array' : 'Map', has, get: (p) => p[name] as CompoundValue };
    }
  }
  return binding;
}
