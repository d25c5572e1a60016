// A path in a suite holding a NUL byte (JSON and YAML can write one; no file name can hold it) is one
// line at its place, with or without --update, never an internal error from Node's file functions.
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

function suite(cases: string): string {
  const dir = tempDir('edgesim-nul-');
  copyFileSync('examples/demo.pcap', path.join(dir, 'demo.pcap'));
  copyFileSync('examples/demo-snapshot.json', path.join(dir, 'config.json'));
  const file = path.join(dir, 'suite.yaml');
  writeFileSync(file, `config: config.json\ncases:\n${cases}`);
  return file;
}

describe('a NUL byte in a suite path', () => {
  it('in a golden file, with and without --update', () => {
    const file = suite('  - name: demo\n    capture: demo.pcap\n    expect:\n      golden: "a\\0b.ndjson"\n');
    for (const update of [[], ['--update']]) {
      const r = runCli(['test', file, ...update]);
      expect([r.status, r.stderr]).toEqual([2, `edgesim: ${file}:6: cases[0].expect.golden: "a\\u0000b.ndjson": a path cannot hold a NUL character\n`]);
    }
  });

  it('in a capture and in a flow spec', () => {
    const capture = suite('  - name: demo\n    capture: "demo\\0.pcap"\n    expect: {totals: {packets: 1}}\n');
    expect(runCli(['test', capture]).stderr).toBe(`edgesim: ${capture}:4: cases[0].capture: "demo\\u0000.pcap": a path cannot hold a NUL character\n`);
    const spec = suite('  - name: spec\n    scenario: "spec\\0.json"\n    expect: {attack_dropped_min: 0.5}\n');
    const r = runCli(['test', spec]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^edgesim: .*suite\.yaml:4: cases\[0\]\.scenario: cannot read .*spec\\u0000\.json: a path cannot hold a NUL character\n$/);
  });
});
