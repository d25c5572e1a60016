// JUnit XML for CI systems (GitHub, GitLab, Jenkins read it): one <testsuite> per suite file, one
// <testcase> per case with a unique name, the suite file and the case's line (`file`, `line`, as
// pytest writes them), a <failure> or <error> element with the one-line message
// as its attribute and the expected/actual lines and traces as its text; what a case reports as
// done (a golden file rewritten, a scenario's scores) goes to <system-out>. An invalid suite is one
// testcase named after its file, with an <error> at the problem's line.
import type { CaseResult } from '../suite.js';

/**
 * Text as XML character data or attribute value: escaped, characters XML 1.0 cannot hold dropped, and
 * line breaks, other control characters and the `[` of `##[` written as character references, so the
 * value reads back the same and no line of the file starts with text from a suite (terminal-text.ts).
 */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/[\t\n\r\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`)
    .replace(/##\[/g, '##&#x5b;');
}

function seconds(s: number): string {
  return s.toFixed(6);
}

export function junitReport(results: readonly CaseResult[]): string {
  const bySuite = new Map<string, CaseResult[]>();
  for (const r of results) bySuite.set(r.suite, [...(bySuite.get(r.suite) ?? []), r]);
  const used = new Set<string>();
  const unique = (name: string): string => {
    let n = name;
    for (let k = 2; used.has(n); k++) n = `${name} (${k})`;
    used.add(n);
    return n;
  };
  const count = (rs: readonly CaseResult[], s: CaseResult['status']): number => rs.filter((r) => r.status === s).length;
  const total = (rs: readonly CaseResult[]): number => rs.reduce((t, r) => t + r.seconds, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="edgesim test" tests="${results.length}" failures="${count(results, 'failed')}" errors="${count(results, 'error')}" time="${seconds(total(results))}">`,
  ];
  for (const [suite, rs] of bySuite) {
    out.push(`  <testsuite name="${xmlText(suite)}" tests="${rs.length}" failures="${count(rs, 'failed')}" errors="${count(rs, 'error')}" skipped="0" time="${seconds(total(rs))}">`);
    for (const r of rs) {
      const line = r.line === undefined ? '' : ` line="${r.line}"`;
      const open = `    <testcase name="${xmlText(unique(r.name))}" classname="${xmlText(suite)}" file="${xmlText(suite)}"${line} time="${seconds(r.seconds)}"`;
      const notes = r.notes.length === 0 ? [] : [`      <system-out>${xmlText(r.notes.join('\n'))}</system-out>`];
      if (r.status === 'passed') {
        out.push(...(notes.length === 0 ? [`${open}/>`] : [`${open}>`, ...notes, '    </testcase>']));
        continue;
      }
      const tag = r.status === 'failed' ? 'failure' : 'error';
      out.push(`${open}>`, `      <${tag} message="${xmlText(r.message)}" type="${tag}">${xmlText(r.details)}</${tag}>`, ...notes, '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
