// `edgesim bench`'s measurement: a ruleset (and Advanced TCP Protection) on packets held in memory.
// 1. whole path: what a replay does per packet, frames from memory (no file I/O): decode + enrichment
//    + ATP + firewall, a fresh ATP state per pass so every pass sees the capture as a replay would;
//    the firewall's fast path (fastpath/) decides the frames it can from their bytes (with protection
//    on, ATP's fields are read from them too) and the rest are decoded, as in a replay
//    (sim/packet-decider.ts); one more pass counts which lane decided each frame (sim/engine-counts.ts);
// 2. firewall alone: the production evaluator over the records that reach the firewall on the packet
//    path, decoded (and enriched) once: frames without IP pass the path uninspected, and packets
//    protection drops never get there, so its figures count the packets a replay's firewall sees;
// 3. per rule: the profiling evaluator (rule-profile.ts) over the same records, so its counts are a
//    replay's hits; they are checked against the production firewall's hit counters. Its times are
//    each rule's cost alone, in a loop of its own; they are scaled so that they add up to the
//    firewall's measured time for a pass (ns_total_i = firewall_ns x isolated_i / sum of isolated):
//    the rules' relative costs come from the profiler, the total from the production evaluator, and
//    the evaluator's own work (calls in order, counters, the result record) is spread over the rules
//    in proportion. The shares therefore sum to 1 over the enabled rules; the unscaled sum is
//    reported as rules_isolated_ns;
// 4. reordering advice (reorder.ts): moves the ruleset analysis proves keep every verdict
//    (analysis-overlap.ts), unless the caller gives its own canSwap.
// Peak memory is the process's maximum resident set size, which includes the frames held in memory.
import { Has, PacketRecord } from '../capture/record.js';
import { compileRecordExpression } from '../fields/compile.js';
import { AdvancedTcpProtection } from '../atp/index.js';
import type { Snapshot } from '../config/snapshot.js';
import { createListRegistry } from '../data/lists.js';
import { Firewall } from '../firewall/firewall.js';
import { enrichmentFor } from '../fields/lookups.js';
import type { PathOptions } from '../sim/build.js';
import { EngineCounts, type EngineReport } from '../sim/engine-counts.js';
import { fastPathFor, PacketDecider } from '../sim/packet-decider.js';
import { PacketPath } from '../sim/packet-path.js';
import type { FrameStore } from './frames.js';
import { analysisCanSwap } from './analysis-overlap.js';
import { conservativeCanSwap, type CanSwap } from './overlap.js';
import { reorderAdvice, type ReorderAdvice } from './reorder.js';
import { pooledCosts, profileRules, type ProfiledRule, type RuleCost } from './rule-profile.js';
import { measure, measurePasses, pooled, type Throughput } from './throughput.js';

/**
 * Each figure is measured in this many rounds, taken in turns (whole path, firewall, rules, and
 * again), its samples pooled: the spread then holds the changes of the machine and of V8's code
 * over the whole run, not only over one stretch of it, so a comparison weighs them as noise.
 */
const ROUNDS = 6;

export interface BenchOptions extends PathOptions {
  /** at least this many timed samples per figure (median reported); default 5 */
  runs?: number;
  /** and at least this much CPU time measured per figure, in ms; default 50 */
  minTimeMs?: number;
  canSwap?: CanSwap;
}

export interface RuleRow {
  rule: string;
  position: number;
  action: string;
  enabled: boolean;
  evaluations: number;
  matches: number;
  decided: number;
  ns_per_evaluation: number;
  ns_total: number;
  /** ns_total over the firewall's time for one pass */
  share: number;
  never_hit: boolean;
  /**
   * ns per evaluation of each sample of the rule timed alone, its loop's cost included and not scaled:
   * the measured quantity, which --compare tests (a scaled figure would carry the noise of the
   * firewall's median and of the loop's cost into every sample alike)
   */
  batch_samples_ns_per_evaluation: number[];
}

