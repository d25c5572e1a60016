// The two schemes edgesim checks expressions against, both from the field registry.
// - FIREWALL_SCHEME: the network-firewall phase fields (reference/cloudflare.md §2.3) and
//   bit_slice; lists (`$name`) for Ip only. Every field is optional: absent ⇒ every comparison
//   false except `!=`.
// - FILTER_SCHEME: Advanced TCP Protection filters: only ip.src, ip.dst, tcp.srcport,
//   tcp.dstport, no functions, no lists (so `ip.src in $x` is "cannot perform this operation on
//   type Ip", the engine's answer when no list definition exists).
// ip.geoip.country (deprecated, still accepted) stands for the source or the destination
// country: `==`, `in`, `contains`… match when either matches; decision: `!=` is true when neither
// equals the value (an absent country counts as not equal).
import { bitSlice } from './functions/bit-slice.js';
import { Scheme, type FieldDef } from './scheme.js';
import { FIELD_REGISTRY, fieldType, type FieldEntry } from '../field-registry.js';

const fields = (entries: readonly FieldEntry[]): Record<string, Omit<FieldDef, 'name'>> =>
  Object.fromEntries(entries.map((f) => [f.name, { type: fieldType(f), ...(f.kind === 'name' && f.anyOf ? { anyOf: f.anyOf } : {}) }]));

/** The network-firewall phase (edge_transit / magic_transit). */
export const FIREWALL_SCHEME = new Scheme({
  // a field standing for others comes after them
  fields: fields([...FIELD_REGISTRY.filter((f) => !('anyOf' in f)), ...FIELD_REGISTRY.filter((f) => 'anyOf' in f)]),
  functions: [bitSlice],
  lists: ['Ip'],
});

/** Advanced TCP Protection filter expressions. */
export const FILTER_SCHEME = new Scheme({
  fields: fields(FIELD_REGISTRY.filter((f) => f.inFilters)),
});
