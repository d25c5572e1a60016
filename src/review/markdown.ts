// Text from configurations, captures and suites inside GitHub-flavoured Markdown (job summaries,
// pull-request reports): control characters shown as escapes (terminal-text), Markdown's marks
// escaped so a rule ref or a case name cannot make a link, a table cell or emphasis of its own,
// and what GitHub turns into a notification or a link by itself broken by an invisible
// zero-width space (as Renovate does): an `@team` mention, an issue reference `#12`, a bare URL
// (`https://…`, `www.…`) or e-mail address. The text still reads the same.
import { printable } from '../terminal-text.js';

/** U+200B ZERO WIDTH SPACE, as an entity so that it shows in the Markdown source. */
const BREAK = '&#8203;';

/** `text` as literal Markdown text, on one line, that mentions and links nothing. */
export function markdownText(text: string): string {
  return printable(text)
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/#(?=\d)/g, `#${BREAK}`)
    .replace(/@/g, `@${BREAK}`)
    .replace(/:\/\//g, `:${BREAK}//`)
    .replace(/\b(www)\./gi, `$1${BREAK}.`);
}

/** A Markdown table; cells are Markdown already (escape text with markdownText). */
export function markdownTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [row(head), row(head.map(() => '---')), ...rows.map(row)];
}
