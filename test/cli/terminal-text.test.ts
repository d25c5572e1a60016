// Names from a configuration or a suite reach the terminal as text, never as control characters:
// a snapshot whose rule ref and description carry escape sequences and newlines, and a suite whose
// case name does, printed by replay's table, lint, test (with its failure trace), trace, diff (of a
// capture and --static) and bench. The JSON outputs keep the raw values.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const REF = 'ssh\x1b[2J\x1b]0;owned\x07\u009b31m';
const DESCRIPTION = 'SSH rule\nPASS forged line\u202e';
const CASE = 'case\x1b[8mhidden\nPASS forged case';
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let dir: string;
let snapshot: string;

beforeAll(() => {
  dir = tempDir('edgesim-terminal-');
  const snap = JSON.parse(readFileSync('examples/demo-snapshot.json', 'utf8'));
  const rules: Array<Record<string, unknown>> = snap.rulesets[0].rules;
  const ssh = rules.find((r) => r.ref === 'ssh-from-office')!;
  Object.assign(ssh, { ref: REF, description: DESCRIPTION });
  // the same rule again, after it: lint finds it unreachable, blocked by REF
  rules.push({ ...ssh, ref: `${REF}-again` });
  snapshot = path.join(dir, 'snapshot.json');
  writeFileSync(snapshot, JSON.stringify(snap));
});

/** What the command printed, on both streams: no control character but the line ends, the names escaped. */
function expectPrintable(r: CliResult): string {
  const printed = r.stdout + r.stderr;
  expect(printed).not.toMatch(CONTROL);
  expect(printed).toContain('ssh\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m');
  expect(printed).not.toMatch(/^\s*PASS forged/m);
  return printed;
}

describe('names with control characters on the terminal', () => {
  it("replay's table", () => {
    const r = runCli(['replay', 'examples/demo.pcap', '--config', snapshot, '--format', 'table']);
    expect(r.status).toBe(0);
    expect(expectPrintable(r)).toContain('SSH rule\\nPASS forged line\\u202e');
  });

  it('lint, and lint --json with the raw values', () => {
    expectPrintable(runCli(['lint', snapshot]));
    const json = JSON.parse(runCli(['lint', snapshot, '--json']).stdout) as { findings: Array<{ rule: string }> };
    expect(json.findings.map((f) => f.rule)).toContain(`${REF}-again`);
  });

  it('test: the case line and the failure with its trace', () => {
    const suite = path.join(dir, 'suite.yaml');
    const cases = [{ name: CASE, packet: { 'ip.src': '198.51.100.7', 'ip.dst': '203.0.113.5', 'tcp.dstport': 22 }, expect: { verdict: 'pass' } }];
    writeFileSync(suite, JSON.stringify({ config: 'snapshot.json', cases }));
    const r = runCli(['test', suite]);
    expect(r.status).toBe(1);
    expect(expectPrintable(r)).toContain('case\\u001b[8mhidden\\nPASS forged case');
  });

  it('trace', () => {
    const r = runCli(['trace', 'ip.src=198.51.100.7', 'ip.dst=203.0.113.5', 'tcp.dstport=22', '--config', snapshot, '--table']);
    expect(r.status).toBe(0);
    expectPrintable(r);
  });

  it('diff of a capture and diff --static, against the demo snapshot', () => {
    const capture = runCli(['diff', 'examples/demo.pcap', '--config', 'examples/demo-snapshot.json', '--against', snapshot]);
    expect(capture.status).toBe(1);
    expectPrintable(capture);
    const proof = runCli(['diff', '--static', 'examples/demo-snapshot.json', snapshot]);
    expect(proof.status).toBe(1);
    expectPrintable(proof);
  });

  it('bench', () => {
    const r = runCli(['bench', 'examples/demo.pcap', '--config', snapshot, '--runs', '1', '--no-peers', '--limit', '500']);
    expect(r.status).toBe(0);
    expectPrintable(r);
  });
});