export interface BenchReport {
  packets: number;
  runs: number;
  /** the firewall alone (the headline figures) */
  packets_per_second: number;
  ns_per_packet: number;
  firewall: Throughput;
  whole_path: Throughput;
  /** frames the compiled path decided and those that fell back, by reason (a replay's engine counts) */
  engine: EngineReport;
  atp: boolean;
  rules: RuleRow[];
  /** the sum of the rules' own batch times for one pass, before they are scaled to the firewall's time */
  rules_isolated_ns: number;
  never_hit: string[];
  reorder: ReorderAdvice[];
  /** which overlap check the advice used */
  reorder_check: string;
  peak_rss_bytes: number;
  warnings: string[];
}

/** What every measurement of a ruleset starts from: its firewall compiled, protection, the lookups its rules read. */
async function compiledPath(store: FrameStore, snapshot: Snapshot, opts: PathOptions) {
  const warnings = [...store.warnings];
  const lists = createListRegistry({ dir: opts.listsDir, accountLists: snapshot.lists });
  const resolve = (name: string) => lists.resolve(name);
  const firewall = Firewall.compile(snapshot.rulesets ?? [], { lists: resolve });
  const probe = AdvancedTcpProtection.fromSnapshot(snapshot, opts.atp);
  const enrichment = await enrichmentFor(firewall.fields, probe.readsIngress, opts, warnings);
  const freshPath = () => new PacketPath({ enrichment, atp: probe.withFreshState(), firewall });
  const rules: Array<ProfiledRule & { action: string; expression: string }> = firewall.rules.map((r) => ({
    ref: r.ref,
    enabled: r.enabled,
    terminating: r.action !== 'log',
    action: r.action,
    expression: r.expression,
    predicate: compileRecordExpression('rule', r.expression, resolve).predicate,
  }));
  return { warnings, resolve, firewall, probe, enrichment, freshPath, rules };
}

/**
 * Each rule's counts on the packets (a replay's hits) and its cost per evaluation timed alone, once,
 * without the throughput rounds or the scaling to the firewall's time (an editor's figures, on save).
 */
export async function ruleCosts(store: FrameStore, snapshot: Snapshot, opts: PathOptions & { minTimeMs?: number } = {}): Promise<{ costs: RuleCost[]; actions: string[]; packets: number; warnings: string[] }> {
  const { warnings, firewall, freshPath, rules } = await compiledPath(store, snapshot, opts);
  const costs = profileRules(rules, firewallRecords(store, freshPath()), { runs: 1, minNs: (opts.minTimeMs ?? 1) * 1e6 });
  return { costs, actions: firewall.rules.map((r) => r.action), packets: store.count, warnings };
}

