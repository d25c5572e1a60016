// Limits the vendor applies by default but raises for some accounts (today: 200 rules per ruleset).
// The API enforces them, as the vendor does for an account with the defaults; a snapshot past them
// may come from an account with raised limits, so it is replayed, with a warning saying which
// ruleset is past which default.
import { LIMITS } from './resources.js';
import type { Snapshot } from './snapshot.js';

/** One warning per ruleset holding more rules than the vendor's default maximum. */
export function vendorLimitWarnings(snapshot: Snapshot): string[] {
  return (snapshot.rulesets ?? []).flatMap((rs, i) => {
    const count = rs.rules?.length ?? 0;
    if (count <= LIMITS.rulesPerRuleset) return [];
    return [`rulesets[${i}] (${JSON.stringify(rs.name)}) has ${count} rules, more than the vendor's default maximum of ${LIMITS.rulesPerRuleset} per ruleset (raised only for some accounts); replaying all of them`];
  });
}
