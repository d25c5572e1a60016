// Per-rule cost of a ruleset on a set of decoded packets, as Suricata's rule profiling and Snort's
// profiler give it: for each rule, in evaluation order, how many packets reached it (evaluations),
// how many it matched, and the time its expression took.
//
// This is a profiling evaluator of its own, separate from the production one (firewall/evaluator.ts):
// it runs rule by rule instead of packet by packet. The packets that reach rule k are exactly those
// that reached rule k-1 and were not decided there (a matching block or skip ends evaluation; a log
// match goes on), so the profiler keeps that list of packet indices and narrows it after each rule.
// Counts are exact by construction: a disabled rule is never evaluated, and a packet decided by an
// earlier rule is not in the list of a later one.
//
// Timing: the process's CPU time (throughput.ts) is read around a whole batch (one rule over all the packets that
// reach it), never around one call: a clock read costs 20-40 ns, as much as a cheap rule, so timing
// each call would measure the clock. Each rule's batch loop is generated as a function of its own, so
// its call site sees one predicate and V8 can inline it as it does in the production evaluator. The
// loop's own cost (index load, call, count) is measured the same way with a predicate that returns
// false, and subtracted per evaluation; a rule's ns_total is (batch time - loop cost), the median of
// its samples (taken as `sampling` asks, throughput.ts), after an untimed warm-up; the samples are
// kept for comparisons. A sample repeats the batch until it holds 200,000 evaluations, so a rule
// reached by few packets is still timed over a long interval. The clock is read twice per sample, so
// the method's overhead is about 2 clock reads per sample (microseconds in all), nothing per packet; what remains is that a rule timed alone in a tight loop
// runs with a warmer cache and better branch prediction than between other rules, so the figures are
// its cost at best, its relative cost among the rules is what the figures are good for.
//
// What the figures add up to: the sum of the rules' ns_total is the time spent inside expressions,
// each timed alone. benchmark.ts scales them to the production firewall's measured time.
import type { PacketRecord } from '../capture/record.js';
import { cpuTimeNs, median, passesPerSample, takeSamples, type Sampling } from './throughput.js';

export interface ProfiledRule {
  ref: string;
  enabled: boolean;
  /** a match ends evaluation (block, skip); a log match does not */
  terminating: boolean;
  predicate: (p: PacketRecord) => boolean;
}

export interface RuleCost {
  /** index in evaluation order (the ruleset's order, disabled rules included) */
  position: number;
  ref: string;
  enabled: boolean;
  evaluations: number;
  matches: number;
  /** packets whose verdict this rule decided */
  decided: number;
  ns_total: number;
  ns_per_evaluation: number;
  /** ns_total of each sample (empty when not timed) */
  samples_ns_total: number[];
  /** each sample's whole batch time, the loop's own cost included: the measured quantity, for comparisons */
  samples_batch_ns: number[];
}

type BatchLoop = (pred: (p: PacketRecord) => boolean, recs: readonly PacketRecord[], list: Int32Array, n: number) => number;

/** A fresh batch loop: each call of this makes a new function, so V8 keeps separate type feedback for each. */
function batchLoop(): BatchLoop {
  return new Function('pred', 'recs', 'list', 'n', 'let m = 0;\nfor (let j = 0; j < n; j++) if (pred(recs[list[j]])) m++;\nreturn m;') as BatchLoop;
}

/** Per-batch times of the samples of `loop` with `pred` over the `n` packets of `list`. */
function timeBatch(loop: BatchLoop, pred: (p: PacketRecord) => boolean, recs: readonly PacketRecord[], list: Int32Array, n: number, sampling: Sampling): number[] {
  const k = passesPerSample(n);
  for (let i = 0; i < k; i++) loop(pred, recs, list, n);
  return takeSamples(sampling, k, () => {
    const t0 = cpuTimeNs();
    for (let i = 0; i < k; i++) loop(pred, recs, list, n);
    return cpuTimeNs() - t0;
  });
}

/** Counts only: evaluations, matches and decisions per rule, exact, with no timing. */
export function countRules(rules: readonly ProfiledRule[], recs: readonly PacketRecord[]): RuleCost[] {
  return walk(rules, recs, null);
}

/** Counts and times every rule on `recs`, each sampled as `sampling` asks (median taken). */
export function profileRules(rules: readonly ProfiledRule[], recs: readonly PacketRecord[], sampling: Sampling): RuleCost[] {
  return walk(rules, recs, { ...sampling, runs: Math.max(1, sampling.runs) });
}

function walk(rules: readonly ProfiledRule[], recs: readonly PacketRecord[], sampling: Sampling | null): RuleCost[] {
  let list = new Int32Array(recs.length);
  let next = new Int32Array(recs.length);
  for (let i = 0; i < recs.length; i++) list[i] = i;
  let n = recs.length;
  // the loop's own cost per iteration, measured over every packet with a predicate that is always false
  const perIteration = sampling === null || n === 0 ? 0 : median(timeBatch(batchLoop(), () => false, recs, list, n, sampling)) / n;

  return rules.map((rule, position) => {
    const cost: RuleCost = { position, ref: rule.ref, enabled: rule.enabled, evaluations: 0, matches: 0, decided: 0, ns_total: 0, ns_per_evaluation: 0, samples_ns_total: [], samples_batch_ns: [] };
    if (!rule.enabled) return cost;
    cost.evaluations = n;
    if (sampling !== null && n > 0) {
      cost.samples_batch_ns = timeBatch(batchLoop(), rule.predicate, recs, list, n, sampling);
      cost.samples_ns_total = cost.samples_batch_ns.map((ns) => Math.max(0, ns - perIteration * n));
      cost.ns_total = median(cost.samples_ns_total);
      cost.ns_per_evaluation = cost.ns_total / n;
    }
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const idx = list[j]!;
      if (rule.predicate(recs[idx]!)) {
        cost.matches++;
        if (rule.terminating) {
          cost.decided++;
          continue;
        }
      }
      next[kept++] = idx;
    }
    [list, next] = [next, list];
    n = kept;
    return cost;
  });
}

/** The costs of several rounds of profileRules on the same records, each rule's samples pooled. */
export function pooledCosts(rounds: readonly RuleCost[][]): RuleCost[] {
  return rounds[0]!.map((first, i) => {
    const samples = rounds.flatMap((costs) => costs[i]!.samples_ns_total);
    const ns = samples.length === 0 ? 0 : median(samples);
    const batches = rounds.flatMap((costs) => costs[i]!.samples_batch_ns);
    return { ...first, samples_ns_total: samples, samples_batch_ns: batches, ns_total: ns, ns_per_evaluation: first.evaluations === 0 ? 0 : ns / first.evaluations };
  });
}

/** Total rule evaluations of `rules` taken in `order` (indices into rules) on `recs`: what a reordering would cost. */
export function evaluationsInOrder(rules: readonly ProfiledRule[], order: readonly number[], recs: readonly PacketRecord[]): number {
  return countRules(order.map((i) => rules[i]!), recs).reduce((sum, c) => sum + c.evaluations, 0);
}
