// A run: what deciding frames on a compiled path changes, kept apart from the path (as wirefilter's
// ExecutionContext is apart from its Filter): Advanced TCP Protection's state (connections, rates,
// counters, clock), the tally of the run (hits and decisions by rule, frames by lane), and the
// records reused from frame to frame (the verdict, the packet's record, the compiled program's
// result). A replay, each thread of one, a suite's case, a bench pass and a library's conversation
// each take their own run; threads' tallies add up (Tally.absorb).
import { AdvancedTcpProtection } from '../atp/index.js';
import type { Enrichment } from '../data/enrichment.js';
import { ProgramResult, type FastFirewall } from '../fastpath/fast-firewall.js';
import { FirewallResult, type RuleCounts } from '../firewall/firewall.js';
import type { CompiledPath } from './compiled-path.js';
import { EngineCounts, type FrameLane } from './engine-counts.js';
import { Because, LANE_REASONS } from './lane.js';
import { PacketVerdict } from './verdict.js';

export interface RunOptions {
  /**
   * the caller reads each packet's fields (inspect, trace, --fields, coverage, suites' packets), or
   * wants the decoder's lane alone: every frame takes the decoder's lane
   */
  record?: boolean;
}

/** A tally's counts as plain data, for a thread's part of a replay. */
export interface TallyParts {
  hits: Float64Array;
  decided: Float64Array;
  lanes: ReturnType<EngineCounts['parts']>;
}

/** What a run's frames did: per rule its hits and decisions, and the frames of each lane. */
export class Tally implements RuleCounts {
  readonly hits: Float64Array;
  readonly decided: Float64Array;
  readonly lanes = new EngineCounts();

  constructor(rules: number) {
    this.hits = new Float64Array(rules);
    this.decided = new Float64Array(rules);
  }

  parts(): TallyParts {
    return { hits: this.hits, decided: this.decided, lanes: this.lanes.parts() };
  }

  /** Adds another run's counts (a thread's part of the same replay). */
  absorb(p: TallyParts): void {
    for (let k = 0; k < this.hits.length; k++) this.hits[k] += p.hits[k]!;
    for (let k = 0; k < this.decided.length; k++) this.decided[k] += p.decided[k]!;
    this.lanes.absorb(p.lanes);
  }
}

export class Run implements FrameLane {
  readonly tally: Tally;
  /** protection's state, or null when protection inspects nothing on the path */
  readonly protection: AdvancedTcpProtection | null;
  /** the verdict decideFrame writes (one object, reused for every frame) */
  readonly verdict: PacketVerdict;
  /** the compiled program's result (the verdict's firewall result), or null: every frame takes the decoder's lane */
  readonly program: ProgramResult | null;
  /** the Because code of every frame's lane when program is null; Because.COMPILED otherwise */
  readonly decoderBecause: number;
  /** values for looked-up fields set after the path's lookups (a suite's packet gives them) */
  overrides: Enrichment | null = null;
  private readonly compiled: FastFirewall | null;
  /** the Because code of the frame just decided */
  private because: number = Because.COMPILED;

  constructor(readonly path: CompiledPath, opts: RunOptions = {}) {
    this.tally = new Tally(path.firewall.rules.length);
    this.protection = path.atp.active ? new AdvancedTcpProtection(path.atp) : null;
    const program = opts.record === true ? null : path.program;
    this.compiled = program;
    this.program = program === null ? null : new ProgramResult(this.tally, program);
    this.decoderBecause = opts.record === true ? Because.RECORD_NEEDED : program === null ? Because.NO_PROGRAM : Because.COMPILED;
    this.verdict = new PacketVerdict(path.firewall.rules, this.program ?? new FirewallResult(this.tally));
  }

  /** @internal counts the frame just decided, whose lane's Because code is `because` */
  count(because: number): void {
    this.because = because;
    this.tally.lanes.add(this);
  }

  /** Why the frame just decided took the decoder's lane (LANE_REASONS), or null when the compiled lane decided it. */
  fallbackReason(): string | null {
    return this.because === Because.COMPILED ? null : LANE_REASONS[this.because]!;
  }

  /** How many rules the compiled lane read on the frame's decoded record, deciding it (0: none, or it did not decide it). */
  decodedRules(): number {
    return this.because === Because.COMPILED ? this.program!.frame.decodedRules() : 0;
  }

  /** Why the i-th of them was: "rule <ref>: field … not compiled". */
  decodedReason(i: number): string {
    return this.compiled!.decodedReason(this.program!.frame.decodedRule(i));
  }
}
