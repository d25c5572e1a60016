// No output replaces an input (issue 34, must fix 8): every file a command reads, a capture's label
// sidecar included, is refused as an output, however the output is spelled (a symbolic link, a hard
// link), and no two outputs may be one file; the refusal comes before anything is written, and the
// input is left byte for byte as it was. Standard output and special files (/dev/null) are exempt.
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
const at = (name: string): string => path.join(dir, name);

beforeEach(() => {
  dir = tempDir('edgesim-outputs-');
  copyFileSync('examples/demo.pcap', at('demo.pcap'));
  copyFileSync('examples/demo.pcap.labels.ndjson', at('demo.pcap.labels.ndjson'));
  copyFileSync('examples/demo-snapshot.json', at('snapshot.json'));
  copyFileSync('examples/demo.verdicts.ndjson', at('demo.verdicts.ndjson'));
});

/** Runs edgesim and expects a refusal (exit 2, one line naming both files) that left every file of the folder as it was. */
function refused(args: string[], line: RegExp): void {
  const files = ['demo.pcap', 'demo.pcap.labels.ndjson', 'snapshot.json', 'demo.verdicts.ndjson'];
  const digest = (f: string): string => createHash('sha256').update(readFileSync(at(f))).digest('hex');
  const before = files.map(digest);
  const r = runCli(args, { cwd: dir });
  expect(r.stderr).toMatch(line);
  expect(r.stderr.split('\n').length).toBe(2);
  expect(r.status).toBe(2);
  expect(files.map(digest)).toEqual(before);
}

