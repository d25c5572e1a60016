// `npm run mutation [file...] [--stale] [--subset] [--list] [--recheck [--tests a,b]] [--concurrency N]`: mutation
// testing (StrykerJS, stryker.config.mjs) of the core, one file at a time, against every test that loads
// the file in vitest's process (with --subset, a chosen subset: OWN_TESTS or the mirroring test folder).
// With no file named it runs every core file; with --stale, the core files whose row is missing or whose
// source changed since the commit the row names; --list prints each file's tests; --recheck applies the
// survivors of a file's committed report by hand and runs against each every test that loads it and
// reaches its code (bench/mutation-recheck.ts, bench/mutation-reach.ts; --tests: against those only, the
// tests changed since the run). Each file's score is written into bench/results/mutation.json (files not
// run keep their row) and its per-mutant results into mutation/<file>.json; its survivors are printed.
// Too slow for every CI run: `npm test` never runs it, but test/mutation-judgements.test.ts checks the
// committed reports against the judgements of docs/mutation.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';
import ts from 'typescript';
import type { MutantResult } from '@stryker-mutator/api/core';
import { needsGlobalSetup } from './mutation-setup.js';
import { judgementHead, type MutantRow, reportText } from './mutation-report.js';
import { recheck } from './mutation-recheck.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineFile = path.join(root, 'bench/results/mutation.json');

/** The core: the language's evaluators and sets, addresses and prefix sets, the firewall, the fast
 * path's conditions and frame record, each protection component, the analysis, the one place a frame
 * is decided and its lane, the language server's mapping from host files (JSON, YAML, HCL, .rules)
 * to expression positions, the protocol layers (each field's registry entry, place in its header,
 * record property, suite default and witness values, and the list index.ts makes of them) and the
 * decoder's readers generated from them (a folder stands for its .ts files; its index.ts too when it
 * holds code, not only re-exports). */
const CORE = [
  'src/lang/eval',
  'src/net',
  'src/firewall',
  'src/fastpath/conditions.ts',
  'src/fastpath/frame-record.ts',
  'src/atp/atp-component.ts',
  'src/atp/atp-configuration.ts',
  'src/atp/syn-protection.ts',
  'src/atp/out-of-state-protection.ts',
  'src/atp/egress-tracking.ts',
  'src/atp/connection-tracking.ts',
  'src/atp/flow-table.ts',
  'src/atp/rate-meter.ts',
  'src/atp/component-modes.ts',
  'src/atp/component-rules.ts',
  'src/analysis',
  'src/sim/decide-frame.ts',
  'src/sim/lane.ts',
  'src/lsp/hosts',
  'src/layers',
  'src/capture/decode/layer-readers.ts',
];

interface FileScore {
  /** killed (or timed out) over killed + survived + untested, in percent */
  score: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** mutants that do not compile or throw on loading: not counted */
  errors: number;
  tests: string;
  date: string;
  commit: string;
}

interface Baseline {
  stryker: string;
  files: Record<string, FileScore>;
}

/** Whether a file has nothing to mutate: compiled to JavaScript (types gone), its statements are all
 * re-exports (`export … from`), as an index.ts that only re-exports, or none, as a file of types. */
function nothingToMutate(file: string): boolean {
  const js = ts.transpileModule(readFileSync(path.join(root, file), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext, removeComments: true } }).outputText;
  return js
    .split(';')
    .map((s) => s.trim())
    .every((s) => s === '' || s === 'export {}' || /^export\s+(\*|\{[^}]*\})\s*from\s*['"][^'"]+['"]$/.test(s));
}

function coreFiles(): string[] {
  return CORE.flatMap((p) =>
    p.endsWith('.ts')
      ? [p]
      : readdirSync(path.join(root, p))
          // a folder's index.ts that only re-exports, a file of types: nothing to mutate (src/layers/index.ts
          // makes the list of the layers' fields: it is run; src/layers/field-entry.ts, the registry's types, is not)
          .filter((f) => f.endsWith('.ts') && !nothingToMutate(`${p}/${f}`))
          .map((f) => `${p}/${f}`),
  );
}

