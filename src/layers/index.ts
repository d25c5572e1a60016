// The protocol layers, in the order the registry lists their fields (`edgesim fields`, the README):
// every layer's header fields, then every layer's bytes, then the fields read from a payload.
// Every stage takes its fields from `layerFields()`; adding a field is an entry in its layer's module.
//
// `addLayerField` puts a field into a layer before any stage has read the list: a test defines a field
// the product does not have (tcp.urgent_pointer) and shows that every stage picks it up. Once a stage
// has read the list (the registry, the decoder, the prologue and the binding read it when first
// imported) it is fixed, and adding to it throws rather than leave the stages disagreeing.
import { ICMP_LAYER } from './icmp.js';
import { IP_LAYER } from './ip.js';
import type { Layer, LayerField } from './layer.js';
import { COLO_LAYER, LOCATION_LAYER } from './location.js';
import { TCP_LAYER } from './tcp.js';
import { UDP_LAYER } from './udp.js';

export const PRODUCT_LAYERS: readonly Layer[] = [IP_LAYER, LOCATION_LAYER, TCP_LAYER, UDP_LAYER, ICMP_LAYER, COLO_LAYER];

const added = new Map<string, LayerField[]>();
let fixed: readonly LayerField[] | null = null;

/** Adds `field` to the layer named `layer` (ip, tcp, udp, icmp, ...); only before any stage has read the fields. */
export function addLayerField(layer: string, field: LayerField): void {
  if (fixed !== null) throw new Error(`the layers' fields were read already: add ${field.entry.name} before importing a stage`);
  if (!PRODUCT_LAYERS.some((l) => l.name === layer)) throw new Error(`no layer ${layer}`);
  added.set(layer, [...(added.get(layer) ?? []), field]);
}

/** Every layer's fields in the registry's order (read once: the list is then fixed). */
export function layerFields(): readonly LayerField[] {
  fixed ??= [
    ...PRODUCT_LAYERS.flatMap((l: Layer) => [...l.fields, ...(added.get(l.name) ?? [])]),
    ...PRODUCT_LAYERS.flatMap((l: Layer) => (l.bytes === undefined ? [] : [l.bytes])),
    ...PRODUCT_LAYERS.flatMap((l: Layer) => l.payload ?? []),
  ];
  return fixed;
}

let placed: ReadonlyMap<string, LayerField> | null = null;
let values: readonly LayerField[] | null = null;

/** The fields read at a fixed place in a header (`at`), by name (made once, as the list is fixed). */
export function placedFields(): ReadonlyMap<string, LayerField> {
  placed ??= new Map(layerFields().filter((f) => f.at !== undefined).map((f) => [f.entry.name, f]));
  return placed;
}

/**
 * The fields read at a fixed place in a header that have no record property of their own: each keeps
 * its value in the record's `layerValues`, at its place here (made once: every PacketRecord sizes its
 * `layerValues` by it).
 */
export function layerValueFields(): readonly LayerField[] {
  values ??= layerFields().filter((f) => f.at !== undefined && f.record === undefined);
  return values;
}

/** Where a placed field without a record property keeps its value: its index in PacketRecord.layerValues. */
export function layerValueIndex(f: LayerField): number {
  return layerValueFields().indexOf(f);
}

export type { Header, HeaderSlot, Layer, LayerField, RecordSlot } from './layer.js';
export { headerOf, slotOf, slotSource, writeSlot } from './layer.js';
export type { FieldEntry, FieldKind, FieldPart, Lookup, Transport } from './field-entry.js';
