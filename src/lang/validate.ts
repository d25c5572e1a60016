// Validation as the configuration API does it: the firewall scheme and a 4,096-character limit
// for rule expressions, the ATP filter scheme and 8,192 characters for filter expressions, and
// the complexity limit for both. List names are not checked, as the engine does not check them
// (lists.ts): the answer is the engine's, byte for byte.
import { DEFAULT_COMPLEXITY_LIMIT } from './complexity.js';
import { FilterError } from './errors.js';
import { parse, type Limits } from './parse.js';
import type { Scheme } from './scheme.js';
import { FILTER_SCHEME, FIREWALL_SCHEME } from './schemes.js';

export type ExpressionKind = 'rule' | 'filter';

const KINDS: Record<ExpressionKind, { scheme: Scheme; maxLength: number }> = {
  rule: { scheme: FIREWALL_SCHEME, maxLength: 4096 },
  filter: { scheme: FILTER_SCHEME, maxLength: 8192 },
};

/** The scheme and limits for a kind of expression, with overrides. */
export function settingsFor(kind: ExpressionKind, limits: Limits = {}): { scheme: Scheme; limits: Limits } {
  const k = KINDS[kind];
  return { scheme: k.scheme, limits: { maxLength: k.maxLength, complexityLimit: DEFAULT_COMPLEXITY_LIMIT, ...limits } };
}

/** null if the expression is valid for its kind, else the error (never throws on bad input). */
export function validateExpression(expr: string, kind: ExpressionKind, limits?: Limits): FilterError | null {
  const { scheme, limits: effective } = settingsFor(kind, limits);
  try {
    parse(expr, scheme, effective);
    return null;
  } catch (err) {
    if (err instanceof FilterError) return err;
    throw err;
  }
}
