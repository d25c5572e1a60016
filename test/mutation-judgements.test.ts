// The committed mutation reports (mutation/*.json, written by `npm run mutation`) against the
// judgements of docs/mutation.md: every mutant a report leaves alive (Survived, NoCoverage) is judged
// there, one line each, and every mutant judged there is still alive in its file's report. A test
// that kills a judged mutant, or a survivor nobody judged, fails here until the docs say why.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMutant, failedRun, type Report, type VitestReport } from '../bench/mutation-recheck.js';
import fc from 'fast-check';
import { judgementHead, type MutantRow, mutantSpan } from '../bench/mutation-report.js';
import { RECHECK_PARENT_VARIABLE, running } from '../bench/mutation-setup.js';
import { ROOT } from './helpers/cli.js';
import { committedReports } from './helpers/mutation-reports.js';

const ALIVE = new Set(['Survived', 'NoCoverage']);
const key = (m: Pick<MutantRow, 'line' | 'column' | 'end' | 'mutator' | 'replacement'>): string => `${m.line}:${m.column}-${m.end} ${m.mutator} ${JSON.stringify(m.replacement)}`;

const reports: Report[] = committedReports();

const docs = readFileSync(path.join(ROOT, 'docs/mutation.md'), 'utf8');

/** The judged mutants of a file's section (`### src/…`): lines `` - `L:C-L:C Mutator` `"replacement"` … `` (where it starts and ends). */
export function judgedIn(text: string, file: string): string[] {
  const markdown = `\n${text}`;
  const start = markdown.indexOf(`\n### ${file}\n`);
  if (start < 0) return [];
  const end = markdown.indexOf('\n### ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const judged: string[] = [];
  for (const m of section.matchAll(/^- `(\d+):(\d+)-(\d+:\d+) (\w+)` (`+) ?(".*?") ?\5(?!`)/gm)) {
    judged.push(key({ line: Number(m[1]), column: Number(m[2]), end: m[3]!, mutator: m[4]!, replacement: JSON.parse(m[6]!) as string }));
  }
  return judged;
}

describe('the judgements of docs/mutation.md against the committed reports (mutation/)', () => {
  it('parses a judgement line, a replacement holding backticks among them', () => {
    const md = '### src/x.ts\n\n- `12:5-12:9 ConditionalExpression` `"false"`: why.\n- `13:1-13:4 StringLiteral` `` "`a`" ``: why.\n\n### src/y.ts\n- `1:1-2:1 BlockStatement` `"{}"`: not x.\n';
    expect(judgedIn(md, 'src/x.ts')).toEqual(['12:5-12:9 ConditionalExpression "false"', '13:1-13:4 StringLiteral "`a`"']);
  });

  it('writes a survivor as its judgement starts (what `npm run mutation` prints), read back as the same mutant and a code span Markdown closes where it ends', () => {
    const mutant = fc.record({
      line: fc.integer({ min: 1, max: 2000 }),
      column: fc.integer({ min: 1, max: 200 }),
      end: fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 200 })).map(([l, c]) => `${l}:${c}`),
      mutator: fc.constantFrom('StringLiteral', 'ConditionalExpression', 'BlockStatement'),
      replacement: fc.string({ unit: fc.constantFrom('`', '"', 'a', ' ', '\\', '\n'), maxLength: 12 }),
    });
    fc.assert(
      fc.property(mutant, (m) => {
        const head = judgementHead(m);
        expect(judgedIn(`### src/x.ts\n\n${head}: why.\n`, 'src/x.ts')).toEqual([key(m)]);
        // CommonMark: a code span ends at the first run of backticks as long as the one that opened it
        const [, fence, inner] = /^- `[^`]+` (`+)(.*)\1$/s.exec(head)!;
        expect(inner!.split(/(?<!`)(`+)(?!`)/).filter((part) => part === fence)).toEqual([]);
        expect(inner!.trim()).toBe(JSON.stringify(m.replacement));
      }),
    );
  });

  it('has reports', () => {
    expect(reports.length).toBeGreaterThan(0);
  });

  for (const report of reports) {
    it(`${report.file} (${report.commit}): every survivor judged, every judged mutant a survivor`, () => {
      const alive = report.mutants.filter((m) => ALIVE.has(m.status)).map(key);
      const judged = judgedIn(docs, report.file);
      const byKey = new Map(report.mutants.map((m) => [key(m), m]));
      // a judged mutant the report has killed, or no longer has at all (its line moved: rerun and rejudge)
      expect(judged.filter((k) => !alive.includes(k)).map((k) => `${k}: ${byKey.get(k)?.status ?? 'not in the report'}${byKey.get(k)?.killedBy ? ` by ${byKey.get(k)!.killedBy}` : ''}`)).toEqual([]);
      // a survivor with no judgement: a gap in the tests until docs/mutation.md says why no input tells it apart
      expect(alive.filter((k) => !judged.includes(k))).toEqual([]);
      expect(new Set(judged).size).toBe(judged.length);
      // each judgement written as `npm run mutation` prints the survivor (so it renders as one code span)
      expect(report.mutants.filter((m) => ALIVE.has(m.status) && !docs.includes(`\n${judgementHead(m)}:`)).map(key)).toEqual([]);
    });
  }
});

describe('a committed report read back onto its source (what --recheck applies by hand)', () => {
  it('replaces the text from where a mutant starts to where it ends, across lines', () => {
    const source = 'const a = 1;\nif (x > 0) {\n  y();\n}\n';
    expect(applyMutant(source, { line: 2, column: 5, end: '2:10', replacement: 'x >= 0' })).toBe('const a = 1;\nif (x >= 0) {\n  y();\n}\n');
    expect(applyMutant(source, { line: 2, column: 12, end: '4:2', replacement: '{}' })).toBe('const a = 1;\nif (x > 0) {}\n');
    // an operator expression keeps its place in the tree: bracketed, so the operator beside it takes none of it
    const chain = 'const ok = a && b && c;\n';
    expect(applyMutant(chain, { line: 1, column: 12, end: '1:18', mutator: 'LogicalOperator', replacement: 'a || b' })).toBe('const ok = (a || b) && c;\n');
    expect(applyMutant('const n = x - y * 2;\n', { line: 1, column: 15, end: '1:20', mutator: 'ArithmeticOperator', replacement: 'y / 2' })).toBe('const n = x - (y / 2);\n');
    // a block, a literal or a condition's `true` is pasted as it is (a block in brackets would be an object)
    expect(applyMutant('f = () => { g(); };\n', { line: 1, column: 11, end: '1:19', mutator: 'BlockStatement', replacement: '{}' })).toBe('f = () => {};\n');
  });

  // a report whose source is unchanged since its commit: each mutant's range holds the code its mutator changes
  const SHAPES: Record<string, RegExp> = { BlockStatement: /^\{[\s\S]*\}$/, ArrayDeclaration: /^(\[[\s\S]*\]|new Array[\s\S]*\))$/, StringLiteral: /^(['"`])[\s\S]*\1$/, ObjectLiteral: /^\{[\s\S]*\}$/ };
  const current = reports.filter((r) => {
    try {
      execFileSync('git', ['diff', '--quiet', r.commit.replace(/-dirty$/, ''), '--', r.file], { cwd: ROOT, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  it('has a report whose source is unchanged since it was measured', () => {
    expect(current.length).toBeGreaterThan(0);
  });
  for (const report of current) {
    it(`${report.file}: each mutant's range holds what its mutator replaces`, () => {
      const source = readFileSync(path.join(ROOT, report.file), 'utf8');
      const wrong = report.mutants.filter((m) => {
        const shape = SHAPES[m.mutator];
        const original = source.slice(...mutantSpan(source, m));
        return original === m.replacement || (shape !== undefined && !shape.test(original));
      });
      expect(wrong.map(key)).toEqual([]);
    });
  }
});

describe("--recheck's reading of a failed vitest run", () => {
  it('counts a failed assertion as a kill and a test that ran out of its time as a timeout (vitest run for real)', () => {
    mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, 'tmp', 'recheck-outcome-'));
    try {
      // a config of its own (vitest's defaults find no test under the project's tmp/)
      writeFileSync(path.join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
      writeFileSync(path.join(dir, 'fails.test.ts'), "import { expect, it } from 'vitest';\nit('fails', () => { expect(1).toBe(2); });\n");
      writeFileSync(path.join(dir, 'slow.test.ts'), "import { it } from 'vitest';\nit('is slow', () => new Promise((r) => setTimeout(r, 3000)), 50);\n");
      const report = (file: string): VitestReport => {
        const out = path.join(dir, `${file}.json`);
        spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', file, '--config', 'vitest.config.mjs', '--reporter=json', `--outputFile=${out}`], { cwd: dir, stdio: 'ignore' });
        return JSON.parse(readFileSync(out, 'utf8')) as VitestReport;
      };
      expect(failedRun(report('fails.test.ts'), dir, 1)).toEqual({ status: 'Killed', killedBy: 'fails.test.ts#fails', seconds: 1 });
      expect(failedRun(report('slow.test.ts'), dir, 1)).toEqual({ status: 'Timeout', killedBy: 'slow.test.ts#is slow (timed out)', seconds: 1 });
      expect(failedRun(undefined, dir, 1)).toMatchObject({ status: 'Killed', killedBy: 'vitest failed without a failing test in its report' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("a recheck's vitest run (bench/vitest-mutation.config.ts)", () => {
  it('ends, with the test process it started, within seconds of the recheck that started it being gone, however it was stopped', async () => {
    mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, 'tmp', 'recheck-parent-'));
    const started = path.join(dir, 'started');
    const test = path.join(dir, 'waits.test.ts');
    writeFileSync(test, `import { writeFileSync } from 'node:fs';\nimport { it } from 'vitest';\nit('waits', async () => {\n  writeFileSync(${JSON.stringify(started)}, String(process.pid));\n  await new Promise((r) => setTimeout(r, 50_000));\n}, 60_000);\n`);
    // the recheck: a process that is killed without a word (SIGKILL, as a signal to its process alone can leave it)
    const recheck = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
    const vitest = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'bench/vitest-mutation.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, EDGESIM_MUTATION_TESTS: path.relative(ROOT, test), [RECHECK_PARENT_VARIABLE]: String(recheck.pid) },
      stdio: 'ignore',
    });
    const ended = new Promise<number | null>((resolve) => vitest.on('exit', (code) => resolve(code)));
    try {
      const until = Date.now() + 45_000;
      while (!existsSync(started) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      const worker = Number(readFileSync(started, 'utf8'));
      recheck.kill('SIGKILL');
      const gone = Date.now();
      expect(await ended).toBe(130);
      expect(Date.now() - gone).toBeLessThan(10_000);
      const workerUntil = Date.now() + 5_000;
      while (running(worker) && Date.now() < workerUntil) await new Promise((r) => setTimeout(r, 100));
      expect(running(worker)).toBe(false);
    } finally {
      recheck.kill('SIGKILL');
      vitest.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
