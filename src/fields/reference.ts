// What each firewall-phase field means, for users: its type, its unit and what edgesim's decoder
// puts in it (src/capture/decode/, bound in binding.ts), including when the field is absent.
// `edgesim fields` prints it and docs/fields.md carries the same table; both are the field registry's
// (src/field-registry.ts), in its order.
import { FIELD_REGISTRY, fieldType, type FieldType } from '../field-registry.js';

export interface FieldReference {
  readonly name: string;
  readonly type: FieldType;
  /** what a value counts or names */
  readonly unit: string;
  readonly meaning: string;
}

export const FIELD_REFERENCE: readonly FieldReference[] = FIELD_REGISTRY.map((f) => ({ name: f.name, type: fieldType(f), unit: f.unit, meaning: f.meaning }));
