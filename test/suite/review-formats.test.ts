// `edgesim test` where reviewers look, end to end: every JUnit <testcase> names its suite file and
// the case's line; an invalid suite is a JUnit case in error and the other suites of the run still
// run (exit 2); --format json and github; the job summary (--summary, $GITHUB_STEP_SUMMARY);
// --fail-on warning.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readCommand } from '../helpers/workflow-command.js';
import { DEMO_CONFIG, DEMO_PCAP, tempDir, writeSuite } from './helpers.js';

interface JunitCase {
  name: string;
  file: string;
  line?: string;
  failure?: { message: string };
  error?: { message: string };
}

function junitCases(xml: string): JunitCase[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(xml) as {
    testsuites: { testsuite: Array<{ testcase: JunitCase[] }> };
  };
  return parsed.testsuites.testsuite.flatMap((s) => s.testcase);
}

const packetCase = (name: string, verdict: 'pass' | 'drop'): string => `  - name: ${JSON.stringify(name)}\n    packet: {tcp.dstport: 22}\n    expect: {verdict: ${verdict}}\n`;

/** A suite of `n` cases on the demo snapshot (SSH from outside drops), the ones in `failing` expecting the wrong verdict, with a blank line and a comment between cases so that lines are not every third. */
function suiteText(names: readonly string[], failing: ReadonlySet<string> = new Set()): string {
  return `# a suite\nconfig: ${DEMO_CONFIG}\n\ncases:\n${names.map((n, i) => `${'\n'.repeat(i % 3)}${packetCase(n, failing.has(n) ? 'pass' : 'drop')}`).join('# next\n')}`;
}

/** The 1-based line of `- name: "NAME"` in the text. */
const lineOf = (text: string, name: string): number => text.split('\n').indexOf(`  - name: ${JSON.stringify(name)}`) + 1;

const INVALID = `config: ${DEMO_CONFIG}\ncases:\n${packetCase('fine', 'drop')}  - name: typo\n    packet: {tcp.dstprot: 22}\n    expect: {verdict: drop}\n`;

