// Which rule of a ruleset after a change is which rule before it, when a rule has no name of its
// own. A Terraform plan knows a rule's id only where the provider can keep it (v5: rules whose `ref`
// is set; v4: none on update), and a rule without `ref` is named by its id in state: so the two
// sides of a plan cannot be paired by name alone. Rules are paired as a line diff pairs lines: by
// ref or id where both sides know it; then, in order, by longest common subsequence of what the
// rules are (action, expression, parameters, enabled, description), then of what they are but
// `enabled`, then of their description, then of their expression; what is left between two paired
// rules, as many on each side with the same actions, is the same rules changed (a diff's changed
// lines). A paired rule keeps one name on both sides.
import { isObject } from './document.js';

/** A rule as the pairing sees it. */
export interface SideRule {
  /** a name the user gave (`ref`), where this side knows it */
  ref: string | null;
  /** the API's id, where this side knows it */
  id: string | null;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  /** the action's parameters as canonical JSON */
  parameters: string;
}

/** A snapshot rule (already read from the provider's values) as the pairing sees it. */
export function sideRule(rule: Record<string, unknown>, keys: { id: string | null; ref: string | null }): SideRule {
  return {
    ref: keys.ref,
    id: keys.id,
    action: String(rule.action ?? ''),
    expression: typeof rule.expression === 'string' ? rule.expression.replace(/\s+/g, ' ').trim() : '',
    description: typeof rule.description === 'string' ? rule.description.trim() : '',
    enabled: rule.enabled !== false,
    parameters: canonical(rule.action_parameters),
  };
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return value === undefined ? '' : JSON.stringify(value);
}

type Key = (r: SideRule) => string | null;

/** The passes of content matching, strictest first; a null key pairs with nothing. */
const PASSES: readonly Key[] = [
  (r) => `${r.action}\0${r.expression}\0${r.parameters}\0${r.enabled}\0${r.description}`,
  (r) => `${r.action}\0${r.expression}\0${r.parameters}\0${r.description}`,
  (r) => (r.description === '' ? null : `${r.action}\0${r.description}`),
  (r) => (r.description === '' ? null : r.description),
  (r) => r.expression,
];

/** Cells of the longest-common-subsequence table past which pairing is greedy in order (memory bound). */
const LCS_CELLS = 4_000_000;

/** Pairs of positions of `a` and `b` whose keys are equal, in order, as many as can be (longest common subsequence). */
function commonSubsequence(a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  if ((n + 1) * (m + 1) > LCS_CELLS) return greedy(a, b);
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] !== null && a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] !== null && a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** In-order pairing of equal keys, each `b` with the first unpaired equal `a` after the last pair. */
function greedy(a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let from = 0;
  for (let j = 0; j < b.length; j++) {
    if (b[j] === null) continue;
    const i = a.indexOf(b[j]!, from);
    if (i < 0) continue;
    pairs.push([i, j]);
    from = i + 1;
  }
  return pairs;
}

/**
 * For each rule of `after`, the position of the same rule in `before`, or undefined for a rule the
 * change adds.
 */
export function pairRules(before: readonly SideRule[], after: readonly SideRule[]): Array<number | undefined> {
  const of: Array<number | undefined> = after.map(() => undefined);
  const taken = new Set<number>();
  const pair = (i: number, j: number): void => {
    of[j] = i;
    taken.add(i);
  };
  for (const name of ['ref', 'id'] as const) {
    const at = new Map<string, number>();
    before.forEach((r, i) => {
      if (r[name] !== null && !taken.has(i) && !at.has(r[name]!)) at.set(r[name]!, i);
    });
    after.forEach((r, j) => {
      const i = r[name] === null || of[j] !== undefined ? undefined : at.get(r[name]!);
      if (i !== undefined && !taken.has(i)) pair(i, j);
    });
  }
  for (const key of PASSES) {
    const left = before.map((_r, i) => i).filter((i) => !taken.has(i));
    const right = after.map((_r, j) => j).filter((j) => of[j] === undefined);
    for (const [x, y] of commonSubsequence(left.map((i) => key(before[i]!)), right.map((j) => key(after[j]!)))) pair(left[x]!, right[y]!);
  }
  pairChangedRuns(before, after, of, taken);
  return of;
}

/**
 * Between two consecutive paired rules (in order on both sides), unpaired runs of the same length
 * whose actions agree rule by rule are the same rules, changed.
 */
function pairChangedRuns(before: readonly SideRule[], after: readonly SideRule[], of: Array<number | undefined>, taken: Set<number>): void {
  let start = 0;
  let previous = -1;
  for (let j = 0; j <= after.length; j++) {
    if (j < after.length && of[j] === undefined) continue;
    const next = j < after.length ? of[j]! : before.length;
    if (j > start && next > previous) {
      const olds: number[] = [];
      for (let i = previous + 1; i < next; i++) if (!taken.has(i)) olds.push(i);
      const run = j - start;
      if (olds.length === run && olds.every((i, x) => before[i]!.action === after[start + x]!.action)) {
        olds.forEach((i, x) => {
          of[start + x] = i;
          taken.add(i);
        });
      }
    }
    previous = next;
    start = j + 1;
  }
}
