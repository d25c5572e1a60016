// Where a rule named in a report is written: a rule's ref (as every report names it) to its place in
// the user's file, through the snapshot's rulesets and the file's RuleLocator.
import type { RuleLocator, SourceLocation } from '../config/location.js';
import type { Snapshot } from '../config/snapshot.js';
import { ruleRef, rulesetName } from '../firewall/firewall.js';

/** A rule's place by its ref; undefined for a ref of no firewall rule (an ATP rule or filter) or an input without places. */
export type RefLocator = (ref: string) => SourceLocation | undefined;

/** The place of the first firewall rule with the ref (a ref names one rule in a valid snapshot). */
export function refLocator(snapshot: Snapshot, locate: RuleLocator): RefLocator {
  let places: Map<string, [number, number]> | undefined;
  return (ref) => {
    if (places === undefined) {
      places = new Map();
      (snapshot.rulesets ?? []).forEach((rs, i) => {
        const name = rulesetName(rs, i);
        (rs.rules ?? []).forEach((rule, j) => {
          const r = ruleRef(rule, name, j);
          if (!places!.has(r)) places!.set(r, [i, j]);
        });
      });
    }
    const at = places.get(ref);
    return at === undefined ? undefined : locate(at[0], at[1]);
  };
}
