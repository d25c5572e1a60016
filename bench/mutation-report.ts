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
}
