// `edgesim test` where reviewers look: a workflow-command annotation per case that did not pass, at
// the case's line in its suite (GitHub shows about ten a step, so invalid suites come first and the
// rest are counted), and the job summary's table of those cases.
import { counted } from '../numbers.js';
import { isInvalidSuite } from '../suite/run.js';
import type { CaseResult } from '../suite/suite.js';
import { markdownTable, markdownText } from './markdown.js';
import { shownAnnotations } from './workflow-commands.js';

/** The cases that did not pass, invalid suites first, then in the order they ran. */
function notPassed(results: readonly CaseResult[]): CaseResult[] {
  const bad = results.filter((r) => r.status !== 'passed');
  return [...bad.filter(isInvalidSuite), ...bad.filter((r) => !isInvalidSuite(r))];
}

/** `::error file=SUITE,line=N,title=CASE::message` lines, at most ANNOTATIONS_SHOWN (shownAnnotations), then one saying how many more. */
export function testAnnotations(results: readonly CaseResult[]): string[] {
  return shownAnnotations(
    notPassed(results).map((r) => ({ level: 'error' as const, file: r.suite, line: r.line, title: r.name, message: r.message })),
    (more) => `... and ${counted(more, 'more case')} that did not pass (listed in the job summary and the JUnit report)`,
  );
}

/** The job summary: a heading with the counts, and a table of the cases that did not pass. */
export function testSummary(results: readonly CaseResult[]): string {
  const bad = notPassed(results);
  const n = (s: CaseResult['status']): number => results.filter((r) => r.status === s).length;
  const head = `### edgesim test: ${counted(results.length, 'case')}, ${n('passed')} passed, ${n('failed')} failed, ${counted(n('error'), 'error')}`;
  if (bad.length === 0) return `${head}\n`;
  const rows = bad.map((r) => [
    markdownText(r.suite),
    markdownText(r.name),
    markdownText(r.line === undefined ? r.suite : `${r.suite}:${r.line}`),
    r.status,
    markdownText(r.message),
  ]);
  return `${[head, '', ...markdownTable(['Suite', 'Case', 'Where', 'Status', 'Expected vs got'], rows)].join('\n')}\n`;
}
