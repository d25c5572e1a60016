// How a compiled expression reads a packet. The Rules language does not know what a packet is:
// whoever compiles an expression passes a Binding that maps each scheme field to an accessor over
// its own packet type P (fields/binding.ts binds PacketRecord for the firewall phase; tests bind plain
// objects). Accessors return plain numbers or preallocated/interned arrays, so evaluation
// allocates nothing. `has` false means the field is absent for this packet.

export type FieldType = 'Bool' | 'Int' | 'Ip' | 'Bytes';

export interface BoolAccess<P> {
  type: 'Bool';
  has(p: P): boolean;
  get(p: P): boolean;
}

export interface IntAccess<P> {
  type: 'Int';
  has(p: P): boolean;
  get(p: P): number;
}

export interface IpAccess<P> {
  type: 'Ip';
  has(p: P): boolean;
  /** 4 or 6 */
  family(p: P): number;
  /** the IPv4 address as an unsigned 32-bit number (when family is 4) */
  v4(p: P): number;
  /** the IPv6 address as four unsigned 32-bit words, most significant first (when family is 6) */
  v6(p: P): Uint32Array;
}

/** A byte-string value is bytes(p)[start(p) .. end(p)), so views need no allocation. */
export interface BytesAccess<P> {
  type: 'Bytes';
  has(p: P): boolean;
  bytes(p: P): Uint8Array;
  start(p: P): number;
  end(p: P): number;
}

export type FieldAccess<P> = BoolAccess<P> | IntAccess<P> | IpAccess<P> | BytesAccess<P>;

/** Accessors by Rules-language field name. */
export type Binding<P> = Readonly<Record<string, FieldAccess<P>>>;

// Array and Map fields exist in the engine (and in the documented vectors) but not in the
// firewall scheme. They are bound as whole values of plain data; evaluating them may allocate.

/** An IP address inside a compound value. */
export type IpElement = { readonly family: 4; readonly v4: number } | { readonly family: 6; readonly v6: Uint32Array };

/** An element of an Array or Map value: Bool, Int, Bytes, Ip, or a nested Array/Map. */
export type ElementValue = boolean | number | Uint8Array | IpElement | CompoundValue;

/** An Array value (JS array) or a Map value (keys are UTF-8 strings). */
export type CompoundValue = readonly ElementValue[] | ReadonlyMap<string, ElementValue>;

/** The elements of an Array value, or the values of a Map value, in order. */
export function elementsOf(v: CompoundValue): ElementValue[] {
  return Array.isArray(v) ? [...v] : [...(v as ReadonlyMap<string, ElementValue>).values()];
}

export interface CompoundAccess<P> {
  type: 'Array' | 'Map';
  has(p: P): boolean;
  get(p: P): CompoundValue;
}

/** A Binding that may also bind Array and Map fields (every Binding is one). */
export type SchemeBinding<P> = Readonly<Record<string, FieldAccess<P> | CompoundAccess<P>>>;
