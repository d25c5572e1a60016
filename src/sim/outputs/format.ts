// Number, share and table formatting shared by the replay summary's sections.
import stringWidth from 'string-width';
import { groupDigits } from '../../numbers.js';

export const count = (v: number): string => groupDigits(Math.round(v));

/** part of whole as a percentage: whole numbers at 0% and 100%, two decimals between */
export const share = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(part === whole || part === 0 ? 0 : 2)}%`;

/** printable ASCII only: one column a character */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The columns a line of text takes on a terminal: its length for printable ASCII, else as
 * `string-width` counts them (wide East Asian characters and emoji take two, combining marks none).
 * The summary is nearly always ASCII, and string-width's first call compiles a large regular
 * expression (its emoji), which took a third of a small replay's time (README "Speed").
 */
function columns(line: string): number {
  return PLAIN.test(line) ? line.length : stringWidth(line);
}

/**
 * A table with a header row, boxed with the box-drawing characters and no rules between rows, each
 * cell left-aligned between one space on each side; a cell of several lines makes its row as tall.
 * The same text cli-table3 gives with `style: { head: [], border: [] }` and the `mid` characters
 * empty, which it replaced (test/sim/outputs/format.test.ts compares them).
 */
export class TextTable {
  private readonly rows: string[][] = [];

  constructor(private readonly head: readonly string[]) {}

  push(...rows: ReadonlyArray<ReadonlyArray<string | number>>): void {
    for (const row of rows) this.rows.push(row.map(String));
  }

  get length(): number {
    return this.rows.length;
  }

  toString(): string {
    const rows = [this.head, ...this.rows].map((row) => row.map((cell) => cell.split('\n')));
    const width = Math.max(...rows.map((row) => row.length));
    const widths = Array.from({ length: width }, (_, c) => Math.max(...rows.map((row) => Math.max(...(row[c] ?? ['']).map(columns)))) + 2);
    const rule = (left: string, mid: string, right: string) => left + widths.map((w) => '─'.repeat(w)).join(mid) + right;
    const out = [rule('┌', '┬', '┐')];
    for (const row of rows) {
      const height = Math.max(...row.map((lines) => lines.length));
      for (let i = 0; i < height; i++) out.push(`│${widths.map((w, c) => ` ${pad(row[c]?.[i] ?? '', w - 2)} `).join('│')}│`);
    }
    out.push(rule('└', '┴', '┘'));
    return out.join('\n');
  }
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - columns(text)));
}

/** a table with a header row and no rules between body rows */
export function table(head: string[]): TextTable {
  return new TextTable(head);
}
