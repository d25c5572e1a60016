// The terminal report of `edgesim test`: one line per case as it finishes, then for each failure the
// expected and actual values and the trace of the packets concerned, then a total line.
import { counted } from '../../numbers.js';
import { printable } from '../../terminal-text.js';
import type { CaseOutcome, CaseResult } from '../suite.js';
import { formatTrace } from './trace-text.js';
import { placeText } from '../../config/location.js';
import type { RefLocator } from '../../sim/rule-places.js';

const LABEL = { passed: 'PASS ', failed: 'FAIL ', error: 'ERROR' } as const;

export function caseLine(r: CaseResult): string {
  const message = r.message === '' ? '' : `: ${r.message}`;
  return `${LABEL[r.status]} ${printable(`${r.name}${message}`)} (${r.seconds.toFixed(2)}s)`;
}

/** What went wrong in a failed case, for after the per-case lines; `placeOf` says where each trace's deciding rule is written. */
export function failureDetails(r: Pick<CaseResult, 'name' | 'suite' | 'kind'>, o: CaseOutcome, placeOf: RefLocator = () => undefined): string {
  const lines = [`--- ${printable(`${r.name} (${r.suite}, ${r.kind})`)}`];
  for (const f of o.failures) lines.push(`  ${printable(f)}`);
  for (const w of o.warnings) lines.push(`  warning: ${printable(w)}`);
  for (const t of o.traces) {
    const at = t.rule === null ? undefined : placeOf(t.rule);
    lines.push('  trace:', ...(at === undefined ? [] : [`    deciding rule ${printable(t.rule!)} is written at ${printable(placeText(at))}`]), formatTrace(t, '    '));
  }
  return lines.join('\n');
}

export function totalsLine(results: readonly CaseResult[]): string {
  const n = (s: CaseResult['status']): number => results.filter((r) => r.status === s).length;
  return `${counted(results.length, 'case')}: ${n('passed')} passed, ${n('failed')} failed, ${counted(n('error'), 'error')}`;
}
