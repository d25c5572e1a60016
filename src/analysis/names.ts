// The finite domains of the name fields. Data-center names and regions are the fixed tables the
// enrichment assigns from (datasets/colos.json), so a name outside them can never match. Country
// codes come from a database the analysis does not read; their domain is the codes the analysed
// expressions mention plus one value standing for "any other code", which is exact for those
// expressions (no expression can tell two unmentioned codes apart); its index is the number of
// mentioned codes. -1 is "absent" in every name dimension.
import type { ComparisonExpr, Expr } from '../lang/index.js';
import { COLO_NAMES, REGIONS } from '../data/colos.js';
import { FIELD_REGISTRY, lookupOf } from '../field-registry.js';
import type { NameDomains } from './space.js';

const COUNTRY_FIELDS = new Set(FIELD_REGISTRY.filter((f) => lookupOf(f) === 'country').map((f) => f.name));
const latin1 = new TextDecoder('latin1');

/** A country code as packets carry it: two uppercase letters. Lowercase text never matches. */
export function countryProblem(text: string): string | null {
  return /[a-z]/.test(text) ? `country codes are uppercase ("${text.toUpperCase()}"); "${text}" never matches` : null;
}

export function walkComparisons(e: Expr, visit: (c: ComparisonExpr) => void): void {
  switch (e.kind) {
    case 'comparison':
      visit(e);
      return;
    case 'combining':
      for (const item of e.items) walkComparisons(item, visit);
      return;
    case 'not':
    case 'group':
    case 'quantifier':
      walkComparisons(e.kind === 'group' ? e.expr : e.arg, visit);
  }
}

function mentionedCountries(exprs: readonly Expr[]): string[] {
  const found = new Set<string>();
  const add = (bytes: Uint8Array): void => {
    const text = latin1.decode(bytes);
    if (countryProblem(text) === null) found.add(text);
  };
  for (const e of exprs) {
    walkComparisons(e, (c) => {
      if (c.lhs.base.kind !== 'field' || !COUNTRY_FIELDS.has(c.lhs.base.name)) return;
      if (c.op.kind === 'ordering' && c.op.rhs.type === 'Bytes') add(c.op.rhs.bytes);
      if (c.op.kind === 'inSet' && c.op.set.type === 'Bytes') c.op.set.items.forEach(add);
    });
  }
  return [...found].sort();
}

export class NameTables {
  readonly countries: readonly string[];
  private readonly countryIndex: Map<string, number>;
  private readonly coloIndex = new Map(COLO_NAMES.map((n, i) => [n, i]));
  private readonly regionIndex = new Map(REGIONS.map((n, i) => [n, i]));

  constructor(exprs: readonly Expr[]) {
    this.countries = mentionedCountries(exprs);
    this.countryIndex = new Map(this.countries.map((n, i) => [n, i]));
  }

  get domains(): NameDomains {
    return { countries: this.countries.length, coloNames: COLO_NAMES.length, coloRegions: REGIONS.length };
  }

  country(text: string): number | undefined {
    return this.countryIndex.get(text);
  }

  coloName(text: string): number | undefined {
    return this.coloIndex.get(text);
  }

  coloRegion(text: string): number | undefined {
    return this.regionIndex.get(text);
  }

  /** The text of a country index; "other" is the first two-letter code no expression mentions. */
  countryText(i: number): string {
    if (i < this.countries.length) return this.countries[i]!;
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        if (!this.countryIndex.has(code)) return code;
      }
    }
    return 'ZZ';
  }

  coloNameText(i: number): string | undefined {
    return COLO_NAMES[i];
  }

  coloRegionText(i: number): string | undefined {
    return REGIONS[i];
  }
}
