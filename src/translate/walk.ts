// Translating a Rules-language expression into another filter language (BPF for tcpdump, Wireshark
// display filters for tshark) so that edgesim can be measured against those tools on the same
// capture, and so that `edgesim explain --bpf / --display-filter` can show the equivalent. The
// logical structure is the same in every target (and / or / not / parentheses; xor is spelled out
// as (a and not b) or (not a and b)); what differs is each comparison, which a Dialect translates or
// refuses with the exact reason. A translation is exact or it is not given.
//
// The Rules language's absent-field rule carries over as it is: a comparison on a field the packet
// does not have is false, except `!=`, which is true; so `f != v` is translated as `not (f == v)`,
// and every positive comparison is written so that it is false on a packet without the field.
import { parse, settingsFor, FilterError, type ComparisonExpr, type Expr } from '../lang/index.js';
import { FIELD_REGISTRY, lookupOf, type FieldEntry, type Lookup } from '../field-registry.js';

export class Untranslatable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Untranslatable';
  }
}

export interface Dialect {
  /** the target's name in messages: "BPF", "a display filter" */
  readonly name: string;
  readonly and: string;
  readonly or: string;
  readonly not: string;
  /** a comparison other than `!=` (which the walker turns into not(==)); throws Untranslatable */
  comparison(c: ComparisonExpr, field: string): string;
}

/** where a looked-up field's value comes from; a data center's name or region, by its unit ("region code") */
const LOOKUP_SOURCES: Readonly<Record<Lookup, (f: FieldEntry) => string>> = {
  country: () => 'a GeoIP lookup',
  asn: () => 'an ASN lookup',
  colo: (f) => `the ingress ${f.unit.replace(/ code$/, '')}, which is not in the packet`,
};
const LOOKUP_FIELDS = new Map(FIELD_REGISTRY.flatMap((f) => {
  const lookup = lookupOf(f);
  return lookup === undefined ? [] : [[f.name, LOOKUP_SOURCES[lookup](f)] as const];
}));

function comparison(c: ComparisonExpr, d: Dialect): string {
  if (c.lhs.base.kind === 'call') throw new Untranslatable(`function ${c.lhs.base.name}() has no ${d.name} equivalent`);
  const field = c.lhs.base.name;
  if (c.lhs.indexes.length > 0) throw new Untranslatable(`indexing ${field} has no ${d.name} equivalent`);
  const lookup = LOOKUP_FIELDS.get(field);
  if (lookup !== undefined) throw new Untranslatable(`${field} has no ${d.name} equivalent (its value comes from ${lookup})`);
  if (c.op.kind === 'inList') throw new Untranslatable(`list $${c.op.name} has no ${d.name} equivalent (its contents live in the configuration)`);
  if (c.op.kind === 'ordering' && c.op.op === 'ne') {
    return `${d.not} (${d.comparison({ ...c, op: { ...c.op, op: 'eq' } }, field)})`;
  }
  return d.comparison(c, field);
}

function walk(e: Expr, d: Dialect): string {
  switch (e.kind) {
    case 'group':
      return `(${walk(e.expr, d)})`;
    case 'not':
      return `${d.not} (${walk(e.arg, d)})`;
    case 'quantifier':
      throw new Untranslatable(`${e.which}() has no ${d.name} equivalent`);
    case 'comparison':
      return `(${comparison(e, d)})`;
    case 'combining': {
      const items = e.items.map((i) => walk(i, d));
      if (e.op !== 'xor') return items.join(` ${e.op === 'and' ? d.and : d.or} `);
      return items.reduce((a, b) => `((${a} ${d.and} ${d.not} ${b}) ${d.or} (${d.not} ${a} ${d.and} ${b}))`);
    }
  }
}

/**
 * The translation of a firewall-phase expression into `dialect`. Throws FilterError when the
 * expression is not valid Rules language, Untranslatable (with the reason) when it has no exact equivalent.
 */
export function translate(expression: string, dialect: Dialect): string {
  const { scheme, limits } = settingsFor('rule');
  return walk(parse(expression, scheme, limits).expr, dialect);
}

export { FilterError };
