// A smallest set of earlier rules that together cover a rule's region (for `blocked_by`).
// Set cover is NP-hard, so: start from the regions the unreachability proof itself used (space.ts
// reports them; they cover the region), make that set inclusion-minimal (drop each one the others
// make redundant); then, when it has more than one member and at most EXACT_LIMIT candidates
// overlap the region, search the smaller subsets of those in increasing size, so the set returned
// has minimum cardinality. Above the limit the set
// is inclusion-minimal but not proved minimum. Every step spends from the rule's budget; when it
// runs out, the set found so far is returned (it covers the region) with `minimal: false`.
import { Budget, withinBudget } from './budget.js';
import { type Region, firstOutside, regionsOverlap } from './space.js';

export const EXACT_LIMIT = 12;

export interface Cover {
  /** indexes into the candidates */
  readonly indexes: number[];
  /** false: the work limit stopped the search for a smaller set */
  readonly minimal: boolean;
}

function* combinations(n: number, k: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let i = start; i <= n - (k - prefix.length); i++) yield* combinations(n, k, i + 1, [...prefix, i]);
}

/** A smallest subset of `candidates` covering `target`; `proof`: indexes of candidates known to cover it together. */
export function smallestCover(target: Region, candidates: readonly Region[], proof: readonly number[], budget = new Budget(Infinity)): Cover {
  let chosen = [...proof].sort((x, y) => x - y);
  const coveredBy = (indexes: readonly number[]): boolean =>
    firstOutside(
      target,
      indexes.map((i) => candidates[i]!),
      budget,
    ) === null;
  return withinBudget(
    (): Cover => {
      for (let k = chosen.length - 1; k >= 0; k--) {
        const without = chosen.filter((i) => i !== chosen[k]);
        if (coveredBy(without)) chosen = without;
      }
      if (chosen.length <= 1) return { indexes: chosen, minimal: true };
      const overlapping = candidates.flatMap((c, i) => (regionsOverlap(target, c, budget) ? [i] : []));
      if (overlapping.length > EXACT_LIMIT) return { indexes: chosen, minimal: true };
      for (let size = 1; size < chosen.length; size++) {
        for (const combo of combinations(overlapping.length, size)) {
          const indexes = combo.map((j) => overlapping[j]!);
          if (coveredBy(indexes)) return { indexes, minimal: true };
        }
      }
      return { indexes: chosen, minimal: true };
    },
    () => ({ indexes: chosen, minimal: false }),
  );
}
