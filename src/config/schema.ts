// One validator for every configuration object, wherever it comes from: an API request body (the
// mock server plugs it into fastify as the validator compiler) or a snapshot file (the loader runs
// it over the whole document). Schemas are plain JSON Schema documents using a small subset of the
// vocabulary (type, properties, required, additionalProperties, enum, lengths, items, format,
// default), so they read like the vendor's OpenAPI and could be published as such.
//
// Why not a general JSON Schema engine: the messages are part of the product. A user must read
// `rulesets[0].rules[2].expression: <the Rules-language error>` or `prefix: "10.0.0.1/24": host bits
// are set (did you mean 10.0.0.0/24?)`, with the JSON path, the value's actual type, and unknown
// keys named. The subset is small, and owning it keeps the wording identical on both paths.
//
// `parseWithSchema` never mutates its input: it returns a normalised copy with defaults filled and vendor
// aliases mapped to the canonical spelling (`x-aliases`), plus the issues found (not just the first):
// the first MAX_ISSUES in full, the rest only counted, so a hostile document (300,000 unknown keys)
// costs a count, not 300,000 messages.

import { printable } from '../terminal-text.js';

/** A path into a JSON document: object keys and array indexes. */
export type JsonPath = ReadonlyArray<string | number>;

/** What kind of problem an issue is; stable, so the API can map each to an error code. */
export type IssueKind =
  | 'invalid_type'
  | 'required'
  | 'unknown_key'
  | 'invalid_value'
  | 'too_long'
  | 'too_many'
  | 'invalid_address'
  | 'invalid_expression'
  | 'conflict'
  | 'not_found';

/** One problem in a document: where, what kind, and a message for a person. */
export interface Issue {
  path: JsonPath;
  kind: IssueKind;
  message: string;
}

/** A named semantic check on a string (CIDR, expression...): null when fine, else the problem. */
export type FormatCheck = (value: string) => { kind: IssueKind; message: string } | null;

/**
 * A named check across the fields of one object (`x-check`), for rules a field-by-field schema
 * cannot say (an action that needs parameters, duplicate names). It sees the normalised object and
 * reports issues with full paths. It runs even when fields have issues (so a file's problems are all
 * reported at once), so it must tolerate invalid field values.
 */
export type ObjectCheck = (value: Record<string, unknown>, path: JsonPath) => Issue[];

/** The named formats and object checks a set of schemas refers to. */
export interface Vocabulary {
  formats: Readonly<Record<string, FormatCheck>>;
  checks: Readonly<Record<string, ObjectCheck>>;
}

/** The JSON Schema subset the validator understands. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'boolean' | 'integer';
  description?: string;
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: false;
  enum?: readonly string[];
  /** accepted spellings mapped to the canonical enum value (e.g. magic_transit -> edge_transit) */
  'x-aliases'?: Readonly<Record<string, string>>;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  format?: string;
  /** the name of an ObjectCheck run on the normalised object */
  'x-check'?: string;
  default?: unknown;
  readOnly?: boolean;
}

/** `rulesets[0].rules[2].expression`; the root is `(root)`; a key that is not plain text is quoted, `["a\\nb"]`. */
export function dottedPath(path: JsonPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : !plainKey(part) ? `[${printable(JSON.stringify(part))}]` : out === '' ? part : `.${part}`;
  return out === '' ? '(root)' : out;
}

/** A key written as it is in a path: no control character, not empty, not starting with white space or `:` (terminal-text.ts). */
const plainKey = (key: string): boolean => key !== '' && printable(key) === key && !/^[\s:]/.test(key);

/** RFC 6901 JSON pointer: `/rulesets/0/rules/2/expression`. */
export function jsonPointer(path: JsonPath): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The JSON type name of a value, as messages show it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** How many issues a validation keeps in full; the rest are counted in `omitted`. */
export const MAX_ISSUES = 20;

const quote = (s: string): string => JSON.stringify(s);

/**
 * `obj[key] = value` as JSON.parse does it: a key named `__proto__` becomes an own property, where
 * an assignment would call Object.prototype's setter and replace the copy's prototype instead.
 */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

class Parser {
  readonly issues: Issue[] = [];
  omitted = 0;
  constructor(private readonly vocabulary: Vocabulary) {}

  private add(path: JsonPath, kind: IssueKind, message: string): void {
    this.push({ path, kind, message });
  }

  private push(issue: Issue): void {
    if (this.issues.length < MAX_ISSUES) this.issues.push(issue);
    else this.omitted++;
  }