// Differential tests whose two sides both run the mutated file's code: a mutant changes both sides
// alike, so these cannot kill it and only cost time (the fast path against the packet path both run
// ATP's components; the flow table against its old layout, ATP's components other than the table).
const BOTH_SIDES: Array<[RegExp, string]> = [
  [/^src\/atp\//, 'test/atp/fast-path-diff.test.ts'],
  [/^src\/atp\/(?!flow-table\.ts$)/, 'test/atp/flow-table-layout.test.ts'],
];

// Files every test of their folder reaches (each ATP packet goes through the meter and the table), so
// that a run against the whole folder takes over 40 minutes on the shared machine (rate-meter.ts: 45
// min; flow-table.ts's layout property alone takes 50 s a run): these run against the tests that
// state their own behaviour.
// The protocol layers' fields and the readers generated from them: loaded by every test that decodes,
// builds or compiles (114 files, 57 more through the build), and mostly module-level tables, whose
// static mutants Stryker runs against every related test. These state what the layers hold: their own
// facts (the ATP filters' fields, ip.len's bound, the layers' names: layers), fields added by a test
// (test-only-field; field-shapes: four bytes, an odd offset, a mask), the registry and its round trip through the builder and both lanes
// (field-registry), the reference against docs/fields.md and the binding (fields/), the decoder's
// values (decode, protocols, record-shape), the compiled lane's header reads (frame-record), the
// suites' builder (packet-builder) and the witness's values (witness, field-dimensions): 4.5 s of
// tests, plus the build once per sandbox (decode and packet-builder ask tshark).
const LAYER_TESTS = [
  'test/layers/layers.test.ts',
  'test/layers/field-shapes.test.ts',
  'test/layers/test-only-field.test.ts',
  'test/field-registry.test.ts',
  'test/fields/reference.test.ts',
  'test/fields/fields.test.ts',
  'test/capture/decode.test.ts',
  'test/capture/protocols.test.ts',
  'test/capture/record-shape.test.ts',
  'test/fastpath/frame-record.test.ts',
  'test/suite/packet-builder.test.ts',
  'test/analysis/witness.test.ts',
  'test/analysis/field-dimensions.test.ts',
];
const LAYER_FILES = ['define.ts', 'icmp.ts', 'index.ts', 'ip.ts', 'layer.ts', 'location.ts', 'tcp.ts', 'udp.ts'].map((f) => `src/layers/${f}`);

const OWN_TESTS: Record<string, string[]> = {
  ...Object.fromEntries([...LAYER_FILES, 'src/capture/decode/layer-readers.ts'].map((f) => [f, LAYER_TESTS])),
  'src/atp/rate-meter.ts': ['test/atp/rate-meter.test.ts', 'test/atp/explanation.test.ts'],
  'src/atp/flow-table.ts': ['test/atp/flow-table.test.ts'],
  // the conditions' own differential test (each comparison alone vs the firewall's predicate, in memory), the conformance rows, bit_slice, the reasons of rules not written, lookups (frame-record); the capture-file differentials (properties, corpus-, lookup-, replay-diff, diff-shared, edge-frames, classifier) compile the same comparisons at 6-30 s a run (2 h in all)
  'src/fastpath/conditions.ts': ['test/fastpath/conditions.test.ts', 'test/fastpath/conformance.test.ts', 'test/fastpath/bit-slice.test.ts', 'test/fastpath/decoded-rules.test.ts', 'test/fastpath/frame-record.test.ts', 'test/fastpath/not-compiled.test.ts'],
  // the frame's record in memory, and through capture files (decoded-rules); lookup-diff's lookups take 25 s a run
  'src/fastpath/frame-record.ts': ['test/fastpath/frame-record.test.ts', 'test/fastpath/decoded-rules.test.ts'],
  // the space's own properties against point models, and the cover search over it; against all of test/analysis over an hour (its looping mutants each wait out the timeout)
  // (with --subset) and the lint findings that depend on its answers and work: the 200-rule allowlists near the default work limit (expression), blocked_by and the work-limit messages (lint, lint-findings); against every test that loads it (28 files) 24 s a mutant, 1.5 to 2 hours
  'src/analysis/space.ts': ['test/analysis/space.test.ts', 'test/analysis/cover.test.ts', 'test/analysis/expression.test.ts', 'test/analysis/lint.test.ts', 'test/analysis/lint-findings.test.ts'],
  // each comparison's region: against the real firewall (expression, properties), the models built from them, lint's findings
  'src/analysis/atoms.ts': ['test/analysis/atoms.test.ts', 'test/analysis/expression.test.ts', 'test/analysis/properties.test.ts', 'test/analysis/model.test.ts', 'test/analysis/lint.test.ts', 'test/analysis/lint-findings.test.ts'],
  // the intervals' own properties against sets of numbers (intervals.test.ts): every analysis test reaches them (32 files), and against all of test/analysis the run's estimate passed 3 hours on the shared machine; its survivors are rechecked by hand against every test that loads it
  'src/analysis/intervals.ts': ['test/analysis/intervals.test.ts'],
  // the registry's fields on the dimensions: as the registry states them (field-dimensions), and as callers see them: every field known to every stage, spaces written for boxes, witnesses pinned, comparisons' regions (10 s a run); mostly module-level tables, so against all of test/analysis each static mutant would run every test
  'src/analysis/field-dimensions.ts': ['test/analysis/field-dimensions.test.ts', 'test/field-registry.test.ts', 'test/analysis/space-spec.test.ts', 'test/analysis/pinning.test.ts', 'test/analysis/expression.test.ts'],
};

function testFilesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFilesUnder(`${folder}/${e.name}`) : e.name.endsWith('.test.ts') ? [`${folder}/${e.name}`] : [],
  );
}

