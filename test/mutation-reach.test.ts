// The recheck's probes (bench/mutation-reach.ts): a test file whose run never hits a mutant's probe is
// left out of that mutant's run, so a probe must run whenever the mutant's code runs. Checked on
// intervals.ts' 302 real mutants (a core file with no imports, so that each mutant loads alone): on any
// input, a mutant whose probe neither the module's loading nor the call hit gives the original's answer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyMutant, reachOf } from '../bench/mutation-recheck.js';
import { probeSource } from '../bench/mutation-reach.js';
import type { MutantRow } from '../bench/mutation-report.js';
import { ROOT } from './helpers/cli.js';
import { committedReports } from './helpers/mutation-reports.js';

/** `source` with a probe for each `marked` span (`⟦…⟧` around the code a mutant replaces), as text, without the prelude. */
function probedAt(marked: string): string {
  const mutants: Array<Pick<MutantRow, 'line' | 'column' | 'end'>> = [];
  const open: number[] = [];
  let source = '';
  for (const part of marked.split(/(⟦|⟧)/)) {
    const lines = source.split('\n');
    const here = { line: lines.length, column: lines.at(-1)!.length + 1 };
    if (part === '⟦') open.push(mutants.push({ ...here, end: '' }) - 1);
    else if (part === '⟧') mutants[open.pop()!]!.end = `${here.line}:${here.column}`;
    else source += part;
  }
  const { text } = probeSource(source, 'x.ts', mutants);
  // the prelude (one line, ending where its probes' Set is made) left out
  return text.slice(text.indexOf('new Set());') + 'new Set());'.length).replaceAll('globalThis.__edgesimReach?.', 'p');
}