  value(schema: JsonSchema, value: unknown, path: JsonPath): unknown {
    if (schema.type && jsonType(value) !== schema.type) {
      this.add(path, 'invalid_type', `must be ${schema.type === 'array' || schema.type === 'object' || schema.type === 'integer' ? 'an' : 'a'} ${schema.type} (got ${jsonType(value)})`);
      return value;
    }
    if (Array.isArray(value)) return this.array(schema, value, path);
    if (typeof value === 'object' && value !== null) return this.object(schema, value as Record<string, unknown>, path);
    if (typeof value === 'string') return this.string(schema, value, path);
    if (typeof value === 'number') this.number(schema, value, path);
    return value;
  }

  private object(schema: JsonSchema, value: Record<string, unknown>, path: JsonPath): Record<string, unknown> {
    const props = schema.properties ?? {};
    const out: Record<string, unknown> = {};
    let expected: string | undefined;
    for (const key of Object.keys(value)) {
      const sub = Object.hasOwn(props, key) ? props[key] : undefined;
      if (sub) setOwn(out, key, this.value(sub, value[key], [...path, key]));
      else if (schema.additionalProperties === false) {
        if (this.issues.length === MAX_ISSUES) this.omitted++;
        else {
          expected ??= Object.keys(props).join(', ');
          this.add([...path, key], 'unknown_key', `unknown key (expected one of: ${expected})`);
        }
      } else setOwn(out, key, value[key]);
    }
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(value, key)) this.add([...path, key], 'required', 'is required');
    }
    for (const [key, sub] of Object.entries(props)) {
      if (!Object.hasOwn(value, key) && sub.default !== undefined) out[key] = structuredClone(sub.default);
    }
    const checkName = schema['x-check'];
    if (checkName) {
      const check = this.vocabulary.checks[checkName];
      if (!check) throw new Error(`schema uses unknown check ${quote(checkName)}`);
      for (const issue of check(out, path)) this.push(issue);
    }
    return out;
  }

  private array(schema: JsonSchema, value: unknown[], path: JsonPath): unknown[] {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      this.add(path, 'too_many', `must have at most ${schema.maxItems} items (got ${value.length})`);
      return value;
    }
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      this.add(path, 'invalid_value', `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
    }
    const items = schema.items;
    return items ? value.map((v, i) => this.value(items, v, [...path, i])) : value.slice();
  }

  private string(schema: JsonSchema, value: string, path: JsonPath): string {
    let v = value;
    const aliases = schema['x-aliases'];
    if (aliases && Object.hasOwn(aliases, v)) v = aliases[v];
    if (schema.enum && !schema.enum.includes(v)) {
      const accepted = [...schema.enum, ...Object.keys(schema['x-aliases'] ?? {})];
      this.add(path, 'invalid_value', `must be one of ${accepted.map(quote).join(', ')} (got ${quote(value)})`);
      return v;
    }
    if (schema.maxLength !== undefined && v.length > schema.maxLength) {
      this.add(path, 'too_long', `must be at most ${schema.maxLength} characters long (got ${v.length})`);
      return v;
    }
    if (schema.minLength !== undefined && v.length < schema.minLength) {
      this.add(path, 'invalid_value', schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long`);
      return v;
    }
    if (schema.format) {
      const check = this.vocabulary.formats[schema.format];
      if (!check) throw new Error(`schema uses unknown format ${quote(schema.format)}`);
      const problem = check(v);
      if (problem) this.add(path, problem.kind, problem.message);
    }
    return v;
  }

  private number(schema: JsonSchema, value: number, path: JsonPath): void {
    if (schema.minimum !== undefined && value < schema.minimum) this.add(path, 'invalid_value', `must be at least ${schema.minimum} (got ${value})`);
    if (schema.maximum !== undefined && value > schema.maximum) this.add(path, 'invalid_value', `must be at most ${schema.maximum} (got ${value})`);
  }
}

/**
 * Validates `value` against `schema`; returns a normalised copy (defaults filled, aliases mapped),
 * the first MAX_ISSUES issues found and how many more were `omitted`. `vocabulary` supplies the
 * checks named by `format` and `x-check`.
 */
export function parseWithSchema(
  schema: JsonSchema,
  value: unknown,
  vocabulary: Vocabulary,
  path: JsonPath = [],
): { value: unknown; issues: Issue[]; omitted: number } {
  const parser = new Parser(vocabulary);
  const out = parser.value(schema, value, path);
  return { value: out, issues: parser.issues, omitted: parser.omitted };
}
