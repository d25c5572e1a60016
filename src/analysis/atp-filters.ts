// ATP filters that can never apply. A filter decides the mode of its component for the TCP packets
// it matches whose destination (or, for egress, source) is a protected prefix; among matching
// filters an enabled one wins over a monitoring one, which wins over a disabled one. So a filter
// never applies when it matches no TCP packet to or from protected space, or when every such packet
// it may match is certainly matched by a filter of a stronger mode in the same component.
import type { ProtectionFilter, Snapshot } from '../config/snapshot.js';
import { ProtectedSpace } from '../atp/protected-space.js';
import { expressionMeaning } from './expression.js';
import { point } from './intervals.js';
import type { Finding } from './findings.js';
import { type HeaderSpace, parseAt } from './model.js';
import { Dim, L4, type Region, constrain, intersectRegions, isEmptyRegion, regionCovers, unionRegions } from './space.js';
import { type Meaning, ipSetRanges } from './atoms.js';

const STRENGTH: Record<string, number> = { enabled: 0, monitoring: 1, disabled: 2 };
const COMPONENTS = ['syn_protection', 'tcp_flow_protection'] as const;

/** TCP packets to or from a protected prefix (ingress first: to one). */
export function protectedTraffic(snapshot: Snapshot, space: HeaderSpace): Region {
  const set = ipSetRanges(new ProtectedSpace(snapshot.prefixes, snapshot.allowlist).addresses);
  const tcp = point(L4.tcp);
  return unionRegions(
    constrain(space.universe, new Map([[Dim.l4, tcp], [Dim.dst, set]])),
    constrain(space.universe, new Map([[Dim.l4, tcp], [Dim.src, set]])),
  );
}

function restrict(m: Meaning, within: Region): Meaning {
  const must = intersectRegions(m.must, within);
  return { must, may: m.must === m.may ? must : intersectRegions(m.may, within) };
}

/** atp_filter_never_applies findings for both ATP components. */
export function atpFilterFindings(snapshot: Snapshot, space: HeaderSpace): Finding[] {
  const out: Finding[] = [];
  const traffic = protectedTraffic(snapshot, space);
  for (const component of COMPONENTS) {
    const filters: ProtectionFilter[] = snapshot[component]?.filters ?? [];
    const meanings = filters.map((f, i) =>
      restrict(
        expressionMeaning(parseAt(f.expression, 'filter', `${component}.filters[${i}].expression`).expr, {
          universe: space.universe,
          names: space.names,
          lists: () => undefined,
          notes: [],
        }),
        traffic,
      ),
    );
    filters.forEach((f, i) => {
      const name = f.id ?? `${component}.filters[${i}]`;
      const report = (message: string): void => {
        out.push({ ruleset: component, rule: name, kind: 'atp_filter_never_applies', blocked_by: [], different_action: false, witness: null, message });
      };
      if (isEmptyRegion(meanings[i]!.may)) {
        report(`filter ${name} (${f.mode}) matches no TCP packet to or from a protected prefix`);
        return;
      }
      const stronger = filters.flatMap((g, k) => ((STRENGTH[g.mode] ?? 3) < (STRENGTH[f.mode] ?? 3) ? [k] : []));
      const union = stronger.reduce<Region>((acc, k) => unionRegions(acc, meanings[k]!.must), []);
      if (stronger.length > 0 && regionCovers(union, meanings[i]!.may)) {
        report(`filter ${name} (${f.mode}) never applies: filters of a stronger mode match every packet it matches (${stronger.map((k) => filters[k]!.id ?? `${component}.filters[${k}]`).join(', ')})`);
      }
    });
  }
  return out;
}
