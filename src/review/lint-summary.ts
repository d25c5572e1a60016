// lint's part of the job summary: a heading with the counts and a Markdown table of the findings
// (severity, rule, file:line, message), errors first, in the order of the file.
import { placeText } from '../config/location.js';
import { counted } from '../numbers.js';
import type { ReviewFinding } from './lint-findings.js';
import { markdownTable, markdownText } from './markdown.js';

const ORDER = { error: 0, warning: 1, note: 2 } as const;


/** The Markdown summary of lint's findings on `file`. */
export function lintSummary(file: string, findings: readonly ReviewFinding[]): string {
  const count = (severity: keyof typeof ORDER): number => findings.filter((r) => r.severity === severity).length;
  const head = `### edgesim lint ${markdownText(file)}: ${findings.length === 0 ? 'no findings' : `${counted(count('error'), 'error')}, ${counted(count('warning'), 'warning')}, ${counted(count('note'), 'note')}`}\n`;
  if (findings.length === 0) return head;
  const rows = [...findings]
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
    .map((r) => {
      const rule = r.finding.rule === null ? r.finding.ruleset : `${r.finding.ruleset} / ${r.finding.rule}`;
      return [r.severity, markdownText(r.finding.kind), markdownText(rule), markdownText(placeText(r.location)), markdownText(r.finding.message)];
    });
  return `${head}\n${markdownTable(['Severity', 'Finding', 'Rule', 'Where', 'Message'], rows).join('\n')}\n`;
}
