// ATP's built configuration: everything the snapshot and the model options settle before the first
// packet — status, the protected space, each component's filters and rules, the connection table's
// timeouts — checked and compiled once. It holds no run state: each run (AdvancedTcpProtection)
// makes its own connections, meters, counters and clock from it, so a diff's two sides, a test
// case, the library and each thread start afresh without compiling again or resetting anything.
import type { Snapshot } from '../config/snapshot.js';
import { ConfigItemError } from '../errors.js';
import { ComponentRules } from './component-rules.js';
import { compileFilter } from './filters.js';
import { RETRANSMIT_WAIT, State } from './flow-table.js';
import type { AtpOptions } from './options.js';
import { ProtectedSpace } from './protected-space.js';
import { PROTECTION_COMPONENTS } from '../protection-components.js';

/** The connection table's idle timeouts by state (FlowTable's `timeouts`) from the model options. */
export function connectionTimeouts(o: AtpOptions): Float64Array {
  const t = new Float64Array(7);
  t[State.CHALLENGED] = o.challenge.answerWindowSeconds;
  t[RETRANSMIT_WAIT] = o.retransmit.maxGapSeconds;
  t[State.NEW] = o.timeouts.newSeconds;
  t[State.OPEN] = o.timeouts.openSeconds;
  t[State.CLOSING] = o.timeouts.closingSeconds;
  t[State.CLOSED] = o.timeouts.closedSeconds;
  return t;
}

export class AtpConfiguration {
  /** tcp_protection_status.enabled */
  readonly status: boolean;
  readonly space: ProtectedSpace;
  /** each component's filters and rules, by its code (the order of PROTECTION_COMPONENTS) */
  readonly components: readonly ComponentRules[];
  /** FlowTable's timeouts (read only) */
  readonly timeouts: Float64Array;
  /** status enabled, a protected prefix, and a rule or filter in enabled or monitoring mode */
  readonly active: boolean;
  /** active, and a rule is scoped by region or data center: packets need cf.colo.name / cf.colo.region */
  readonly readsIngress: boolean;

  /** Checks and compiles the snapshot's ATP part; throws ConfigItemError naming the bad item, e.g. `syn_protection.filters[1].expression`. */
  constructor(
    snapshot: Snapshot,
    readonly options: AtpOptions,
  ) {
    if (typeof snapshot !== 'object' || snapshot === null) throw new ConfigItemError('snapshot', 'expected a configuration object');
    const status = snapshot.tcp_protection_status;
    if (status !== undefined && (typeof status !== 'object' || status === null || typeof status.enabled !== 'boolean')) {
      throw new ConfigItemError('tcp_protection_status.enabled', 'expected true or false');
    }
    this.status = status?.enabled === true;
    this.space = new ProtectedSpace(snapshot.prefixes, snapshot.allowlist);
    this.components = PROTECTION_COMPONENTS.map((spec, stage) => new ComponentRules(stage, snapshot[spec.name], compileFilter));
    this.timeouts = connectionTimeouts(options);
    this.active = this.status && this.space.any && this.components.some((c) => c.acting);
    this.readsIngress = this.active && this.components.some((c) => c.scoped);
  }
}
