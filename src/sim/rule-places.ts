// Where a rule named in a report is written: a rule's ref (as every report names it) to its place in
// the user's file, through the snapshot's rulesets and the file's RuleLocator; and how a report for
// people shows a rule whose ref is only the id the API gave it (no ref was set): by its description.
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

/** How reports for people show a rule, by its ref. */
export type RuleLabel = (ref: string) => string;

const API_ID = /^[0-9a-f]{32}$/;

/**
 * A rule's ref as people read it: a rule whose ref is the 32-hex id the API gave it (the vendor's
 * export of a rule without a ref) is shown by its description, else its action and expression, with
 * the id's first 8 digits; any other ref as it is. JSON and NDJSON keep the ref.
 */
export function ruleLabels(snapshot: Snapshot): RuleLabel {
  const labels = new Map<string, string>();
  (snapshot.rulesets ?? []).forEach((rs, i) => {
    const name = rulesetName(rs, i);
    (rs.rules ?? []).forEach((rule, j) => {
      const ref = ruleRef(rule, name, j);
      if (!API_ID.test(ref) || (rule.ref !== undefined && rule.ref !== rule.id) || labels.has(ref)) return;
      const text = (rule.description ?? '').trim() || `${rule.action} ${rule.expression.replace(/\s+/g, ' ').trim()}`;
      labels.set(ref, `${text.length > 80 ? `${text.slice(0, 79).trimEnd()}…` : text} (id ${ref.slice(0, 8)}…)`);
    });
  });
  return (ref) => labels.get(ref) ?? ref;
}
