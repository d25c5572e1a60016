// The name every report gives a rule read from Terraform: its `ref` where the user set one; else
// its resource address with its description (or, without one, its action and expression), because
// the provider's examples and the vendor's suggested rulesets set no `ref`, a rule's ref is then its
// id in state, and a plan knows that id only after apply. Across a plan's two sides, rules are
// paired (rule-identity.ts) and a pair has one name on both sides: the ref the user set on either
// side, else the name of the rule in state.
import { oneLine } from '../deploy-checks.js';
import { LIMITS } from '../resources.js';
import { pairRules, sideRule } from './rule-identity.js';

/** The rules of one side of a ruleset resource, with each rule's id and ref as the provider wrote them. */
export interface RuleSide {
  rules: ReadonlyArray<Record<string, unknown>>;
  keys: ReadonlyArray<{ id: string | null; ref: string | null }>;
}

/** A ruleset's rule names on each side of a plan (or of a state: `before` only). */
export interface SideNames {
  before: string[];
  after: string[];
  /** per rule of each side: whether its name is a ref the user set */
  userRef: { before: boolean[]; after: boolean[] };
  /** rules of the after side whose id the plan knows only after apply and that have no ref of the user's, paired with rules in state by content and order */
  pairedByContent: number;
}

/** Characters of a description or expression in a made name, past which it is cut with "…". */
const LABEL_LENGTH = 80;

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

/** What names a rule without a ref: its description, else its action and expression, on one line. */
function label(rule: Record<string, unknown>): string {
  const description = typeof rule.description === 'string' ? oneLine(rule.description) : '';
  if (description !== '') return cut(description, LABEL_LENGTH);
  return cut(`${String(rule.action)} ${oneLine(String(rule.expression ?? ''))}`, LABEL_LENGTH);
}

/** A ref the user set: known, and not the id the API gave the rule (which a state writes as its ref). */
function userRef(keys: { id: string | null; ref: string | null }): string | null {
  return keys.ref !== null && keys.ref !== keys.id ? keys.ref : null;
}

/** `name`, or `name (2)`, `name (3)`... whichever is not yet in `used`; added to it. */
function unique(name: string, used: Set<string>): string {
  let out = name;
  for (let n = 2; used.has(out); n++) out = `${name.slice(0, LIMITS.refLength - 8)} (${n})`;
  used.add(out);
  return out;
}

/** The names of a ruleset's rules on each side; `before` is the rules in state, `after` the planned ones (either may be absent). */
export function ruleNames(address: string, before: RuleSide | undefined, after: RuleSide | undefined): SideNames {
  const made = (rule: Record<string, unknown>): string => cut(`${address}: ${label(rule)}`, LIMITS.refLength - 8);
  const b = before ?? { rules: [], keys: [] };
  const a = after ?? { rules: [], keys: [] };
  const toBefore = before === undefined || after === undefined ? a.rules.map(() => undefined) : pairRules(b.rules.map((r, i) => sideRule(r, b.keys[i]!)), a.rules.map((r, j) => sideRule(r, a.keys[j]!)));
  const toAfter = new Map<number, number>();
  toBefore.forEach((i, j) => {
    if (i !== undefined) toAfter.set(i, j);
  });
  const used = new Set<string>();
  const refBefore = b.keys.map(userRef);
  const refAfter = a.keys.map(userRef);
  // the refs the user set come first: a made name never takes one
  for (const ref of [...refBefore, ...refAfter]) if (ref !== null) used.add(ref);
  const names = {
    before: b.rules.map((rule, i) => {
      const j = toAfter.get(i);
      return refBefore[i] ?? (j === undefined ? null : refAfter[j]) ?? unique(made(rule), used);
    }),
    after: [] as string[],
  };
  names.after = a.rules.map((rule, j) => {
    const i = toBefore[j];
    return refAfter[j] ?? (i === undefined ? unique(made(rule), used) : names.before[i]!);
  });
  const pairedByContent = before === undefined ? 0 : a.keys.filter((k, j) => k.id === null && refAfter[j] === null).length;
  return {
    ...names,
    userRef: {
      before: b.rules.map((_r, i) => refBefore[i] !== null || (toAfter.has(i) && refAfter[toAfter.get(i)!] !== null)),
      after: a.rules.map((_r, j) => refAfter[j] !== null),
    },
    pairedByContent,
  };
}