/** The relative imports of a source or test file (static, type-only excluded, dynamic included), as files from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[;\n])\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.\.?\/[^'"]+)['"]|import\s*\(\s*['"](\.\.?\/[^'"]+)['"]/g)) {
    let target = path.join(path.dirname(file), (m[1] ?? m[2])!);
    if (target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
    if (existsSync(path.join(root, target))) out.push(target);
    else if (existsSync(path.join(root, target, 'index.ts'))) out.push(path.join(target, 'index.ts'));
  }
  return out;
}

/** Every test file whose imports (followed through test/ and src/) load `file` in vitest's own process:
 * the tests that can reach its code. Tests that reach it only through dist/ or a child process run
 * code Stryker does not switch, so they are not counted. */
function reachingTests(file: string): string[] {
  const tests = testFilesUnder('test');
  // who imports whom, backwards from `file`
  const importers = new Map<string, string[]>();
  const todo = [...tests];
  const read = new Set<string>(todo);
  while (todo.length > 0) {
    const f = todo.pop()!;
    for (const g of importsOf(f)) {
      importers.set(g, [...(importers.get(g) ?? []), f]);
      if (!read.has(g)) {
        read.add(g);
        todo.push(g);
      }
    }
  }
  const reached = new Set<string>([file]);
  const back = [file];
  while (back.length > 0) {
    for (const f of importers.get(back.pop()!) ?? []) {
      if (!reached.has(f)) {
        reached.add(f);
        back.push(f);
      }
    }
  }
  return tests.filter((t) => reached.has(t));
}

/** The tests related to a source file: every test that loads it (`reachingTests`), or with
 * `subset`, a file's `OWN_TESTS` or the test folder mirroring its top source folder. */
function relatedTests(file: string, subset: boolean): { files: string[]; description: string } {
  if (!existsSync(path.join(root, file))) throw new Error(`${file}: no such file`);
  if (!file.startsWith('src/')) throw new Error(`${file}: not a source file under src/`);
  if (!subset) {
    const loading = reachingTests(file).filter((t) => !BOTH_SIDES.some(([source, test]) => source.test(file) && test === t));
    // tests that need the build (they run the CLI in a child process or read dist/): what they run
    // there is not the code Stryker switches, and in a sandbox one of them (test/lib/simulator.test.ts's
    // merged replay) fails the initial run; they are left out and counted
    const files = loading.filter((t) => !needsGlobalSetup(t));
    return { files, description: `every test that loads it in vitest's process (${files.length} files; ${loading.length - files.length} more need the build, left out)` };
  }
  const own = OWN_TESTS[file];
  if (own !== undefined) return { files: own, description: own.join(', ') };
  const folder = `test/${file.split('/')[1]}`;
  if (!existsSync(path.join(root, folder))) throw new Error(`${file}: no test folder ${folder} mirrors its folder`);
  const left = BOTH_SIDES.filter(([source]) => source.test(file)).map(([, test]) => test);
  return {
    files: testFilesUnder(folder).filter((t) => !left.includes(t)),
    description: `${folder}/**/*.test.ts${left.length > 0 ? ` but ${left.map((t) => path.basename(t)).join(', ')}` : ''}`,
  };
}

/** Tests find ../shared (the corpus) beside the project's root: beside each sandbox too. */
function linkShared(): void {
  const shared = path.resolve(root, '../shared');
  const sandboxes = path.join(root, 'tmp/stryker');
  mkdirSync(sandboxes, { recursive: true });
  if (existsSync(shared) && !existsSync(path.join(sandboxes, 'shared'))) symlinkSync(shared, path.join(sandboxes, 'shared'));
}

