// Value types of the Rules language. Primitive types are plain strings; Array<T> and Map<T> are
// small objects, so a type is plain data that compares structurally and prints two ways:
// `display` is the engine's Display (`Array<Bool>`, used in type-mismatch messages) and `debug`
// its derived Debug (`Array(CompoundType { layers: 0, len: 0, primitive: Bytes })`, used in
// "cannot perform this operation on type …" and "cannot access index …").
//
// Decision (not observable in the documented vectors): the engine's CompoundType packs the layers
// below the outer Array/Map into `len` (how many) and `layers` (a bit per layer, set for Map,
// innermost first); we print nested types that way.

export type Primitive = 'Bool' | 'Int' | 'Ip' | 'Bytes';
export type LangType = Primitive | { readonly array: LangType } | { readonly map: LangType };

export const ArrayOf = (t: LangType): LangType => ({ array: t });
export const MapOf = (t: LangType): LangType => ({ map: t });

export function isPrimitive(t: LangType): t is Primitive {
  return typeof t === 'string';
}

/** The element type of an Array or Map; undefined for primitives. */
export function elementOf(t: LangType): LangType | undefined {
  if (isPrimitive(t)) return undefined;
  return 'array' in t ? t.array : t.map;
}

export function isArray(t: LangType): boolean {
  return !isPrimitive(t) && 'array' in t;
}

export function isMap(t: LangType): boolean {
  return !isPrimitive(t) && 'map' in t;
}

export function sameType(a: LangType, b: LangType): boolean {
  if (isPrimitive(a) || isPrimitive(b)) return a === b;
  if (isArray(a) !== isArray(b)) return false;
  return sameType(elementOf(a)!, elementOf(b)!);
}

export function display(t: LangType): string {
  if (isPrimitive(t)) return t;
  return `${isArray(t) ? 'Array' : 'Map'}<${display(elementOf(t)!)}>`;
}

export function debug(t: LangType): string {
  if (isPrimitive(t)) return t;
  let inner = elementOf(t)!;
  let len = 0;
  let layers = 0;
  while (!isPrimitive(inner)) {
    if (isMap(inner)) layers |= 1 << len;
    len++;
    inner = elementOf(inner)!;
  }
  return `${isArray(t) ? 'Array' : 'Map'}(CompoundType { layers: ${layers}, len: ${len}, primitive: ${inner} })`;
}

export const BOOL_ARRAY: LangType = ArrayOf('Bool');
