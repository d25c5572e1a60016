// Every command's user errors, end to end: one line on stderr, `edgesim: ` first, the file or flag
// named, plain words (no raw errno codes, no stack), and the documented exit code (1 bad input,
// 2 usage). This is the table the single choke point in cli/main.ts must satisfy.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('edgesim-errors-');
const DEMO = 'examples/demo.pcap';
const SNAP = 'examples/demo-snapshot.json';
const badRule = path.join(tmp, 'bad-rule.json');
writeFileSync(badRule, JSON.stringify({ rulesets: [{ name: 'r', kind: 'root', phase: 'edge_transit', rules: [{ ref: 'bad', action: 'block', expression: 'tcp.dstport ==' }] }] }));
const badOptions = path.join(tmp, 'bad-options.json');
writeFileSync(badOptions, '{"rateWindowSeconds": -1}');
const notJsonOptions = path.join(tmp, 'not-json-options.json');
writeFileSync(notJsonOptions, '{"syn_protection": hunter2secret}');
const notJson = path.join(tmp, 'not.json');
writeFileSync(notJson, '{ nope');
const out = path.join(tmp, 'out.txt');

const CASES: Array<[string, string[], RegExp, number]> = [
  ['replay: a missing capture', ['replay', 'missing.pcap', '--config', SNAP], /^edgesim: missing\.pcap: cannot open: no such file$/, 1],
  ['replay: a folder as the capture', ['replay', tmp, '--config', SNAP], /: cannot open: is a directory$/, 1],
  ['replay: no configuration', ['replay', DEMO], /^edgesim: no configuration: give --config FILE \(a snapshot, Terraform JSON, a vendor API response or octorules YAML\) or --api URL --account ID$/, 2],
  ['replay: a missing snapshot', ['replay', DEMO, '--config', 'missing.json'], /^edgesim: missing\.json: cannot read the configuration: no such file$/, 1],
  ['replay: a snapshot that is not JSON', ['replay', DEMO, '--config', notJson], /^edgesim: .*not\.json: invalid JSON at line 1/, 1],
  ['replay: a pcap output on a full disk', ['replay', DEMO, '--config', SNAP, '--write-dropped', '/dev/full'], /^edgesim: \/dev\/full: cannot write: no space left on the device$/, 1],
  ['replay: NDJSON on a full disk', ['replay', DEMO, '--config', SNAP, '--format', 'ndjson', '--out', '/dev/full'], /^edgesim: \/dev\/full: cannot write: no space left on the device$/, 1],
  ['replay: the summary on a full disk', ['replay', DEMO, '--config', SNAP, '--out', '/dev/full'], /^edgesim: \/dev\/full: cannot write: no space left on the device$/, 1],
  ['replay: two outputs in one file', ['replay', DEMO, '--config', SNAP, '--out', out, '--write-dropped', out], /^edgesim: --write-dropped .*out\.txt: the same file as --out; give each output its own file$/, 2],
  ['replay: --jobs 0', ['replay', DEMO, '--config', SNAP, '--jobs', '0'], /^edgesim: option '-j, --jobs <n>' argument '0' is invalid\. expected auto or a number of threads from 1 to 64$/, 2],
  ['replay: an output over the capture', ['replay', DEMO, '--config', SNAP, '--write-passed', DEMO], /^edgesim: --write-passed examples\/demo\.pcap: the same file as the capture/, 2],
  ['replay: a rule that does not compile names the file and the rule', ['replay', DEMO, '--config', badRule], /^edgesim: .*bad-rule\.json: rulesets\[0\]\.rules\[0\]\.expression: Filter parsing error/, 1],
  ['replay: a bad ATP option names its file', ['replay', DEMO, '--config', SNAP, '--atp-options', badOptions], /^edgesim: .*bad-options\.json: options\.rateWindowSeconds: expected a number above 0, got -1$/, 1],
  ['replay: ATP options that are not JSON: where, never the file\'s text', ['replay', DEMO, '--config', SNAP, '--atp-options', notJsonOptions], /^edgesim: .*not-json-options\.json: invalid JSON at line 1, column 20: Unexpected character$/, 1],
  ['replay: an unknown format', ['replay', DEMO, '--config', SNAP, '--format', 'xml'], /^edgesim: option '-f, --format <format>' argument 'xml' is invalid/, 2],
  ['replay: --config and --api together', ['replay', DEMO, '--config', SNAP, '--api', 'http://127.0.0.1:1/client/v4'], /^edgesim: give either --config or --api, not both$/, 2],
  ['replay: the capture and the snapshot swapped', ['replay', SNAP, '--config', DEMO], /^edgesim: examples\/demo\.pcap: a capture, not a configuration: did you swap the capture and --config\?$/, 1],
  ['inspect: a JSON file as the capture', ['inspect', SNAP], /^edgesim: examples\/demo-snapshot\.json: not a pcap or pcapng file but JSON: did you swap the capture and --config\?$/, 1],
  ['match: an invalid expression', ['match', DEMO, 'ip.src =='], /^edgesim: invalid expression:$/, 1],
  ['match: a missing capture', ['match', 'missing.pcap', 'tcp.dstport == 80'], /^edgesim: missing\.pcap: cannot open: no such file$/, 1],
  ['inspect: a missing capture', ['inspect', 'missing.pcap'], /^edgesim: missing\.pcap: cannot open: no such file$/, 1],
  ['inspect: a bad --limit', ['inspect', DEMO, '--limit', 'x'], /expected a whole number of packets/, 2],
  ['serve: a bad port', ['serve', '--port', '99999'], /^edgesim: --port: "99999" is not a port number \(0-65535\)$/, 2],
  ['serve: --key without --email', ['serve', '--key', 'k'], /^edgesim: --key and --email go together$/, 2],
  ['export: not a URL', ['export', '--api', 'nota', '--account', 'a'], /^edgesim: --api: "nota" is not an http\(s\) URL$/, 2],
  ['export: no --account', ['export', '--api', 'http://127.0.0.1:1/client/v4'], /required option '--account <id>' not specified/, 2],
  ['import: a missing snapshot', ['import', 'missing.json', '--api', 'http://127.0.0.1:1/client/v4', '--account', 'a'], /^edgesim: missing\.json: cannot read the configuration: no such file$/, 1],
  ['synth: an unknown scenario', ['synth', 'nosuch', '--out', out], /^edgesim: unknown scenario "nosuch"/, 1],
  ['synth: no --out', ['synth', 'handshakes'], /^edgesim: --out FILE is required \(use --out - for stdout\)$/, 2],
  ['synth: an output folder that does not exist', ['synth', 'handshakes', '--out', path.join(tmp, 'no/dir/x.pcap')], /^edgesim: .*no\/dir\/x\.pcap: cannot write: no such file$/, 1],
  ['diff: a missing capture exits 2, not the 1 of a difference', ['diff', 'missing.pcap', '--config', SNAP, '--against', SNAP], /^edgesim: missing\.pcap: cannot open: no such file$/, 2],
  ['diff --static: a missing snapshot exits 2', ['diff', '--static', SNAP, 'missing.json'], /^edgesim: missing\.json: cannot read the configuration: no such file$/, 2],
  ['lint: a missing snapshot exits 2, not the 1 of a finding', ['lint', 'missing.json'], /^edgesim: missing\.json: cannot read the configuration: no such file$/, 2],
  ['trace: nothing to trace', ['trace', '--config', SNAP], /^edgesim: nothing to trace: give FIELD=VALUE assignments, --packet FILE, or CAPTURE --frame N$/, 2],
  ['trace: a capture without --frame', ['trace', DEMO, '--config', SNAP], /^edgesim: examples\/demo\.pcap: to trace a packet of a capture, name its frame: edgesim trace CAPTURE --frame N$/, 2],
  ['trace: neither an assignment nor a file', ['trace', 'port22', '--config', SNAP], /^edgesim: "port22": expected field=value, e.g\. tcp\.dstport=22$/, 2],
  ['an unknown command', ['no-such'], /^edgesim: unknown command 'no-such'$/, 2],
  ['an unknown option', ['replay', DEMO, '--config', SNAP, '--bogus'], /^edgesim: unknown option '--bogus'$/, 2],
];

