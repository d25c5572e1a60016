// The shape of a committed mutation report (mutation/<file>.json): written by `npm run mutation`
// (bench/mutation.ts), read back by test/mutation-judgements.test.ts.

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
