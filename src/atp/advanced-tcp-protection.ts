// Advanced TCP Protection for one replay: the vendor's per-packet order, as the pipeline's first
// stage. Status off: nothing happens. Otherwise a TCP packet to a protected prefix from a source not
// on the allowlist goes to one component — SYN and SYN-ACK to SYN-flood protection, every other TCP
// packet to out-of-state protection (except packets of a connection held by a SYN challenge, which
// belong to the SYN component that holds it) — whose mode for that packet decides what its verdict
// means: enabled drops, monitoring notes what it would have dropped and passes, disabled and off do
// nothing. Connection tracking runs for every protected packet whatever the modes, as the vendor's
// connection tracker does, so a component switched on by a filter knows the connections already open.
// The engine names no component: it offers the packet to each in that order (atp-component.ts), and
// the first that takes it decides it.
//
// Time is the capture's own: seconds after the first packet ATP saw, never going back (clock.ts). The model and its numbers are
// in README.md and options.ts.
import { Has, type PacketRecord } from '../capture/record.js';
import type { Snapshot } from '../config/snapshot.js';
import { evaluates, PASSED_ON, type AtpComponent } from './atp-component.js';
import { MonotonicClock } from './clock.js';
import { AtpConfiguration } from './atp-configuration.js';
import { ComponentModes } from './component-modes.js';
import { COMPONENT_MODULES } from './components.js';
import type { AtpDecision } from './decision.js';
import { EgressTracking } from './egress-tracking.js';
import { explainPacket, Step, type AtpExplanation } from './explanation.js';
import { FlowTable, State } from './flow-table.js';
import { parseAtpOptions, type AtpOptions, type AtpOptionsInput } from './options.js';
import { Outcome, Outcomes, type AtpLabels } from './outcomes.js';
import { ProtectedSpace } from './protected-space.js';
import type { AtpReport } from './report.js';
import { Mode, Reason, STAGES } from './vocabulary.js';

const IP_TCP = Has.IP | Has.TCP;

/** Advanced TCP Protection (SYN-flood and out-of-state TCP protection) over a configuration snapshot. */
export class AdvancedTcpProtection {
  /**
   * Compiles the snapshot's ATP part (status, prefixes, allowlist, SYN and out-of-state rules and
   * filters) with the model options (defaults: DEFAULT_ATP_OPTIONS); throws ConfigItemError naming
   * the bad item, e.g. `syn_protection.filters[1].expression`.
   */
  static fromSnapshot(snapshot: Snapshot, options?: AtpOptionsInput): AdvancedTcpProtection {
    return new AdvancedTcpProtection(new AtpConfiguration(snapshot, parseAtpOptions(options)));
  }

  /** status enabled, a protected prefix, and a rule or filter in enabled or monitoring mode */
  readonly active: boolean;
  /** active, and a rule is scoped by region or data center: packets need cf.colo.name / cf.colo.region */
  readonly readsIngress: boolean;
  readonly options: AtpOptions;

  private readonly status: boolean;
  private readonly space: ProtectedSpace;
  private readonly table: FlowTable;
  /** in the order they are offered a packet (the order of STAGES) */
  private readonly components: readonly AtpComponent[];
  private readonly egress: EgressTracking | null;
  private readonly outcomes = new Outcomes();

  private readonly clock: MonotonicClock;
  private seen = 0;
  private allowlisted = 0;
  private protectedPackets = 0;
  private dropped = 0;
  private flagged = 0;
  private undecided = 0;
  /** for explain(): how far the last packet got (Step), and its connection's state before it (State) */
  private step: number = Step.INACTIVE;
  private stateBefore: number = State.NONE;

  /**
   * A run over `configuration`, with run state of its own (connections, meters, counters, clock),
   * without compiling anything again: a fresh state costs what the state costs.
   */
  constructor(readonly configuration: AtpConfiguration) {
    const options = (this.options = configuration.options);
    this.status = configuration.status;
    this.space = configuration.space;
    this.active = configuration.active;
    this.readsIngress = configuration.readsIngress;
    this.table = new FlowTable(options.maxFlows, configuration.timeouts);
    this.components = configuration.components.map((rules, stage) => COMPONENT_MODULES[stage].create(stage, new ComponentModes(rules, options), this.table, options));
    this.clock = new MonotonicClock(options.rateWindowSeconds);
    this.egress = options.bidirectional ? new EgressTracking(this.table, options) : null;
  }