/** The commit measured, with -dirty when sources or tests had changes not committed. */
function commit(): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const changes = execFileSync('git', ['status', '--porcelain', '--', 'src', 'test'], { cwd: root, encoding: 'utf8' }).trim();
  return changes === '' ? head : `${head}-dirty`;
}

function readBaseline(): Baseline {
  return existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, 'utf8')) : { stryker: '', files: {} };
}

/** The file's row written into the baseline as it is now (a run takes minutes: another may have written rows since this one began). */
function writeRow(file: string, row: FileScore, stryker: string): void {
  const baseline = readBaseline();
  const files = Object.fromEntries(Object.entries({ ...baseline.files, [file]: row }).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(baselineFile, `${JSON.stringify({ stryker, files }, null, 2)}\n`);
}

/** Core files without a row, or changed (committed or not) since the commit their row names. */
function staleFiles(baseline: Baseline): string[] {
  return coreFiles().filter((file) => {
    const row = baseline.files[file];
    if (row === undefined) return true;
    const since = row.commit.replace(/-dirty$/, '');
    try {
      execFileSync('git', ['diff', '--quiet', since, '--', file], { cwd: root });
      return false;
    } catch {
      // exit 1: changed; any other failure (an unknown commit) also means the row cannot be trusted
      return true;
    }
  });
}

/** A file's score from its mutants' statuses (Stryker's results, or a report's rows). */
function score(results: ReadonlyArray<{ status: string }>, tests: string, measured: string): FileScore {
  const count = (s: MutantResult['status']) => results.filter((r) => r.status === s).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const counted = killed + timeout + survived + noCoverage;
  return {
    score: counted === 0 ? 100 : Math.round((1000 * (killed + timeout)) / counted) / 10,
    killed,
    timeout,
    survived,
    noCoverage,
    errors: count('CompileError') + count('RuntimeError'),
    tests,
    date: new Date().toISOString().slice(0, 10),
    commit: measured,
  };
}

interface StrykerReport {
  files: Record<string, { mutants: Array<{ location: { start: { line: number; column: number }; end: { line: number; column: number } }; mutatorName: string; replacement?: string; status: string; killedBy?: string[] }> }>;
  testFiles?: Record<string, { tests: Array<{ id: string; name: string }> }>;
}

type Location = StrykerReport['files'][string]['mutants'][number]['location'];

/** Where a mutant starts and ends, as a report's row says it (1-based, in Stryker's results and its JSON report alike). */
const placeOf = ({ start, end }: Location): Pick<MutantRow, 'line' | 'column' | 'end'> => ({ line: start.line, column: start.column, end: `${end.line}:${end.column}` });

/** The per-mutant results of a run (from Stryker's JSON report), committed under mutation/ (mutation/src_analysis_space.ts.json). */
function writeReport(file: string, reportFile: string, s: FileScore, stryker: string): void {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as StrykerReport;
  const tests = new Map<string, string>();
  for (const [f, { tests: list }] of Object.entries(report.testFiles ?? {})) for (const t of list) tests.set(t.id, `${path.relative(root, f)}#${t.name}`);
  const rows: MutantRow[] = Object.values(report.files)
    .flatMap((f) => f.mutants)
    .map((m) => ({
      ...placeOf(m.location),
      mutator: m.mutatorName,
      replacement: m.replacement ?? '',
      status: m.status,
      ...(m.killedBy !== undefined && m.killedBy.length > 0 ? { killedBy: tests.get(m.killedBy[0]!) ?? m.killedBy[0]! } : {}),
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column || cmp(a.mutator, b.mutator) || cmp(a.replacement, b.replacement) || cmp(a.end, b.end));
  const head = { file, commit: s.commit, date: s.date, stryker, tests: s.tests, score: s.score };
  mkdirSync(path.join(root, 'mutation'), { recursive: true });
  writeFileSync(reportPath(file), reportText(head, rows));
}

const reportPath = (file: string): string => path.join(root, 'mutation', `${file.replaceAll('/', '_')}.json`);

/** Code-point order (Python's, so a row's place never depends on the locale). */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A survivor as its judgement in docs/mutation.md starts. */
function describeSurvivor(r: MutantResult): string {
  return `${judgementHead({ ...placeOf(r.location), mutator: r.mutatorName, replacement: r.replacement ?? '' })}: ${r.status}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { concurrency: { type: 'string', default: '1' }, stale: { type: 'boolean', default: false }, subset: { type: 'boolean', default: false }, list: { type: 'boolean', default: false }, recheck: { type: 'boolean', default: false }, tests: { type: 'string' } },
  });
  const concurrency = Number(values.concurrency);
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new Error(`--concurrency: "${values.concurrency}" is not a whole number from 1`);
  if (values.tests !== undefined && !values.recheck) throw new Error('--tests goes with --recheck');
  if (values.stale && positionals.length > 0) throw new Error('--stale picks the files itself: name no file with it');
  const files = values.stale ? staleFiles(readBaseline()) : positionals.length > 0 ? positionals.map((f) => path.relative(root, path.resolve(f))) : coreFiles();
  if (values.stale) console.log(files.length === 0 ? 'every core file\'s row is up to date' : `stale or missing rows: ${files.join(', ')}`);
  const related = files.map((f) => relatedTests(f, values.subset));
  if (values.list) {
    for (const [i, file] of files.entries()) console.log(`${file}: ${related[i]!.description}\n${related[i]!.files.map((t) => `  ${t}`).join('\n')}`);
    return;
  }
  if (values.recheck) {
    if (values.subset) throw new Error('--recheck runs every test that loads the file: not with --subset');
    if (values.tests !== undefined && files.length !== 1) throw new Error('--tests names the tests of one file: name one file with it');
    for (const [i, file] of files.entries()) {
      if (!existsSync(reportPath(file))) throw new Error(`${file}: no committed report (${path.relative(root, reportPath(file))}) to recheck: run it first`);
      linkShared();
      // --tests: only these (the tests written since the report's run, or a static mutant's tests: Stryker's survivors passed the others)
      const named = values.tests?.split(',').filter((t) => t !== '');
      const missing = named?.filter((t) => !related[i]!.files.includes(t)) ?? [];
      if (missing.length > 0) throw new Error(`--tests: ${missing.join(', ')} does not load ${file} in vitest's process`);
      const tests = named === undefined ? related[i]! : { files: named, description: named.join(', ') };
      const report = recheck(root, reportPath(file), tests.files, tests.description, (line) => console.log(line));
      const s = { ...score(report.mutants, report.tests, report.commit), date: readBaseline().files[file]?.date ?? report.date };
      writeFileSync(reportPath(file), reportText({ file: report.file, commit: report.commit, date: report.date, stryker: report.stryker, tests: report.tests, score: s.score }, report.mutants));
      writeRow(file, s, report.stryker);
      console.log(`${file}: ${s.score}% killed (${s.killed + s.timeout} of ${s.killed + s.timeout + s.survived + s.noCoverage}): ${report.tests}`);
    }
    return;
  }
  const stryker = JSON.parse(readFileSync(path.join(root, 'node_modules/@stryker-mutator/core/package.json'), 'utf8')).version;
  linkShared();
  const measured = commit();
  for (const [i, file] of files.entries()) {
    const tests = related[i]!;
    const report = `reports/mutation/${file.replaceAll('/', '_')}`;
    process.env.EDGESIM_MUTATION_TESTS = tests.files.join(',');
    const results = await new Stryker({
      mutate: [file],
      // the related tests are named to vitest (bench/vitest-mutation.config.ts), so that static mutants act
      vitest: { configFile: 'bench/vitest-mutation.config.ts', related: false },
      concurrency,
      // a mutant's time limit is 1.5 times its tests' time in the initial run, plus this, plus that
      // run's overhead (loading the modules): a mutant that loops costs seconds, not the 10 s more of
      // stryker.config.mjs (the loop's own hits also stop it: Stryker's hit limit)
      timeoutMS: 5_000,
      htmlReporter: { fileName: `${report}.html` },
      jsonReporter: { fileName: `${report}.json` },
    }).runMutationTest();
    const s = score(results, tests.description, measured);
    const left = results.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage');
    console.log(`${file}: ${s.score}% killed (${s.killed + s.timeout} of ${s.killed + s.timeout + s.survived + s.noCoverage})`);
    for (const r of left) console.log(describeSurvivor(r));
    writeRow(file, s, stryker);
    writeReport(file, path.join(root, `${report}.json`), s, stryker);
  }
}

try {
  await main();
} catch (err) {
  // bad arguments are one line, not a stack
  console.error(`npm run mutation: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
