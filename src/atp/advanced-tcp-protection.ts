// Advanced TCP Protection for one replay: the vendor's per-packet order, as the pipeline's first
// stage. Status off: nothing happens. Otherwise a TCP packet to a protected prefix from a source not
// on the allowlist goes to one component — SYN and SYN-ACK to SYN-flood protection, every other TCP
// packet to out-of-state protection (except packets of a connection held by a SYN challenge, which
// belong to the SYN component that holds it) — whose mode for that packet decides what its verdict
// means: enabled drops, monitoring notes what it would have dropped and passes, disabled and off do
// nothing. Connection tracking runs for every protected packet whatever the modes, as the vendor's
// connection tracker does, so a component switched on by a filter knows the connections already open.
//
// Time is the capture's own: seconds after the first packet ATP saw, never going back (clock.ts). The model and its numbers are
// in README.md and options.ts.
import { Has, TcpFlag, type PacketRecord } from '../capture/record.js';
import type { Snapshot } from '../config/snapshot.js';
import { MonotonicClock } from './clock.js';
import { ComponentModes, type FilterCompiler, type FilterPredicate } from './component-modes.js';
import type { AtpDecision } from './decision.js';
import { EgressTracking } from './egress-tracking.js';
import { explainPacket, Step, type AtpExplanation } from './explanation.js';
import { ConfigItemError } from '../errors.js';
import { compileFilter } from './filters.js';
import { FlowTable, RETRANSMIT_WAIT, State } from './flow-table.js';
import { OutOfStateProtection } from './out-of-state-protection.js';
import { parseAtpOptions, type AtpOptions, type AtpOptionsInput } from './options.js';
import { Outcome, Outcomes, type AtpLabels } from './outcomes.js';
import { ProtectedSpace } from './protected-space.js';
import { ComponentCounters, type AtpReport } from './report.js';
import { SynProtection } from './syn-protection.js';
import { Mode, OOS, Reason, SYN } from './vocabulary.js';

const IP_TCP = Has.IP | Has.TCP;

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

/** `compile`, each expression compiled once (a filter's predicate holds no state of its own). */
function compiledOnce(compile: FilterCompiler): FilterCompiler {
  const compiled = new Map<string, FilterPredicate>();
  return (expression, path) => {
    let predicate = compiled.get(expression);
    if (predicate === undefined) compiled.set(expression, (predicate = compile(expression, path)));
    return predicate;
  };
}

/** Advanced TCP Protection (SYN-flood and out-of-state TCP protection) over a configuration snapshot. */
export class AdvancedTcpProtection {
  /**
   * Compiles the snapshot's ATP part (status, prefixes, allowlist, SYN and out-of-state rules and
   * filters) with the model options (defaults: DEFAULT_ATP_OPTIONS); throws ConfigItemError naming
   * the bad item, e.g. `syn_protection.filters[1].expression`.
   */
  static fromSnapshot(snapshot: Snapshot, options?: AtpOptionsInput): AdvancedTcpProtection {
    return new AdvancedTcpProtection(snapshot, parseAtpOptions(options), compiledOnce(compileFilter));
  }

  /**
   * The same configuration with run state of its own (connections, meters, counters, clock), as
   * fromSnapshot would make it, without compiling again: the filters and the protected space (a
   * pure function of an address) are shared, so a fresh state costs what the state costs.
   */
  withFreshState(): AdvancedTcpProtection {
    return new AdvancedTcpProtection(this.snapshot, this.options, this.compile, this.space);
  }

  /** status enabled, a protected prefix, and a rule or filter in enabled or monitoring mode */
  readonly active: boolean;
  /** active, and a rule is scoped by region or data center: packets need cf.colo.name / cf.colo.region */
  readonly readsIngress: boolean;
  readonly options: AtpOptions;

  private readonly status: boolean;
  private readonly space: ProtectedSpace;
  private readonly table: FlowTable;
  private readonly syn: SynProtection;
  private readonly oos: OutOfStateProtection;
  private readonly egress: EgressTracking | null;
  private readonly counters = [new ComponentCounters(), new ComponentCounters()];
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