  /** Decides one IP packet into `out` (reset first); the packet path passes frames without IP by. Allocates nothing beyond new connection entries. */
  inspect(rec: PacketRecord, out: AtpDecision): void {
    out.reset();
    this.step = Step.INACTIVE;
    if (!this.active) return;
    const t = this.clock.at(rec.tsSec, rec.tsNsec);
    this.seen++;
    this.step = Step.NOT_TCP;
    if ((rec.present & IP_TCP) !== IP_TCP) return;
    const space = this.space;
    if (!space.protectsDst(rec)) {
      this.step = Step.NOT_PROTECTED;
      if (this.egress !== null && space.protectsSrc(rec) && !space.allowsDst(rec)) {
        this.step = Step.EGRESS;
        this.egress.track(rec, t);
      }
      return;
    }
    if (space.allowsSrc(rec)) {
      this.step = Step.ALLOWLISTED;
      this.allowlisted++;
      return;
    }
    this.protectedPackets++;
    const table = this.table;
    table.setKey(rec, true);
    let slot = table.find(t);
    this.stateBefore = slot < 0 ? State.NONE : table.state(slot);
    const components = this.components;
    for (let i = 0; i < components.length; i++) {
      const c = components[i];
      if (!c.takes(rec, slot)) continue;
      const mode = c.modes.resolve(rec);
      const reason = c.inspect(rec, t, slot, mode);
      if (reason === PASSED_ON) {
        slot = -1;
        continue;
      }
      if (c.undecided && evaluates(mode)) {
        out.undecided = true;
        this.undecided++;
      }
      this.settle(rec, out, c, mode, reason);
      return;
    }
  }

  private settle(rec: PacketRecord, out: AtpDecision, c: AtpComponent, mode: number, reason: number): void {
    this.step = Step.COMPONENT + c.stage;
    out.setMode(mode);
    if (mode !== Mode.OFF) out.source = c.modes.source;
    const n = c.counters;
    n.byMode[mode]++;
    if (reason === Reason.NONE) {
      if (mode !== Mode.OFF) out.outcome = out.undecided ? Outcome.UNDECIDED : Outcome.PASS;
    } else if (mode === Mode.ENABLED) {
      out.dropFor(c.stage, reason);
      out.outcome = Outcome.DROP + reason;
      n.dropped[reason]++;
      this.dropped++;
    } else {
      out.note(c.stage, reason);
      out.outcome = Outcome.FLAG + reason;
      n.flagged[reason]++;
      this.flagged++;
    }
    if (out.outcome !== Outcome.NONE) this.outcomes.record(rec.frame, out.outcome);
  }

  /**
   * Why the packet just given to inspect() (the same record, not yet reused) got `out`: the path it
   * took, and per component the mode and what set it, thresholds and rates at that moment, whether
   * the component was mitigating, and the connection's state before and after. Computed only when
   * called; it changes no state, so a trace can call it after every packet.
   */
  explain(rec: PacketRecord, out: AtpDecision): AtpExplanation {
    const looked = this.step !== Step.INACTIVE;
    const tcp = looked && this.step !== Step.NOT_TCP;
    let stateAfter: number = State.NONE;
    if (this.step >= Step.COMPONENT) {
      this.table.setKey(rec, true);
      const slot = this.table.peek();
      if (slot >= 0) stateAfter = this.table.state(slot);
    }
    return explainPacket(rec, out, {
      status: this.status,
      active: this.active,
      step: this.step,
      stateBefore: this.stateBefore,
      time: looked ? this.clock.latest : null,
      destination: tcp ? this.space.matchDst(rec) : null,
      allowlisted: tcp && this.space.allowsSrc(rec),
      stateAfter,
      modes: this.components.map((c) => c.modes),
    });
  }

  /** The summary so far; with labels (synthetic captures), also attack packets stopped and legitimate flows harmed. */
  report(labels?: AtpLabels): AtpReport {
    const end = this.clock.latest;
    for (const c of this.components) for (const m of c.modes.meters) m.finish(end);
    const started = this.clock.started;
    return {
      status: this.status,
      active: this.active,
      captureStart: started ? this.clock.start : null,
      duration: started ? Math.round(end * 1e6) / 1e6 : 0,
      packets: {
        seen: this.seen,
        protected: this.protectedPackets,
        allowlisted: this.allowlisted,
        egress: this.egress?.packets ?? 0,
        passed: this.protectedPackets - this.dropped,
        dropped: this.dropped,
        flagged: this.flagged,
        undecided: this.undecided,
      },
      connections: { created: this.table.created, peak: this.table.peak, live: this.table.count, untracked: this.table.untracked },
      components: Object.fromEntries(this.components.map((c) => [STAGES[c.stage], c.counters.report(c.modes)])) as AtpReport['components'],
      labels: labels === undefined ? null : this.outcomes.score(labels),
      model: this.options,
    };
  }
}
