// A smallest set of earlier rules that together cover a rule's region (for `blocked_by`).
// Set cover is NP-hard, so: first an inclusion-minimal set (start from every candidate that overlaps
// the region, drop each one the others make redundant); then, when at most EXACT_LIMIT candidates
// overlap the region, an exhaustive search over smaller subsets in increasing size, so the set
// returned has minimum cardinality. Above the limit the set is inclusion-minimal (no member can be
// dropped) but not proved minimum.
import { type Region, firstOutside } from './space.js';

export const EXACT_LIMIT = 12;

function coveredBy(target: Region, sets: readonly Region[]): boolean {
  return firstOutside(target, sets) === null;
}

function* combinations(n: number, k: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let i = start; i <= n - (k - prefix.length); i++) yield* combinations(n, k, i + 1, [...prefix, i]);
}

/** Indexes into `candidates` of a smallest covering subset; all of them together must cover `target`. */
export function smallestCover(target: Region, candidates: readonly Region[]): number[] {
  let chosen = candidates.map((_, i) => i);
  for (let k = chosen.length - 1; k >= 0; k--) {
    const without = chosen.filter((i) => i !== chosen[k]);
    if (coveredBy(target, without.map((i) => candidates[i]!))) chosen = without;
  }
  if (candidates.length > EXACT_LIMIT) return chosen;
  for (let size = 1; size < chosen.length; size++) {
    for (const combo of combinations(candidates.length, size)) {
      if (coveredBy(target, combo.map((i) => candidates[i]!))) return [...combo];
    }
  }
  return chosen;
}