  /** @internal use fromSnapshot() or withFreshState() */
  constructor(
    private readonly snapshot: Snapshot,
    options: AtpOptions,
    private readonly compile: FilterCompiler,
    space?: ProtectedSpace,
  ) {
    if (typeof snapshot !== 'object' || snapshot === null) throw new ConfigItemError('snapshot', 'expected a configuration object');
    const status = snapshot.tcp_protection_status;
    if (status !== undefined && (typeof status !== 'object' || status === null || typeof status.enabled !== 'boolean')) {
      throw new ConfigItemError('tcp_protection_status.enabled', 'expected true or false');
    }
    this.options = options;
    this.status = status?.enabled === true;
    this.space = space ?? new ProtectedSpace(snapshot.prefixes, snapshot.allowlist);
    this.table = new FlowTable(options.maxFlows, connectionTimeouts(options));
    this.syn = new SynProtection(new ComponentModes(SYN, snapshot.syn_protection, options, compile), this.table, options);
    this.oos = new OutOfStateProtection(new ComponentModes(OOS, snapshot.tcp_flow_protection, options, compile), this.table, options);
    this.clock = new MonotonicClock(options.rateWindowSeconds);
    this.egress = options.bidirectional ? new EgressTracking(this.table, options) : null;
    this.active = this.status && this.space.any && (this.syn.modes.acting || this.oos.modes.acting);
    this.readsIngress = this.active && (this.syn.modes.scoped || this.oos.modes.scoped);
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
    const syn = this.syn;
    if ((rec.tcpFlags & TcpFlag.SYN) !== 0) {
      const mode = syn.modes.resolve(rec);
      this.settle(rec, out, SYN, mode, syn.inspect(rec, t, slot, mode === Mode.ENABLED || mode === Mode.MONITORING));
      return;
    }
    if (slot >= 0 && table.state(slot) === State.CHALLENGED) {
      const mode = syn.modes.resolve(rec);
      if (mode === Mode.ENABLED || mode === Mode.MONITORING) {
        this.settle(rec, out, SYN, mode, syn.answer(rec, t, slot));
        return;
      }
      table.remove(slot);
      slot = -1;
    }
    const oos = this.oos;
    const mode = oos.modes.resolve(rec);
    const evaluating = mode === Mode.ENABLED || mode === Mode.MONITORING;
    const reason = oos.inspect(rec, t, slot, evaluating);
    if (oos.undecided && evaluating) {
      out.undecided = true;
      this.undecided++;
    }
    this.settle(rec, out, OOS, mode, reason);
  }

  private settle(rec: PacketRecord, out: AtpDecision, stage: number, mode: number, reason: number): void {
    this.step = stage === SYN ? Step.SYN_COMPONENT : Step.OOS_COMPONENT;
    out.setMode(mode);
    if (mode !== Mode.OFF) out.source = (stage === SYN ? this.syn : this.oos).modes.source;
    const c = this.counters[stage];
    c.byMode[mode]++;
    if (reason === Reason.NONE) {
      if (mode !== Mode.OFF) out.outcome = out.undecided ? Outcome.UNDECIDED : Outcome.PASS;
    } else if (mode === Mode.ENABLED) {
      out.dropFor(stage, reason);
      out.outcome = Outcome.DROP + reason;
      c.dropped[reason]++;
      this.dropped++;
    } else {
      out.note(stage, reason);
      out.outcome = Outcome.FLAG + reason;
      c.flagged[reason]++;
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
    if (this.step === Step.SYN_COMPONENT || this.step === Step.OOS_COMPONENT) {
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
      modes: [this.syn.modes, this.oos.modes],
    });
  }

  /** The summary so far; with labels (synthetic captures), also attack packets stopped and legitimate flows harmed. */
  report(labels?: AtpLabels): AtpReport {
    const end = this.clock.latest;
    for (const m of [...this.syn.modes.meters, ...this.oos.modes.meters]) m.finish(end);
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
      components: {
        syn_protection: this.counters[SYN].report(this.syn.modes),
        tcp_flow_protection: this.counters[OOS].report(this.oos.modes),
      },
      labels: labels === undefined ? null : this.outcomes.score(labels),
      model: this.options,
    };
  }
}
