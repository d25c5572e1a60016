import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
const demo = ['examples/demo.pcap', '--config', 'examples/demo-snapshot.json'];

beforeAll(() => {
  dir = tempDir('edgesim-report-');
});

/** Runs edgesim with standard output on a terminal (util-linux `script` gives it a pseudo-terminal). */
function onTerminal(args: string[]): { status: number | null; output: string } {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, output: r.stdout };
}

describe('edgesim replay --format html and edgesim report', () => {
  it('a saved json summary renders to the same page that replay --format html writes', () => {
    const html = path.join(dir, 'direct.html');
    const json = path.join(dir, 'demo.json');
    const rendered = path.join(dir, 'rendered.html');
    expect(runCli(['replay', ...demo, '--format', 'html', '--out', html]).status).toBe(0);
    expect(runCli(['replay', ...demo, '--format', 'json', '--out', json]).status).toBe(0);
    const r = runCli(['report', json, '--out', rendered]);
    expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' });
    const page = readFileSync(rendered, 'utf8');
    expect(page).toBe(readFileSync(html, 'utf8'));
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<code>examples/demo-snapshot.json</code>');
    // a 40-second demo and a small page: the data is bucketed, the library is ~50 KB
    expect(page.length).toBeLessThan(250_000);
  });

  it('writes the page to standard output when it is redirected, and reads the summary from standard input', () => {
    const json = runCli(['replay', ...demo, '--format', 'json']).stdout;
    const r = runCli(['report', '-'], { input: json });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>[^]*<\/html>\n$/);
  });

  it('refuses to print a page on a terminal without --out: a usage error, exit 2', () => {
    const json = path.join(dir, 'tty.json');
    writeFileSync(json, runCli(['replay', ...demo, '--format', 'json']).stdout);
    for (const args of [['replay', ...demo, '--format', 'html'], ['report', json]]) {
      const r = onTerminal(args);
      expect(r.status).toBe(2);
      expect(r.output.trim()).toBe('edgesim: an HTML page is not for the terminal: give --out FILE (or redirect standard output to a file)');
    }
  });

  it('says in one line what is wrong with a file that is not a summary', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['table.txt', 'verdict  packets\npass 3\n', /^edgesim: .*table\.txt: invalid JSON at line 1, column 1: Unexpected character \(expected the output of `edgesim replay CAPTURE --format json`\)\n$/],
      ['old.json', JSON.stringify({ capture: { file: 'x.pcap', format: 'pcap', warnings: [] }, packets: 3 }), /^edgesim: .*old\.json: not a replay summary: passed: is missing \(write one with `edgesim replay CAPTURE --format json --out FILE`\)\n$/],
    ];
    // the demo's summary with one part the page reads taken out, or of the wrong type
    const summary = (): Record<string, any> => JSON.parse(runCli(['replay', ...demo, '--format', 'json']).stdout);
    const cut = summary();
    delete cut.droppedByStage.firewall;
    delete cut.capture.warnings;
    cases.push(['cut.json', JSON.stringify(cut), /^edgesim: .*cut\.json: not a replay summary: capture\.warnings: is missing \(write one/]);
    const wrong = summary();
    wrong.atp.components.syn_protection.scopes[0].peakRatePps = 'high';
    cases.push(['wrong.json', JSON.stringify(wrong), /^edgesim: .*wrong\.json: not a replay summary: atp\.components\.syn_protection\.scopes\[0\]\.peakRatePps: must be a number \(got string\) \(write one[^\n]*\n$/]);
    for (const [name, content, message] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const r = runCli(['report', file, '--out', path.join(dir, 'never.html')]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(message);
    }
    const missing = runCli(['report', path.join(dir, 'missing.json'), '--out', path.join(dir, 'never.html')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^edgesim: .*missing\.json: cannot read: no such file\n$/);
    expect(() => readFileSync(path.join(dir, 'never.html'))).toThrow();
  });

  it('will not overwrite the summary it reads', () => {
    const json = path.join(dir, 'self.json');
    writeFileSync(json, runCli(['replay', ...demo, '--format', 'json']).stdout);
    const before = readFileSync(json, 'utf8');
    const r = runCli(['report', json, '--out', json]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`edgesim: --out ${json}: the same file as the summary; give each output its own file\n`);
    expect(readFileSync(json, 'utf8')).toBe(before);
  });

  it('has help with examples', () => {
    const r = runCli(['report', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('edgesim report demo.json --out demo.html');
    expect(runCli(['replay', '--help']).stdout).toContain('--format html --out report.html');
  });
});