describe('edgesim test: JUnit', () => {
  it('every testcase has the suite file and the line of its case', () => {
    const names = ['first', 'second, with a comma', 'third: a colon', 'fourth', 'fifth'];
    const text = suiteText(names, new Set(['fourth']));
    const dir = tempDir();
    const file = writeSuite(text, 'lines.yaml', dir);
    const junit = path.join(dir, 'r.xml');
    const r = runCli(['test', file, '--junit', junit]);
    expect(r.status).toBe(1);
    const cases = junitCases(readFileSync(junit, 'utf8'));
    expect(cases.map((c) => c.name)).toEqual(names);
    for (const c of cases) {
      expect(c.file).toBe(file);
      expect(Number(c.line)).toBe(lineOf(text, c.name));
    }
    expect(cases.find((c) => c.name === 'fourth')!.failure!.message).toBe('verdict: expected pass, got drop');
  });

  it('an invalid suite is one case in error at its line, and the other suites still run (exit 2)', () => {
    const dir = tempDir();
    const bad = writeSuite(INVALID, 'bad.yaml', dir);
    const good = writeSuite(suiteText(['g1', 'g2'], new Set(['g2'])), 'good.yaml', dir);
    const junit = path.join(dir, 'r.xml');
    const json = path.join(dir, 'r.json');
    const r = runCli(['test', bad, good, '--junit', junit, '--json', json]);
    expect(r.status).toBe(2);
    // one line, naming the file and the line of the problem
    expect(r.stderr).toBe(`edgesim: ${bad}:7: cases[1].packet.tcp.dstprot: unknown field (did you mean "tcp.dstport"?)\n`);
    // the good suite ran
    expect(r.stdout).toMatch(/^PASS  g1 /m);
    expect(r.stdout).toMatch(/^FAIL  g2: verdict: expected pass, got drop /m);
    // on standard output, the cases that ran (the invalid suite is the line on standard error)
    expect(r.stdout).not.toContain(bad);
    expect(r.stdout).toContain('2 cases: 1 passed, 1 failed, 0 errors');
    const cases = junitCases(readFileSync(junit, 'utf8'));
    expect(cases.map((c) => c.name)).toEqual([bad, 'g1', 'g2']);
    expect(cases[0]).toMatchObject({ file: bad, line: '7' });
    expect(cases[0]!.error!.message).toBe(`invalid suite: ${bad}:7: cases[1].packet.tcp.dstprot: unknown field (did you mean "tcp.dstport"?)`);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ passed: 1, failed: 1, errors: 1, cases: [{ name: bad, status: 'error', kind: 'suite', line: 7 }, { name: 'g1' }, { name: 'g2' }] });
  });

  it('several invalid suites: each is a case in error; the line names the first and counts the others', () => {
    const dir = tempDir();
    const bad1 = writeSuite(INVALID, 'bad1.yaml', dir);
    const bad2 = writeSuite('cases: [', 'bad2.yaml', dir);
    const good = writeSuite(suiteText(['g1']), 'good.yaml', dir);
    const junit = path.join(dir, 'r.xml');
    const r = runCli(['test', bad1, good, bad2, '--junit', junit]);
    expect(r.status).toBe(2);
    expect(r.stderr.endsWith(` (and 1 more invalid suite: ${bad2})\n`)).toBe(true);
    expect(r.stderr.startsWith(`edgesim: ${bad1}:7: `)).toBe(true);
    const cases = junitCases(readFileSync(junit, 'utf8'));
    expect(cases.map((c) => [c.name, c.error === undefined])).toEqual([[bad1, false], ['g1', true], [bad2, false]]);
  });

  it('a golden file that is a file of the run makes its suite invalid at its line; the other suites run', () => {
    const dir = tempDir();
    const good = writeSuite(suiteText(['g1']), 'good.yaml', dir);
    const clash = writeSuite(`config: ${DEMO_CONFIG}\ncases:\n  - name: golden\n    capture: ${DEMO_PCAP}\n    expect: {golden: good.yaml}\n`, 'clash.yaml', dir);
    const junit = path.join(dir, 'r.xml');
    const r = runCli(['test', good, clash, '--junit', junit, '--update']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`edgesim: ${clash}:5: cases[0].expect.golden: "good.yaml" is the same file as the suite ${good}; a golden file is a file of its own, which only --update writes\n`);
    expect(r.stdout).toMatch(/^PASS  g1 /m);
    expect(readFileSync(good, 'utf8')).toContain('- name: "g1"');
    const cases = junitCases(readFileSync(junit, 'utf8'));
    expect(cases.map((c) => [c.name, c.line, c.error === undefined])).toEqual([['g1', '5', true], [clash, '5', false]]);
  });
});

