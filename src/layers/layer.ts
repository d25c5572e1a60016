// A protocol layer, as gopacket keeps one: the fields read from its header, each with everything a
// stage needs of it in one entry. The registry entry (field-entry.ts) says what the field is; `at`
// says where it sits in its header (offset, width, mask), and from that one place the decoder
// (capture/decode/) and the fast path's prologue (fastpath/headers.ts) read it, the record binding
// (fields/binding.ts) binds it, the suites' builder (suite/packet-builder.ts) writes it and the
// analysis' witness (analysis/witness.ts) gives it a value. A field whose reading takes more than an
// offset (addresses, ip.proto after IPv6's extension headers, ip.len's zero length, the countries
// looked up) keeps its entry here and its code in the stage, as `at` absent says.
// Imports nothing outside this folder.
import type { FieldEntry } from './field-entry.js';

/** Where a value sits in its header: `bytes` big-endian bytes from `offset`, then `& mask`. */
export interface HeaderSlot {
  readonly offset: number;
  readonly bytes: 1 | 2 | 4;
  readonly mask?: number;
}

/**
 * The PacketRecord property the decoder keeps a product field's value in (the record's other
 * readers, protection and the outputs, use it by name); a field without one keeps its value in the
 * record's `layerValues`, at its place in the registry's list of such fields.
 */
export type RecordSlot = 'ttl' | 'hdrLen' | 'optType' | 'srcPort' | 'dstPort' | 'tcpFlags' | 'icmpType' | 'icmpCode';

/** The header a field is read from: the IP header of either family, the IPv4 header, its options, a transport's. */
export type Header = 'ip' | 'ipv4' | 'ipv4-options' | 'tcp' | 'udp' | 'icmp';

export interface LayerField {
  readonly entry: FieldEntry;
  /**
   * where the value sits: in a transport's header, or in the IP header of each family (`v4`, `v6`);
   * absent: the stage's own code reads and writes it
   */
  readonly at?: HeaderSlot | { readonly v4: HeaderSlot; readonly v6?: HeaderSlot };
  readonly record?: RecordSlot;
  /** values a witness prefers, as ordinary traffic has them (TTL 64, port 443), before the least of its class */
  readonly usual?: readonly number[];
  /** the value a suite's packet takes when it gives none (absent: 0) */
  readonly default?: number;
}

export interface Layer {
  readonly name: string;
  /** the fields read from its header (or looked up for it) */
  readonly fields: readonly LayerField[];
  /** its bytes as captured (`tcp`), listed after every layer's fields */
  readonly bytes?: LayerField;
  /** fields read from its payload (`sip`), listed last */
  readonly payload?: readonly LayerField[];
}

/** A field's slot in a header of IP version `family` (4 or 6), if it has one there. */
export function slotOf(field: LayerField, family: 4 | 6): HeaderSlot | undefined {
  const at = field.at;
  if (at === undefined) return undefined;
  return 'offset' in at ? at : family === 4 ? at.v4 : at.v6;
}

/** The slot's value as JavaScript source over the bytes `d` from offset `base` (a local's name or an expression). */
export function slotSource(slot: HeaderSlot, d: string, base: string): string {
  const byte = (i: number): string => `${d}[${base}${slot.offset + i === 0 ? '' : ` + ${slot.offset + i}`}]`;
  const value =
    slot.bytes === 1 ? byte(0) : slot.bytes === 2 ? `(${byte(0)} << 8) | ${byte(1)}` : `((${byte(0)} << 24) | (${byte(1)} << 16) | (${byte(2)} << 8) | ${byte(3)}) >>> 0`;
  return slot.mask === undefined ? value : `(${value}) & ${slot.mask}`;
}

/** Writes `value` into the slot of the header at b[base], keeping the bits outside its mask. */
export function writeSlot(b: Uint8Array, base: number, slot: HeaderSlot, value: number): void {
  const mask = slot.mask ?? (slot.bytes === 4 ? 0xffffffff : (1 << (8 * slot.bytes)) - 1);
  for (let i = 0; i < slot.bytes; i++) {
    const shift = 8 * (slot.bytes - 1 - i);
    const m = (mask >>> shift) & 0xff;
    const o = base + slot.offset + i;
    b[o] = (b[o]! & ~m) | ((value >>> shift) & m);
  }
}

/** The header a field is read from, by the part of the packet the registry says it is in. */
export function headerOf(field: LayerField): Header | undefined {
  const part = field.entry.part;
  return part === 'country' || part === 'asn' || part === 'colo' ? undefined : part;
}
