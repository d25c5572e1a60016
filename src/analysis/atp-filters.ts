// ATP filters that can never apply. A filter decides the mode of its component for the TCP packets
// it matches whose destination (or, for egress, source) is a protected prefix; among matching
// filters an enabled one wins over a monitoring one, which wins over a disabled one. So a filter
// never applies when it matches no TCP packet to or from protected space, or when every such packet
// it may match is certainly matched by a filter of a stronger mode in the same component. Each
// filter is one question of the run's budget (budget.ts): one the limit leaves open is an
// `indeterminate` finding with the reason.
import { COMPONENT_NAMES } from '../protection-components.js';
import type { ProtectionFilter, Snapshot } from '../config/snapshot.js';
import { ProtectedSpace } from '../atp/protected-space.js';
import { AnalysisBudget, type Budget, withinBudget } from './budget.js';
import { expressionMeaning } from './expression.js';
import { point } from './intervals.js';
import type { Finding } from './findings.js';
import { type HeaderSpace, parseAt } from './model.js';
import { Dim, L4, type Region, constrain, firstOutside, intersectRegions, isEmptyRegion, unionRegions } from './space.js';
import { type Meaning, ipSetRanges } from './atoms.js';

const STRENGTH: Record<string, number> = { enabled: 0, monitoring: 1, disabled: 2 };

/** TCP packets to or from a protected prefix (ingress first: to one). */
export function protectedTraffic(snapshot: Snapshot, space: HeaderSpace): Region {
  const set = ipSetRanges(new ProtectedSpace(snapshot.prefixes, snapshot.allowlist).addresses);
  const tcp = point(L4.tcp);
  return unionRegions(
    constrain(space.universe, new Map([[Dim.l4, tcp], [Dim.dst, set]])),
    constrain(space.universe, new Map([[Dim.l4, tcp], [Dim.src, set]])),
  );
}

function restrict(m: Meaning, within: Region, budget?: Budget): Meaning {
  const must = intersectRegions(m.must, within, budget);
  return { must, may: m.must === m.may ? must : intersectRegions(m.may, within, budget) };
}

/** atp_filter_never_applies findings (and indeterminate ones, past the work limit) for both ATP components. */
export function atpFilterFindings(snapshot: Snapshot, space: HeaderSpace, run: AnalysisBudget = new AnalysisBudget()): Finding[] {
  const out: Finding[] = [];
  const traffic = protectedTraffic(snapshot, space);
  for (const component of COMPONENT_NAMES) {
    const filters: ProtectionFilter[] = snapshot[component]?.filters ?? [];
    const open: Array<string | null> = filters.map(() => null);
    const meanings = filters.map((f, i): Meaning => {
      const expr = parseAt(f.expression, 'filter', `${component}.filters[${i}].expression`).expr;
      const budget = run.question();
      return withinBudget(
        () => restrict(expressionMeaning(expr, { universe: space.universe, names: space.names, lists: () => undefined, notes: [], budget }), traffic, budget),
        (reason) => ((open[i] = reason), { must: [], may: traffic }),
      );
    });
    filters.forEach((f, i) => {
      const name = f.id ?? `${component}.filters[${i}]`;
      const report = (message: string, kind: Finding['kind'] = 'atp_filter_never_applies'): void => {
        out.push({ ruleset: component, rule: name, kind, blocked_by: [], different_action: false, witness: null, message });
      };
      if (isEmptyRegion(meanings[i]!.may)) {
        report(`filter ${name} (${f.mode}) matches no TCP packet to or from a protected prefix`);
        return;
      }
      const stronger = filters.flatMap((g, k) => ((STRENGTH[g.mode] ?? 3) < (STRENGTH[f.mode] ?? 3) ? [k] : []));
      const union = stronger.reduce<Region>((acc, k) => unionRegions(acc, meanings[k]!.must), []);
      const budget = run.question();
      const covered = withinBudget(
        () => stronger.length > 0 && firstOutside(meanings[i]!.may, [union], budget) === null,
        (reason) => ((open[i] ??= reason), false),
      );
      if (covered) report(`filter ${name} (${f.mode}) never applies: filters of a stronger mode match every packet it matches (${stronger.map((k) => filters[k]!.id ?? `${component}.filters[${k}]`).join(', ')})`);
      else if (open[i] !== null) report(`filter ${name} (${f.mode}): ${open[i]} before deciding whether it ever applies`, 'indeterminate');
    });
  }
  return out;
}