describe('user errors, for every command', () => {
  it.each(CASES)('%s', (_name, args, line, code) => {
    const r = runCli(args);
    expect(r.status).toBe(code);
    const first = r.stderr.split('\n')[0];
    expect(first).toMatch(line);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error|E[A-Z]{3,}\b/);
  });
});

// Standard output on a full disk, whoever writes to it (the command, commander's help and version):
// one line naming standard output, as `--out /dev/full` names the file; the command's error exit code.
const FULL_STDOUT: Array<[string[], number]> = [
  [['replay', DEMO, '--config', SNAP], 1],
  [['replay', DEMO, '--config', SNAP, '--format', 'ndjson'], 1],
  [['synth', 'mixed', '--packets', '100', '--out', '-'], 1],
  [['fields'], 1],
  [['lint', SNAP, '--json'], 2],
  [['--help'], 1],
  [['replay', '--help'], 1],
  [['--version'], 1],
  [['test', 'examples/demo-suite.yaml'], 1],
  [['inspect', DEMO], 1],
  [['validate', 'tcp.dstport == 80'], 1],
];

describe('standard output on a full disk', () => {
  it.each(FULL_STDOUT)('edgesim %j', (args, code) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = runCli(args, { stdout: full });
      expect(r.stderr).toBe('edgesim: standard output: cannot write: no space left on the device\n');
      expect(r.status).toBe(code);
    } finally {
      closeSync(full);
    }
  });
});
