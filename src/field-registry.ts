// Every Rules-language field of the firewall phase, defined once, in its protocol layer's module
// (src/layers/: an entry with what it is, where it sits in its header, how a suite writes it and which
// values a witness prefers). This module is the list of their entries, in the order `edgesim fields`
// and the README list them, and the questions every stage asks of an entry (its type, its transport,
// its lookup).
//
// The stages derive their tables from this list: the firewall and ATP filter schemes
// (lang/schemes.ts), the reference (fields/reference.ts), the lookups (fields/lookups.ts), the suites'
// packet spec, the translations' looked-up fields and flag bits, the fast path's conditions and the
// analysis' field models, spaces and edges (analysis/field-dimensions.ts). The decoder, the fast
// path's prologue, the record binding, the suites' builder and the witness take each header field's
// place from its layer (src/layers/). Where a stage still needs its own code for a field (addresses,
// ip.proto, ip.len, lookups) test/field-registry.test.ts checks that it covers every field here, with
// this type, naming the field and the stage when one is missing.
// Imports only `layers`.

import { layerFields, type FieldEntry, type FieldKind, type FieldPart, type Lookup, type Transport } from './layers/index.js';
import type { ICMP_FIELDS } from './layers/icmp.js';
import type { IP_BYTES, IP_FIELDS, SIP } from './layers/ip.js';
import type { COLO_FIELDS, LOCATION_FIELDS } from './layers/location.js';
import type { TCP_FIELDS, TCP_LAYER } from './layers/tcp.js';
import type { UDP_FIELDS, UDP_LAYER } from './layers/udp.js';
import type { ICMP_LAYER } from './layers/icmp.js';

export type { FieldEntry, FieldKind, FieldPart, Lookup, Transport };
export type FieldType = 'Bool' | 'Int' | 'Ip' | 'Bytes';

const TYPES: Readonly<Record<FieldKind, FieldType>> = { address: 'Ip', int: 'Int', flag: 'Bool', bool: 'Bool', name: 'Bytes', raw: 'Bytes' };

/** A field's Rules-language type. */
export function fieldType(field: FieldEntry): FieldType {
  return TYPES[field.kind];
}

const TRANSPORTS: readonly FieldPart[] = ['tcp', 'udp', 'icmp'];
const LOOKUPS: readonly FieldPart[] = ['country', 'asn', 'colo'];

/** The transport whose header a field is read from, if any (tcp.dstport: tcp). */
export function transportOf(field: FieldEntry): Transport | undefined {
  return TRANSPORTS.includes(field.part) ? (field.part as Transport) : undefined;
}

/** The lookup a field's value comes from, if it does not come from the capture. */
export function lookupOf(field: FieldEntry): Lookup | undefined {
  return LOOKUPS.includes(field.part) ? (field.part as Lookup) : undefined;
}

/** The fields, in the order `edgesim fields` and the README list them. */
export const FIELD_REGISTRY: readonly FieldEntry[] = layerFields().map((f) => f.entry);

/**
 * One field of the registry as the type checker knows it: its name and kind as literal types. The
 * library's `Packet` type (a field name to a value of its kind) is derived from these, so it cannot
 * differ from the list.
 */
export type RegisteredField = (
  | typeof IP_FIELDS
  | typeof LOCATION_FIELDS
  | typeof TCP_FIELDS
  | typeof UDP_FIELDS
  | typeof ICMP_FIELDS
  | typeof COLO_FIELDS
  | readonly [typeof IP_BYTES, (typeof TCP_LAYER)['bytes'], (typeof UDP_LAYER)['bytes'], (typeof ICMP_LAYER)['bytes'], typeof SIP]
)[number]['entry'];

/** The fields of a kind, narrowed to it. */
export function fieldsOfKind<K extends FieldKind>(kind: K): Array<Extract<FieldEntry, { kind: K }>> {
  return FIELD_REGISTRY.filter((f): f is Extract<FieldEntry, { kind: K }> => f.kind === kind);
}
