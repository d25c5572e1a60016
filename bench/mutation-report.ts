// The shape of a committed mutation report (mutation/<file>.json): written by `npm run mutation`
// (bench/mutation.ts), read back by test/mutation-judgements.test.ts and by the recheck (bench/mutation-recheck.ts).

/** One line per mutant: where (1-based, to where it ends), what, and what became of it (the first test that killed it, as `file#describe test`). */
export interface MutantRow {
  line: number;
  column: number;
  /** where it ends, line:column */
  end: string;
  mutator: string;
  replacement: string;
  status: string;
  killedBy?: string;
  /** decided by `npm run mutation -- --recheck` (applied by hand, run against every test that loads the file), not by the Stryker run */
  rechecked?: boolean;
}

/** A report's text: its head, then one mutant a line (so that a diff of two runs shows the mutants that changed). */
export function reportText(head: Record<string, unknown>, rows: readonly MutantRow[]): string {
  const body = rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  return `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "mutants": [\n${body}\n  ]\n}\n`;
}

/** A mutant as docs/mutation.md judges it: `` `line:column-line:column Mutator` `"replacement"` `` (the replacement JSON-quoted, fenced with one backtick more than its longest run of them, and spaced inside a longer fence). */
export function judgementHead(m: Pick<MutantRow, 'line' | 'column' | 'end' | 'mutator' | 'replacement'>): string {
  const quoted = JSON.stringify(m.replacement);
  const fence = '`'.repeat(Math.max(0, ...Array.from(quoted.matchAll(/`+/g), (r) => r[0].length)) + 1);
  const pad = fence.length > 1 ? ' ' : '';
  return `- \`${m.line}:${m.column}-${m.end} ${m.mutator}\` ${fence}${pad}${quoted}${pad}${fence}`;
}

/** Where a mutant's code starts and ends in `source`, as offsets (its report gives 1-based lines and columns). */
export function mutantSpan(source: string, m: Pick<MutantRow, 'line' | 'column' | 'end'>): [number, number] {
  const lines = source.split('\n');
  const offset = (line: number, column: number): number => {
    if (line < 1 || line > lines.length) throw new Error(`line ${line} is outside the file (${lines.length} lines)`);
    let at = 0;
    for (let i = 0; i < line - 1; i++) at += lines[i]!.length + 1;
    return at + column - 1;
  };
  const [endLine, endColumn] = m.end.split(':').map(Number) as [number, number];
  return [offset(m.line, m.column), offset(endLine, endColumn)];
}
