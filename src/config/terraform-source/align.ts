// Which item of a .tf resource each of its rules in the JSON comes from. A `rules` block or list
// element gives one rule; a `dynamic "rules"` block, a `[for …]` list or an unreadable value gives any
// number (known only to Terraform). The rules' expressions as the JSON has them decide: an item
// whose expression is a plain string takes only a rule with that expression, one with
// interpolations a rule whose expression fits its literal parts, one without a string any rule.
// The first assignment that accounts for every rule in order is taken; there is none when the
// .tf files are not what the JSON was made from.
import type { RuleItem } from './ruleset-blocks.js';

/** Text compared with its runs of white space as one space, and without them at its ends. */
const spaced = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Whether a rule whose expression is `expression` (undefined: not known) can come from `item`. */
function fits(item: RuleItem): (expression: string | undefined) => boolean {
  const string = item.expression?.string;
  if (string === undefined) return () => true;
  if (string.value !== undefined) {
    const value = spaced(string.value);
    return (e) => e === undefined || spaced(e) === value;
  }
  const pattern = new RegExp(`^${string.literals.map((l) => spaced(l).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
  return (e) => e === undefined || pattern.test(spaced(e));
}

const REPEATS = new Set(['dynamic', 'for', 'opaque']);

/**
 * The index in `items` of each rule of `expressions` (in order), or undefined when no assignment
 * accounts for all of them. Work: at most items × rules steps (each state is tried once).
 */
export function alignRules(items: readonly RuleItem[], expressions: ReadonlyArray<string | undefined>): number[] | undefined {
  const tests = items.map(fits);
  const n = expressions.length;
  const failed = new Set<number>();
  const assigned: number[] = [];
  /** whether items i… can take rules j…, filling `assigned` on the way */
  const walk = (i: number, j: number): boolean => {
    if (i === items.length) return j === n;
    const key = i * (n + 1) + j;
    if (failed.has(key)) return false;
    const repeats = REPEATS.has(items[i]!.kind);
    if (j < n && tests[i]!(expressions[j])) {
      assigned[j] = i;
      if (walk(repeats ? i : i + 1, j + 1)) return true;
    }
    if (repeats && walk(i + 1, j)) return true;
    failed.add(key);
    return false;
  };
  return walk(0, 0) ? assigned.slice(0, n) : undefined;
}
