// The firewall's first-match loop, written once, as the source both generated evaluators are made
// of: the decoder's lane's (evaluator.ts, one call per rule's predicate) and the compiled program's
// (fastpath/generate.ts, conditions written from the bytes). A rule's test that holds counts a hit
// and records the rule; a terminating match counts a decision, writes the result and leaves; when no
// terminating rule matched, the packet passes (the vendor's default policy is permit). The generated
// code has `out` (the run's result, FirewallResult), `matched` (out.matched) and `m` (matches so far).

/** A rule's test: `test` is the condition's source; `leave` how a decision leaves the function ("return;"). */
export function ruleTestSource(index: number, test: string, terminating: boolean, drop: boolean, leave: string): string {
  const decide = terminating ? ` out.decided[${index}]++; out.decidingRule = ${index}; out.drop = ${drop}; out.matchedCount = m; ${leave}` : '';
  return `if (${test}) { out.hits[${index}]++; matched[m++] = ${index};${decide} }`;
}

/** After the last rule: no terminating match, the packet passes. */
export const NO_DECISION_SOURCE = 'out.drop = false; out.decidingRule = -1; out.matchedCount = m;';