describe('edgesim test --format', () => {
  it('json prints the --json report on standard output, and nothing else', () => {
    const dir = tempDir();
    const file = writeSuite(suiteText(['a', 'b'], new Set(['b'])), 's.yaml', dir);
    const json = path.join(dir, 'r.json');
    const r = runCli(['test', file, '--format', 'json', '--json', json]);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { cases: Array<{ seconds: number }> };
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: Array<{ seconds: number }> };
    const timeless = (x: { cases: Array<{ seconds: number }> }): unknown => ({ ...x, cases: x.cases.map((c) => ({ ...c, seconds: 0 })) });
    expect(timeless(out)).toEqual(timeless(report));
    expect(out).toMatchObject({ passed: 1, failed: 1, errors: 0, cases: [{ name: 'a', line: 5 }, { name: 'b', status: 'failed' }] });
  });

  it('github: an ::error at the suite and line of each case that did not pass, read back as written; at most 10, then how many more', () => {
    const names = Array.from({ length: 13 }, (_, i) => `case ${i}, 100% wrong: ${i % 2 === 0 ? 'even' : 'odd'}`);
    const text = suiteText(['passes', ...names], new Set(names));
    const file = writeSuite(text, 'many, odd: name.yaml');
    const r = runCli(['test', file, '--format', 'github']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    const commands = lines.filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(10);
    expect(commands.map(readCommand)).toEqual(
      names.slice(0, 10).map((name) => ({ command: 'error', properties: { file, line: String(lineOf(text, name)), title: name }, data: 'verdict: expected pass, got drop' })),
    );
    expect(lines).toContain('... and 3 more cases that did not pass (listed in the job summary and the JUnit report)');
    expect(lines.at(-1)).toBe('14 cases: 1 passed, 13 failed, 0 errors');
    expect(r.stdout).not.toMatch(/^PASS /m);
  });

  it('github: an invalid suite comes first, at the line of its problem', () => {
    const dir = tempDir();
    const good = writeSuite(suiteText(['g'], new Set(['g'])), 'good.yaml', dir);
    const bad = writeSuite(INVALID, 'bad.yaml', dir);
    const r = runCli(['test', good, bad, '--format', 'github']);
    expect(r.status).toBe(2);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::')).map(readCommand);
    expect(commands.map((c) => [c.properties.file, c.properties.line])).toEqual([[bad, '7'], [good, '5']]);
  });
});

describe('edgesim test: job summary', () => {
  it('--summary appends a table of the cases that did not pass, with file:line and expected vs got', () => {
    const dir = tempDir();
    const text = suiteText(['ok', 'bad | pipe', 'also *bad*'], new Set(['bad | pipe', 'also *bad*']));
    const file = writeSuite(text, 's.yaml', dir);
    const summary = path.join(dir, 'summary.md');
    expect(runCli(['test', file, '--summary', summary]).status).toBe(1);
    expect(runCli(['test', file, '--summary', summary]).status).toBe(1);
    const md = readFileSync(summary, 'utf8');
    const runs = md.split('### edgesim test: 3 cases, 1 passed, 2 failed, 0 errors\n');
    expect(runs).toHaveLength(3); // appended, twice
    const rows = runs[1]!.trim().split('\n').slice(2);
    expect(rows).toEqual([
      `| ${file} | bad \\| pipe | ${file}:${lineOf(text, 'bad | pipe')} | failed | verdict: expected pass, got drop |`,
      `| ${file} | also \\*bad\\* | ${file}:${lineOf(text, 'also *bad*')} | failed | verdict: expected pass, got drop |`,
    ]);
  });

  it('goes to $GITHUB_STEP_SUMMARY when --summary is not given', () => {
    const dir = tempDir();
    const file = writeSuite(suiteText(['ok']), 's.yaml', dir);
    const summary = path.join(dir, 'step.md');
    const r = runCli(['test', file], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.status).toBe(0);
    expect(readFileSync(summary, 'utf8')).toBe('### edgesim test: 1 case, 1 passed, 0 failed, 0 errors\n\n');
  });
});

describe('edgesim test --fail-on', () => {
  it('warning: a case that passed with a warning exits 1; error (the default) exits 0', () => {
    // a rule reading ASNs without an ASN database is a warning: the field is absent
    const config = JSON.stringify({ rulesets: [{ name: 'r', phase: 'edge_transit', kind: 'root', rules: [{ ref: 'asn', action: 'block', expression: 'ip.src.asnum == 64500' }] }] });
    const file = writeSuite(`config: ${config}\ncases:\n  - name: asn\n    packet: {}\n    expect: {verdict: pass}\n`);
    expect(runCli(['test', file]).status).toBe(0);
    expect(runCli(['test', file, '--fail-on', 'error']).status).toBe(0);
    const r = runCli(['test', file, '--fail-on', 'warning']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^PASS  asn /m);
  });
});
