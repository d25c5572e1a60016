// The firewall's per-packet loop on the decoder's lane, generated for each ruleset from the one
// first-match loop (first-match.ts). A loop over an array of rule
// predicates calls them all from one call site, which V8 stops optimising once it has seen more
// than four different functions there; unrolled code gives each rule a call site of its own, which
// V8 can inline. Measured on a 10-rule ruleset: about 1.4x the packets per second of the loop.
// Hits and decisions are counted into the arrays the result carries (its run's), so the generated
// function itself holds no state. The generated source holds only rule indices and 0/1 flags, never
// text from the configuration.
import type { PacketRecord } from '../capture/record.js';
import { NO_DECISION_SOURCE, ruleTestSource } from './first-match.js';

/** The result fields the evaluator writes (FirewallResult), and the run's counts it adds to. */
export interface EvaluationOut {
  drop: boolean;
  decidingRule: number;
  matched: Int32Array;
  matchedCount: number;
  readonly hits: Float64Array;
  readonly decided: Float64Array;
}

export interface RuleProgram {
  predicates: ReadonlyArray<(p: PacketRecord) => boolean>;
  /** indices of the enabled rules, in evaluation order */
  order: Int32Array;
  /** per rule: 1 when a match ends evaluation (block, skip) */
  terminating: Uint8Array;
  /** per rule: 1 when a terminating match drops the packet (block) */
  drops: Uint8Array;
}

export type Evaluator = (p: PacketRecord, out: EvaluationOut) => void;

export function generateEvaluator(program: RuleProgram): Evaluator {
  const lines: string[] = [];
  for (const i of program.order) lines.push(`const p${i} = predicates[${i}];`);
  lines.push('return function evaluate(p, out) {', '  const matched = out.matched;', '  let m = 0;');
  for (const i of program.order) lines.push(`  ${ruleTestSource(i, `p${i}(p)`, program.terminating[i] === 1, program.drops[i] === 1, 'return;')}`);
  lines.push(`  ${NO_DECISION_SOURCE}`, '};');
  const factory = new Function('predicates', lines.join('\n')) as (predicates: RuleProgram['predicates']) => Evaluator;
  return factory(program.predicates);
}
