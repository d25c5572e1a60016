// What an editor offers and explains while an expression is written, each taken from where edgesim
// defines it: fields (type, unit, meaning, range) from the field registry, functions from the
// schemes, protocol keywords from the decoder's table, data centers and regions from the bundled
// table, managed lists from the language, country codes from ISO 3166-1 (named by the ICU data
// Node ships). Which values a field takes is said here once, for completion and hover alike.
import { protocolText } from '../../capture/protocols.js';
import { COLO_NAMES, findColo, REGIONS } from '../../data/colos.js';
import { readDataset } from '../../data/datasets.js';
import { FIELD_REGISTRY, fieldType, lookupOf, type FieldEntry } from '../../field-registry.js';
import { FILTER_SCHEME, FIREWALL_SCHEME, MANAGED_LISTS, type ExpressionKind, type FunctionDef, type Scheme } from '../../lang/index.js';

export const schemeOf = (kind: ExpressionKind): Scheme => (kind === 'filter' ? FILTER_SCHEME : FIREWALL_SCHEME);

/** The fields an expression of this kind may name, in the registry's order. */
export function fieldsOf(kind: ExpressionKind): FieldEntry[] {
  const scheme = schemeOf(kind);
  return FIELD_REGISTRY.filter((f) => scheme.field(f.name) !== undefined);
}

export function fieldEntry(name: string, kind: ExpressionKind): FieldEntry | undefined {
  return schemeOf(kind).field(name) === undefined ? undefined : FIELD_REGISTRY.find((f) => f.name === name);
}

export function functionsOf(kind: ExpressionKind): FunctionDef[] {
  const scheme = schemeOf(kind);
  return scheme.functionNames().map((n) => scheme.fn(n)!);
}

/** A field's values in words: its type and range. */
export function rangeText(f: FieldEntry): string {
  switch (f.kind) {
    case 'address':
      return 'an IPv4 or IPv6 address';
    case 'int':
      return `0 to ${f.max.toLocaleString('en-US')}`;
    case 'flag':
    case 'bool':
      return 'true or false';
    case 'raw':
      return 'bytes';
    case 'name':
      return 'text';
  }
}

/** One line naming a field for a list: type and unit. */
export function fieldDetail(f: FieldEntry): string {
  return `${fieldType(f)} · ${f.unit}`;
}

/** A field's meaning for a hover: name, type, unit, range, what it holds. */
export function fieldMarkdown(f: FieldEntry): string {
  const lookup = lookupOf(f);
  return [`**${f.name}** — ${fieldType(f)}, ${f.unit} (${rangeText(f)})`, '', f.meaning, ...(lookup === undefined ? [] : ['', `Looked up (${lookup}), not read from the packet.`])].join('\n');
}

export function functionMarkdown(fn: FunctionDef): string {
  return [`\`${fn.signature}\``, '', fn.summary].join('\n');
}

/** Keywords the Rules language reads between comparisons and before them. */
export const LOGICAL = ['and', 'or', 'xor', 'not'] as const;

/** The comparison operators a field of this type takes. */
export function operatorsFor(f: FieldEntry): string[] {
  switch (fieldType(f)) {
    case 'Int':
      return ['==', '!=', '<', '<=', '>', '>=', 'in', '&'];
    case 'Ip':
      return ['==', '!=', 'in', '<', '<=', '>', '>='];
    case 'Bytes':
      return ['==', '!=', 'in', 'contains', 'matches', 'wildcard', 'strict wildcard'];
    case 'Bool':
      return [];
  }
}

const NOT_COUNTRIES = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ'.split(' '));
let countries: Array<[code: string, name: string]> | undefined;

/** ISO 3166-1 alpha-2 codes (and XK, which GeoIP databases use for Kosovo), with their English names. */
export function countryCodes(): ReadonlyArray<[string, string]> {
  if (countries === undefined) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countries = [];
    for (let a = 65; a < 91; a++) {
      for (let b = 65; b < 91; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        if (name !== undefined && name !== code && !NOT_COUNTRIES.has(code)) countries.push([code, name]);
      }
    }
  }
  return countries;
}

/** A value a field takes, for completion: the text to write (quoted) and what it stands for. */
export interface FieldValue {
  text: string;
  detail: string;
}

let protocols: FieldValue[] | undefined;

/** The values a name field takes (ip.proto, countries, data centers, regions), or undefined for other fields. */
export function valuesOf(f: FieldEntry): readonly FieldValue[] | undefined {
  if (f.name === 'ip.proto') {
    protocols ??= Array.from({ length: 256 }, (_, n) => ({ text: protocolText(n), detail: `protocol ${n}` })).filter((p) => !/^\d+$/.test(p.text)).map((p) => ({ ...p, text: JSON.stringify(p.text) }));
    return protocols;
  }
  if (f.kind !== 'name') return undefined;
  const lookup = lookupOf(f);
  if (lookup === 'country') return countryCodes().map(([code, name]) => ({ text: JSON.stringify(code), detail: name }));
  if (f.name === 'cf.colo.name') return COLO_NAMES.map((n) => ({ text: JSON.stringify(n), detail: `data center in ${findColo(n)?.region ?? '?'}` }));
  if (f.name === 'cf.colo.region') return REGIONS.map((r) => ({ text: JSON.stringify(r), detail: 'region' }));
  return undefined;
}

/** A value of a name field in words, for a hover over it (`"KP"`: North Korea), or undefined. */
export function valueWords(field: string, value: string): string | undefined {
  const f = FIELD_REGISTRY.find((x) => x.name === field);
  if (f === undefined) return undefined;
  return valuesOf(f)?.find((v) => v.text === JSON.stringify(value))?.detail;
}

/** The managed lists as `$` names them: `cf.` and `svc.` spellings. */
export function managedListNames(): string[] {
  return ['cf', 'svc'].flatMap((ns) => MANAGED_LISTS.map((n) => `${ns}.${n}`));
}

const managedSizes = new Map<string, number>();

/** How many entries the bundled sample of a managed list holds (`cf.x` is `svc.x`). */
export function managedListSize(name: string): number | undefined {
  const list = /^(?:cf|svc)\.(.+)$/.exec(name)?.[1];
  if (list === undefined || !MANAGED_LISTS.includes(list)) return undefined;
  if (!managedSizes.has(list)) {
    const lines = readDataset(`lists/svc.${list}.txt`).split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    managedSizes.set(list, lines.length);
  }
  return managedSizes.get(list);
}
