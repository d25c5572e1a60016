// The CI examples in examples/ci run as written: every edgesim command of their steps, on the
// bundled demo configuration, suite and capture put in the paths the examples ask users to set,
// in a fresh folder, with GitHub's job summary file set as the runner sets it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, ROOT } from '../helpers/cli.js';
import { sarifProblems } from '../helpers/sarif.js';
import { tempDir } from '../helpers/temp-dir.js';

const EXAMPLES = path.join(ROOT, 'examples');
/** The paths the examples ask users to set, pointed at the bundled demo. */
const BUNDLED = { RULESET: path.join(EXAMPLES, 'demo-snapshot.json'), SUITES: EXAMPLES, CAPTURE: path.join(EXAMPLES, 'demo.pcap') };

interface Step {
  name?: string;
  run?: string;
}

/** Runs one `run:` line in bash in `cwd`, `npx edgesim` being this checkout's built command. */
function runLine(line: string, cwd: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const script = `edgesim() { "$EDGESIM_NODE" "$EDGESIM_BIN" "$@"; }\n${line.replace(/\bnpx edgesim\b/g, 'edgesim')}`;
  return spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, ...env, EDGESIM_NODE: process.execPath, EDGESIM_BIN: BIN }, timeout: 120_000 });
}

const edgesimLines = (lines: readonly string[]): string[] => lines.filter((l) => /\bnpx edgesim\b/.test(l));

describe('examples/ci/github-actions.yml', () => {
  const workflow = parse(readFileSync(path.join(EXAMPLES, 'ci/github-actions.yml'), 'utf8')) as { env: Record<string, string>; jobs: Record<string, { steps: Step[] }> };

  it('asks for the paths the test sets, and uses the upload-sarif action on the file lint writes', () => {
    expect(Object.keys(workflow.env).sort()).toEqual(Object.keys(BUNDLED).sort());
    const steps = workflow.jobs.check!.steps;
    const upload = steps.find((s) => (s as { uses?: string }).uses?.startsWith('github/codeql-action/upload-sarif@v4')) as { with: { sarif_file: string } } | undefined;
    expect(upload).toBeDefined();
    expect(steps.some((s) => s.run?.includes(`--out ${upload!.with.sarif_file}`))).toBe(true);
  });

  it('check: lints to valid SARIF and annotations, runs the suites with JUnit, and writes the job summary', () => {
    const cwd = tempDir('ci-github-');
    const summary = path.join(cwd, 'step summary.md');
    const lines = edgesimLines(workflow.jobs.check!.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      const r = runLine(line, cwd, { ...workflow.env, ...BUNDLED, GITHUB_STEP_SUMMARY: summary });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/\n\s+at /);
      for (const out of r.stdout.split('\n').filter((l) => l.startsWith('::'))) expect(out, line).toMatch(/^::(error|warning|notice)[ :]/);
    }
    const sarif = path.join(cwd, 'edgesim.sarif');
    expect(sarifProblems(sarif).errors).toEqual([]);
    expect(sarifProblems(sarif, 'Gh')).toEqual({ errors: [], warnings: [] });
    expect((JSON.parse(readFileSync(sarif, 'utf8')) as Log).runs[0]!.tool.driver.name).toBe('edgesim');
    const junit = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(readFileSync(path.join(cwd, 'edgesim-junit.xml'), 'utf8')) as {
      testsuites: { testsuite: Array<{ testcase: Array<Record<string, string>> }> };
    };
    const cases = junit.testsuites.testsuite.flatMap((s) => s.testcase);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c['@_file']).toMatch(/demo-suite\.yaml$/);
      expect(Number(c['@_line'])).toBeGreaterThan(0);
    }
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('### edgesim lint');
    expect(text).toContain('### edgesim test');
  });
});

/** A Terraform plan of a change to the demo's rulesets, as `terraform show -json plan.out` writes it. */
const PLAN = path.join(ROOT, 'test/config/inputs/fixtures/terraform-v5-plan.json');

describe('examples/ci/github-actions.yml, traffic-diff', () => {
  const workflow = parse(readFileSync(path.join(EXAMPLES, 'ci/github-actions.yml'), 'utf8')) as { env: Record<string, string>; jobs: Record<string, { steps: Step[] }> };

  it('writes the pull-request comment for the plan terraform made, and its step passes although verdicts change', () => {
    const cwd = tempDir('ci-diff-');
    const summary = path.join(cwd, 'step summary.md');
    const steps = workflow.jobs['traffic-diff']!.steps;
    // the plan step's output, made here from a fixture (no terraform, no credentials)
    expect(steps.some((s) => s.run?.includes('terraform show -json plan.out > plan.json'))).toBe(true);
    copyFileSync(PLAN, path.join(cwd, 'plan.json'));
    const lines = edgesimLines(steps.flatMap((s) => (s.run === undefined ? [] : [s.run])));
    expect(lines).toHaveLength(1);
    const r = runLine(lines[0]!, cwd, { ...workflow.env, ...BUNDLED, GITHUB_STEP_SUMMARY: summary });
    expect(r.status, r.stderr).toBe(0);
    const comment = readFileSync(path.join(cwd, 'edgesim-diff.md'), 'utf8');
    expect(comment.length).toBeLessThan(65_000);
    expect(comment).toMatch(/verdict/i);
    const direct = spawnSync(process.execPath, [BIN, 'diff', BUNDLED.CAPTURE, '--plan', 'plan.json', '--format', 'markdown'], { cwd, encoding: 'utf8' });
    expect(direct.status).toBe(1);
    expect(direct.stdout).toBe(comment);
    // the comment step posts that very file
    expect(steps.some((s) => s.run?.includes('--body-file edgesim-diff.md'))).toBe(true);
    expect(readFileSync(summary, 'utf8')).toContain(comment.trim().split('\n')[0]);
  });
});

describe('examples/ci/gitlab-ci.yml', () => {
  const pipeline = parse(readFileSync(path.join(EXAMPLES, 'ci/gitlab-ci.yml'), 'utf8')) as { variables: Record<string, string>; edgesim: { script: string[]; artifacts: { reports: { junit: string } } } };

  it('lints and runs the suites, writing the JUnit report the pipeline collects', () => {
    const cwd = tempDir('ci-gitlab-');
    const lines = edgesimLines(pipeline.edgesim.script);
    expect(lines.length).toBe(2);
    for (const line of lines) {
      const r = runLine(line, cwd, { ...pipeline.variables, RULESET: BUNDLED.RULESET, SUITES: BUNDLED.SUITES });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
    }
    expect(existsSync(path.join(cwd, pipeline.edgesim.artifacts.reports.junit))).toBe(true);
  });
});