export async function benchmark(store: FrameStore, snapshot: Snapshot, opts: BenchOptions = {}): Promise<BenchReport> {
  const runs = Math.max(1, opts.runs ?? 5);
  const sampling = { runs: Math.ceil(runs / ROUNDS), minNs: ((opts.minTimeMs ?? 50) * 1e6) / ROUNDS };
  const { warnings, resolve, firewall, probe, enrichment, freshPath, rules } = await compiledPath(store, snapshot, opts);

  // 1. whole path
  const rec0 = new PacketRecord();
  const fastPath = fastPathFor({ firewall, atp: probe, lists: resolve, enrichment });
  const wholePath = () =>
    measure(
      store.count,
      sampling,
      () => new PacketDecider(freshPath(), fastPath),
      (decider) => {
        for (let i = 0; i < store.count; i++) {
          store.decode(i, rec0, decider.decodeFrame);
          decider.decide(rec0);
        }
      },
    );

  const lanes = new EngineCounts();
  const counting = new PacketDecider(freshPath(), fastPath);
  for (let i = 0; i < store.count; i++) {
    store.decode(i, rec0, counting.decodeFrame);
    lanes.add(counting);
    counting.decide(rec0);
  }

  // 2. firewall alone
  const recs = firewallRecords(store, freshPath());
  const result = firewall.newResult();
  const firewallAlone = () =>
    measurePasses(recs.length, sampling, () => {
      for (let i = 0; i < recs.length; i++) firewall.evaluate(recs[i]!, result);
    });

  // 3. per rule
  // measured in rounds, so that each figure's samples spread over the run's time
  // each round's rules compiled afresh, so that V8's feedback and code for a predicate differ from round to round as from run to run
  const freshRules = () => rules.map((r) => ({ ...r, predicate: compileRecordExpression('rule', r.expression, resolve).predicate }));
  const rounds = Array.from({ length: ROUNDS }, () => ({ whole: wholePath(), fw: firewallAlone(), costs: profileRules(freshRules(), recs, sampling) }));
  const whole = pooled(rounds.map((r) => r.whole));
  const fw = pooled(rounds.map((r) => r.fw));
  const costs = pooledCosts(rounds.map((r) => r.costs));
  // one more pass of the firewall, from zeroed counters, to check the profiler's counts against the production firewall's
  firewall.hits.fill(0);
  firewall.decided.fill(0);
  for (let i = 0; i < recs.length; i++) firewall.evaluate(recs[i]!, result);
  costs.forEach((c, i) => {
    if (c.matches !== firewall.hits[i] || c.decided !== firewall.decided[i]) {
      throw new Error(`profiler and firewall disagree on rule ${c.ref}: ${c.matches} matches vs ${firewall.hits[i]}`);
    }
  });
  const isolated = costs.reduce((sum, c) => sum + c.ns_total, 0);
  const scale = isolated === 0 ? 0 : fw.ns_median / isolated;
  const rows = costs.map((c) => ruleRow(c, rules[c.position]!.action, scale, fw.ns_median));

  // 4. advice
  const canSwap = opts.canSwap ?? analysisCanSwap(snapshot, firewall.rules.map((r) => r.ref), { lists: resolve });
  const reorder = reorderAdvice(rules, costs, recs, canSwap);

  return {
    packets: store.count,
    runs,
    packets_per_second: fw.packets_per_second,
    ns_per_packet: fw.ns_per_packet,
    firewall: fw,
    whole_path: whole,
    engine: lanes.report(),
    atp: probe.active,
    rules: rows,
    rules_isolated_ns: isolated,
    never_hit: rows.filter((r) => r.never_hit).map((r) => r.rule),
    reorder,
    reorder_check: canSwap === conservativeCanSwap ? 'conservative local check (same verdict, or disjoint transports or port sets)' : opts.canSwap === undefined ? 'ruleset analysis (same verdict, or proved disjoint)' : 'the caller\'s check',
    peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
    warnings,
  };
}

/**
 * The records the firewall sees on `path` (fresh), each decoded and enriched once: a frame without IP
 * passes uninspected, and a packet protection drops never gets there.
 */
function firewallRecords(store: FrameStore, path: PacketPath): PacketRecord[] {
  const verdict = path.newVerdict();
  return store.decodeAll().filter((rec) => {
    path.process(rec, verdict);
    return (rec.present & Has.IP) !== 0 && !verdict.atp.drop;
  });
}

/** `scale`: the firewall's time over the rules' isolated sum, applied to the rule's times */
function ruleRow(c: RuleCost, action: string, scale: number, firewallNs: number): RuleRow {
  const ns = scale * c.ns_total;
  const perEvaluation = (total: number) => (c.evaluations === 0 ? 0 : (scale * total) / c.evaluations);
  return {
    rule: c.ref,
    position: c.position,
    action,
    enabled: c.enabled,
    evaluations: c.evaluations,
    matches: c.matches,
    decided: c.decided,
    ns_per_evaluation: perEvaluation(c.ns_total),
    ns_total: ns,
    share: firewallNs === 0 ? 0 : ns / firewallNs,
    never_hit: c.enabled && c.matches === 0,
    batch_samples_ns_per_evaluation: c.samples_batch_ns.map((ns) => (c.evaluations === 0 ? 0 : ns / c.evaluations)),
  };
}
