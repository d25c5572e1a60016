// Text from configurations, captures and suites inside GitHub-flavoured Markdown (job summaries,
// pull-request reports): control characters shown as escapes (terminal-text), Markdown's marks
// escaped so a rule ref or a case name cannot make a link, a table cell or emphasis of its own.
import { printable } from '../terminal-text.js';

/** `text` as literal Markdown text, on one line. */
export function markdownText(text: string): string {
  return printable(text)
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A Markdown table; cells are Markdown already (escape text with markdownText). */
export function markdownTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [row(head), row(head.map(() => '---')), ...rows.map(row)];
}