describe("the recheck's probes: where each goes", () => {
  it('at the start of the block whose statements hold the mutant', () => {
    expect(probedAt('function f(a: number) {\n  const b = 1;\n  if (⟦a > b⟧) return 1;\n  return 0;\n}')).toBe(
      'function f(a: number) {p(0);\n  const b = 1;\n  if (a > b) return 1;\n  return 0;\n}',
    );
  });

  it('inside the block a BlockStatement mutant empties, and the body of a function an ArrowFunction mutant replaces', () => {
    expect(probedAt('if (x) ⟦{ y(); }⟧')).toBe('if (x) {p(0); y(); }');
    expect(probedAt('const f = ⟦(v: number) => v + 1⟧;')).toBe('const f = (v: number) => (p(0), v + 1);');
  });

  it("around the operand that runs only on a condition: a branch, the right of && || ??, a default value, a field's initializer", () => {
    expect(probedAt('const v = c ? ⟦a + 1⟧ : b;')).toBe('const v = c ? (p(0), a + 1) : b;');
    expect(probedAt('const v = a && ⟦b.c(1)⟧;')).toBe('const v = a && (p(0), b.c(1));');
    expect(probedAt('const v = a ?? ⟦[1]⟧;')).toBe('const v = a ?? (p(0), [1]);');
    expect(probedAt('function f(a = ⟦"x"⟧) {}')).toBe('function f(a = (p(0), "x")) {}');
    expect(probedAt('class C {\n  private m = ⟦new Map()⟧;\n}')).toBe('class C {\n  private m = (p(0), new Map());\n}');
  });

  it('never inside an optional chain or around a callee: at the start of the block instead', () => {
    expect(probedAt('{\n  const v = ⟦a?.b⟧.c;\n  ⟦o.m⟧();\n}')).toBe('{p(0);\n  const v = a?.b.c;\n  o.m();\n}');
  });

  it("in a case clause's statements; a case's test runs with its switch", () => {
    expect(probedAt('function f(k: number) {\n  switch (k) {\n    case ⟦1⟧: return ⟦"a"⟧;\n  }\n}')).toBe(
      'function f(k: number) {p(0);\n  switch (k) {\n    case 1:p(1); return "a";\n  }\n}',
    );
  });

  it('module-level code at the start of the file; nested places each get their own probe, mutants at one place share one', () => {
    expect(probedAt('export const NONE = ⟦[]⟧;\nconst v = a ? ⟦b ? ⟦c⟧ : d⟧ : e;')).toBe('p(0);export const NONE = [];\nconst v = a ? (p(1), b ? (p(2), c) : d) : e;');
    const { probeOf, probes } = probeSource('if (a) { b(); c(); }', 'x.ts', [
      { line: 1, column: 10, end: '1:13' },
      { line: 1, column: 15, end: '1:18' },
    ]);
    expect({ probeOf, probes }).toEqual({ probeOf: [0, 0], probes: 1 });
  });

  it("every mutant of every committed report gets a probe that keeps its file's lines and parses", () => {
    for (const report of committedReports()) {
      const source = readFileSync(path.join(ROOT, report.file), 'utf8');
      const { text } = probeSource(source, report.file, report.mutants);
      const parsed = ts.createSourceFile(report.file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) as ts.SourceFile & { parseDiagnostics: ts.Diagnostic[] };
      expect({ file: report.file, errors: parsed.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')) }).toEqual({ file: report.file, errors: [] });
      expect(text.split('\n').length).toBe(source.split('\n').length);
    }
  });
});

type Module = Record<string, (...args: unknown[]) => unknown>;

/** A TypeScript module with no imports, loaded from its text. */
async function load(source: string): Promise<Module> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Module;
}

describe("the recheck's probes: a mutant whose probe does not run changes nothing (intervals.ts' 302 mutants)", () => {
  const file = 'src/analysis/intervals.ts';
  const report = committedReports().find((r) => r.file === file)!;
  const source = readFileSync(path.join(ROOT, file), 'utf8');

  it('on random sets, every operation', async () => {
    const hits = new Set<number>();
    const g = globalThis as { __edgesimReach?: (k: number) => void };
    g.__edgesimReach = (k) => hits.add(k);
    try {
      const probed = probeSource(source, file, report.mutants);
      const original = await load(source);
      const withProbes = await load(probed.text);
      const atLoad = new Set(hits);
      const mutants = await Promise.all(report.mutants.map((m) => load(applyMutant(source, m))));
      const ranges = fc.array(fc.tuple(fc.bigInt(-6n, 30n), fc.bigInt(-6n, 30n)), { maxLength: 5 });
      const call = (mod: Module, op: string, a: unknown, b: unknown): string => {
        try {
          mod.forgetRemembered!();
          const sa = mod.fromRanges!(a);
          const sb = mod.fromRanges!(b);
          const args = op === 'contains' ? [sa, (b as Array<[bigint, bigint]>)[0]?.[0] ?? 0n] : op === 'range' ? [(a as Array<[bigint, bigint]>)[0]?.[0] ?? 0n, (b as Array<[bigint, bigint]>)[0]?.[0] ?? 0n] : op === 'first' || op === 'isEmpty' ? [sa] : [sa, sb];
          return JSON.stringify(mod[op]!(...args), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
        } catch (e) {
          return `throws ${String(e)}`;
        }
      };
      const ops = ['intersect', 'overlaps', 'subtract', 'union', 'covers', 'contains', 'first', 'equal', 'isEmpty', 'range', 'point'];
      let unreached = 0;
      let reached = 0;
      fc.assert(
        fc.property(ranges, ranges, fc.constantFrom(...ops), (a, b, op) => {
          hits.clear();
          for (const k of atLoad) hits.add(k);
          const want = call(withProbes, op, a, b);
          expect(want).toBe(call(original, op, a, b));
          for (const [i, m] of report.mutants.entries()) {
            if (hits.has(probed.probeOf[i]!)) {
              reached++;
              continue;
            }
            unreached++;
            expect({ mutant: `${m.line}:${m.column} ${m.mutator} ${m.replacement}`, got: call(mutants[i]!, op, a, b) }).toEqual({ mutant: `${m.line}:${m.column} ${m.mutator} ${m.replacement}`, got: want });
          }
        }),
        { numRuns: 300 },
      );
      // the property says something: most mutants go unreached by most calls, and the rest run
      expect(unreached).toBeGreaterThan(300 * 150);
      expect(reached).toBeGreaterThan(300 * 20);
    } finally {
      delete g.__edgesimReach;
    }
  });
});

describe("the recheck's probed run: which test files reached each probe", () => {
  it("reads each process's test file, and a process a test started as its parent's", () => {
    const lines = ['10 1 0', '10 file /d/test/a.test.ts', '11 1 0', '11 1 2', '11 file /d/test/b.test.ts', '12 10 3', '10 1 0'].join('\n');
    expect(reachOf(lines, '/d')).toEqual(
      new Map([
        [0, new Set(['test/a.test.ts', 'test/b.test.ts'])],
        [2, new Set(['test/b.test.ts'])],
        [3, new Set(['test/a.test.ts'])],
      ]),
    );
  });

  it('refuses hits it cannot give a test file, and a process that ran two', () => {
    expect(() => reachOf('10 1 0\n', '/d')).toThrow('process 10 reached probe 0 but named no test file');
    expect(() => reachOf('10 file /d/a.test.ts\n10 file /d/b.test.ts\n', '/d')).toThrow('ran a.test.ts and b.test.ts in one process');
  });
});