describe('replay', () => {
  it.each(['demo.pcap.labels.ndjson', 'soft.ndjson', 'hard.ndjson'])("refuses --out and --write-dropped over the capture's label sidecar, spelled %s", (out) => {
    symlinkSync(at('demo.pcap.labels.ndjson'), at('soft.ndjson'));
    linkSync(at('demo.pcap.labels.ndjson'), at('hard.ndjson'));
    refused(['replay', 'demo.pcap', '-c', 'snapshot.json', '--format', 'ndjson', '--out', out], /^edgesim: --out .*: the same file as the capture's label sidecar; give each output its own file$/m);
    refused(['replay', 'demo.pcap', '-c', 'snapshot.json', '--write-dropped', out], /^edgesim: --write-dropped .*: the same file as the capture's label sidecar/m);
  });

  it('refuses the sidecar a capture would have even when it has none yet, and an output over --config', () => {
    copyFileSync(at('demo.pcap'), at('bare.pcap'));
    const r = runCli(['replay', 'bare.pcap', '-c', 'snapshot.json', '--write-passed', 'bare.pcap.labels.ndjson'], { cwd: dir });
    expect([r.status, r.stderr]).toEqual([2, "edgesim: --write-passed bare.pcap.labels.ndjson: the same file as the capture's label sidecar; give each output its own file\n"]);
    refused(['replay', 'demo.pcap', '-c', 'snapshot.json', '--format', 'json', '--out', 'snapshot.json'], /^edgesim: --out snapshot\.json: the same file as --config;/);
  });

  it('lets /dev/null take several outputs, and writes them', () => {
    const r = runCli(['replay', 'demo.pcap', '-c', 'snapshot.json', '--format', 'ndjson', '--out', '/dev/null', '--write-dropped', '/dev/null', '--write-passed', at('passed.pcap')], { cwd: dir });
    expect(r.status).toBe(0);
    expect(readFileSync(at('passed.pcap')).length).toBeGreaterThan(24);
  });
});

describe('test --update', () => {
  it("refuses a golden file that is the capture's label sidecar: its suite is invalid at the golden's line", () => {
    writeFileSync(at('suite.yaml'), 'config: snapshot.json\ncases:\n  - name: demo\n    capture: demo.pcap\n    expect:\n      golden: demo.pcap.labels.ndjson\n');
    const before = readFileSync(at('demo.pcap.labels.ndjson'), 'utf8');
    const r = runCli(['test', 'suite.yaml', '--update'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('edgesim: suite.yaml:6: cases[0].expect.golden: "demo.pcap.labels.ndjson" is the same file as the label sidecar of the capture of case "demo"; a golden file is a file of its own, which only --update writes\n');
    expect(readFileSync(at('demo.pcap.labels.ndjson'), 'utf8')).toBe(before);
    expect(runCli(['replay', 'demo.pcap', '-c', 'snapshot.json'], { cwd: dir }).status).toBe(0);
  });

  it('refuses --json over a golden file it rewrites', () => {
    writeFileSync(at('suite.yaml'), 'config: snapshot.json\ncases:\n  - name: demo\n    capture: demo.pcap\n    expect:\n      golden: demo.verdicts.ndjson\n');
    refused(['test', 'suite.yaml', '--update', '--json', 'demo.verdicts.ndjson'], /^edgesim: the golden file of case "demo" .*demo\.verdicts\.ndjson: the same file as --json;/);
  });
});

describe('synth', () => {
  it('refuses --out or --labels over the --config it reads, and --out and --labels in one file', () => {
    refused(['synth', 'syn-flood', '--packets', '50', '-c', 'snapshot.json', '--out', 'snapshot.json'], /^edgesim: --out snapshot\.json: the same file as --config;/);
    refused(['synth', 'syn-flood', '--packets', '50', '-c', 'snapshot.json', '--out', 'x.pcap', '--labels', 'snapshot.json'], /^edgesim: --labels snapshot\.json: the same file as --config;/);
    refused(['synth', 'syn-flood', '--packets', '50', '--out', 'x.pcap', '--labels', 'x.pcap'], /^edgesim: --labels x\.pcap: the same file as --out;/);
  });

  it('refuses the label file --out implies over the --config, and --out over its own flow spec', () => {
    copyFileSync(at('snapshot.json'), at('x.pcap.labels.ndjson'));
    const r = runCli(['synth', 'syn-flood', '--packets', '50', '-c', 'x.pcap.labels.ndjson', '--out', 'x.pcap'], { cwd: dir });
    expect([r.status, r.stderr]).toEqual([2, 'edgesim: the label file x.pcap.labels.ndjson: the same file as --config; give each output its own file\n']);
    writeFileSync(at('spec.json'), JSON.stringify({ packets: 10, flows: [{ name: 'web', kind: 'legit', servers: ['203.0.113.10'] }] }));
    const spec = runCli(['synth', 'spec.json', '--out', 'spec.json'], { cwd: dir });
    expect([spec.status, spec.stderr]).toEqual([2, 'edgesim: --out spec.json: the same file as the flow spec; give each output its own file\n']);
  });
});

describe('every other command with an output', () => {
  it('diff refuses --out over the sidecar and --write-changed over the capture', () => {
    refused(['diff', 'demo.pcap', '-c', 'snapshot.json', '--against', 'snapshot.json', '--out', 'demo.pcap.labels.ndjson'], /^edgesim: --out demo\.pcap\.labels\.ndjson: the same file as the capture's label sidecar;/);
    refused(['diff', 'demo.pcap', '-c', 'snapshot.json', '--against', 'snapshot.json', '--write-changed', 'demo.pcap'], /^edgesim: --write-changed demo\.pcap: the same file as the capture;/);
  });

  it('lint and pin refuse an output over what they read', () => {
    refused(['lint', 'snapshot.json', '--summary', 'snapshot.json'], /^edgesim: --summary snapshot\.json: the same file as the configuration;/);
    refused(['pin', '--config', 'snapshot.json', '--capture', 'demo.pcap', '--out', 'demo.pcap.labels.ndjson'], /^edgesim: --out demo\.pcap\.labels\.ndjson: the same file as --capture's label sidecar;/);
  });

  it('bench refuses --save over --config and --out over --compare', () => {
    refused(['bench', 'demo.pcap', '-c', 'snapshot.json', '--save', 'snapshot.json', '--no-peers'], /^edgesim: --save snapshot\.json: the same file as --config;/);
    refused(['bench', 'demo.pcap', '-c', 'snapshot.json', '--compare', 'demo.verdicts.ndjson', '--out', 'demo.verdicts.ndjson', '--no-peers'], /^edgesim: --out demo\.verdicts\.ndjson: the same file as --compare;/);
  });
});
