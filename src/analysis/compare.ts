// compareRulesets (edgesim diff --static): the classes of packets two snapshots' firewalls decide
// differently, Batfish's compareFilters for the Rules language. Both firewalls partition the header
// space by deciding rule (decisions.ts); every pair of parts whose outcome differs (verdict, or the
// deciding rule's ref) and that certainly share a packet is one difference, with a witness from the
// intersection. Pairs that only possibly share packets (indeterminate parts) are reported as such,
// so "equivalent" is claimed only when it is proved.
import type { Snapshot } from '../config/snapshot.js';
import { type Decision, decisions, jointPacket } from './decisions.js';
import { type FirewallModel, type ModelOptions, modelFirewalls } from './model.js';
import { type Witness, witnessOf } from './witness.js';

export interface Side {
  readonly verdict: 'pass' | 'drop';
  /** the deciding rule's ref, null when no rule matched */
  readonly rule: string | null;
}

export interface Difference {
  readonly before: Side;
  readonly after: Side;
  readonly verdict_changed: boolean;
  /** false: the class may be empty (decided by parts the analysis does not model) */
  readonly certain: boolean;
  readonly witness: Witness;
}

export interface Comparison {
  /** no packet's verdict certainly or possibly differs */
  readonly equivalent: boolean;
  readonly differences: Difference[];
}

function side(model: FirewallModel, d: Decision): Side {
  return { verdict: d.verdict, rule: d.rule < 0 ? null : model.rules[d.rule]!.ref };
}

export function compareRulesets(a: Snapshot, b: Snapshot, options: { a?: ModelOptions; b?: ModelOptions } = {}): Comparison {
  const { space, firewalls } = modelFirewalls([
    { snapshot: a, options: options.a },
    { snapshot: b, options: options.b },
  ]);
  const [ma, mb] = firewalls as [FirewallModel, FirewallModel];
  const da = decisions(ma, space.universe);
  const db = decisions(mb, space.universe);
  const differences: Difference[] = [];
  for (const x of da) {
    for (const y of db) {
      const before = side(ma, x);
      const after = side(mb, y);
      if (before.verdict === after.verdict && before.rule === after.rule) continue;
      const sure = jointPacket(x, y, 'must');
      const possible = sure ?? jointPacket(x, y, 'may');
      if (possible === null) continue;
      differences.push({
        before,
        after,
        verdict_changed: before.verdict !== after.verdict,
        certain: sure !== null,
        witness: witnessOf(possible, space.names),
      });
    }
  }
  return { equivalent: !differences.some((d) => d.verdict_changed), differences };
}
