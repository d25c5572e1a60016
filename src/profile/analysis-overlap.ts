// The reordering advice's overlap check from the ruleset analysis (src/analysis): two rules may
// overlap unless the analysis proves no packet matches both. explain(snapshot, ref) lists the
// earlier enabled rules that certainly or possibly share packets with a rule, so a rule absent from
// that list is proved disjoint from it. For a rule the analysis cannot name (refs not unique, or a
// rule it rejects) the conservative local check (overlap.ts provablyDisjoint) answers instead.
import { explain, type ModelOptions } from '../analysis/index.js';
import type { Snapshot } from '../config/snapshot.js';
import { canSwapUnless, provablyDisjoint, type CanSwap } from './overlap.js';

export function analysisCanSwap(snapshot: Snapshot, refs: readonly string[], options: ModelOptions = {}): CanSwap {
  const unique = new Set(refs).size === refs.length;
  const earlier = new Map<string, Set<string> | null>();
  const overlapsOf = (ref: string): Set<string> | null => {
    if (!unique) return null;
    if (!earlier.has(ref)) {
      try {
        earlier.set(ref, new Set(explain(snapshot, ref, options).overlaps.map((o) => o.rule)));
      } catch {
        earlier.set(ref, null);
      }
    }
    return earlier.get(ref)!;
  };
  return canSwapUnless((a, b) => {
    const ofA = overlapsOf(a.ref);
    const ofB = overlapsOf(b.ref);
    if (ofA === null || ofB === null) return !provablyDisjoint(a.expression, b.expression);
    return ofA.has(b.ref) || ofB.has(a.ref);
  });
}
