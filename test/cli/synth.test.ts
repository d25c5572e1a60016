import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { runTool } from '../helpers/tshark.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-synth-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tmp = (name: string): string => path.join(dir, name);

function expectUserError(r: { status: number | null; stderr: string }, status: number, message: string | RegExp): void {
  expect(r.status).toBe(status);
  if (typeof message === 'string') expect(r.stderr).toBe(`edgesim: ${message}\n`);
  else expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** What a labels file says about its capture: packets per label and the flows they belong to. */
function labelled(file: string): string {
  const labels = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { label: 'legit' | 'attack'; flow?: number | null });
  const count = (label: string) => labels.filter((l) => l.label === label).length.toLocaleString('en-US');
  const flows = new Set(labels.flatMap((l) => (l.flow === undefined || l.flow === null ? [] : [l.flow]))).size;
  return `${labels.length.toLocaleString('en-US')} packets (${count('legit')} legit, ${count('attack')} attack; ${flows.toLocaleString('en-US')} flows)`;
}

describe('edgesim synth', () => {
  it('just works with a scenario and --out: 10,000 packets, labels beside, a summary on stderr', () => {
    const out = tmp('default.pcap');
    const r = runCli(['synth', 'syn-flood', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    // the summary's counts are those of the files written: capinfos's packets, the labels' split and flows
    expect(runTool('capinfos', ['-c', '-T', '-r', out]).stdout.trim().split('\t')[1]).toBe('10000');
    expect(readFileSync(`${out}.labels.ndjson`, 'utf8').trim().split('\n').length).toBe(10000);
    expect(r.stderr).toBe(`edgesim: wrote ${labelled(`${out}.labels.ndjson`)} to ${out}, labels to ${out}.labels.ndjson\n`);
    expect(r.stderr).toMatch(/\(\d+ legit, [\d,]+ attack; [1-9]\d* flows\)/);
  });

  it('writes the same bytes to stdout with --out - as to a file', () => {
    const file = tmp('to-file.pcap');
    expect(runCli(['synth', 'mixed', '--packets', '700', '--seed', '4', '--out', file, '--no-labels']).status).toBe(0);
    expect(existsSync(`${file}.labels.ndjson`)).toBe(false);
    const r = spawnSync(process.execPath, [BIN, 'synth', 'mixed', '--packets', '700', '--seed', '4', '--out', '-'], { cwd: ROOT, maxBuffer: 64 << 20 });
    expect(r.status).toBe(0);
    expect(Buffer.compare(r.stdout, readFileSync(file))).toBe(0);
  });

  it('prints a scenario as a flow spec that generates the very same capture', () => {
    const printed = runCli(['synth', 'ack-flood', '--print-spec', '--packets', '800', '--duration', '20', '--seed', '9']);
    expect(printed.status).toBe(0);
    const spec = JSON.parse(printed.stdout) as { parts: Array<{ kind: string }> };
    expect(spec.parts.map((p) => p.kind)).toEqual(['handshake', 'ack-flood']);
    writeFileSync(tmp('ack.json'), printed.stdout);
    expect(runCli(['synth', tmp('ack.json'), '--out', tmp('from-spec.pcap')]).status).toBe(0);
    expect(runCli(['synth', 'ack-flood', '--packets', '800', '--duration', '20', '--seed', '9', '--out', tmp('from-scenario.pcap')]).status).toBe(0);
    expect(readFileSync(tmp('from-spec.pcap')).equals(readFileSync(tmp('from-scenario.pcap')))).toBe(true);
    expect(readFileSync(tmp('from-spec.pcap.labels.ndjson')).equals(readFileSync(tmp('from-scenario.pcap.labels.ndjson')))).toBe(true);
  });

  it('shows a progress bar for big outputs on a terminal only', () => {
    const out = tmp('big.pcap');
    const command = `${process.execPath} ${BIN} synth syn-flood --packets 200000 --out ${out}`;
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/synth \[=+\] 100% \| 200000\/200000 packets/);
    const pipe = runCli(['synth', 'syn-flood', '--packets', '200000', '--no-labels', '--out', out]);
    // the same capture again, without labels: the summary counts what the first run's labels say
    expect(pipe.stderr).toBe(`edgesim: wrote ${labelled(`${out}.labels.ndjson`)} to ${out}\n`);
    expect(labelled(`${out}.labels.ndjson`)).toMatch(/^200,000 packets/);
  });

  it('takes --start, --labels and --nanosecond', () => {
    const out = tmp('opts.pcap');
    const r = runCli(['synth', 'handshakes', '--packets', '50', '--start', '2025-06-01T00:00:00Z', '--labels', tmp('elsewhere.ndjson'), '--nanosecond', '--out', out]);
    expect(r.status).toBe(0);
    expect(existsSync(tmp('elsewhere.ndjson'))).toBe(true);
    const b = readFileSync(out);
    expect(b.readUInt32LE(0)).toBe(0xa1b23c4d);
    expect(b.readUInt32LE(24)).toBeGreaterThanOrEqual(Date.UTC(2025, 5, 1) / 1000);
  });

  it('reports mistakes as one line naming what is wrong, never a stack trace', () => {
    expectUserError(runCli(['synth', 'sin-flood', '--out', tmp('x.pcap')]), 1, 'unknown scenario "sin-flood"; expected one of handshakes, syn-flood, ack-flood, mixed, geo or a flow spec file (.json)');
    expectUserError(runCli(['synth', 'mixed']), 2, '--out FILE is required (use --out - for stdout)');
    expectUserError(runCli(['synth', 'mixed', '--packets', '1e3', '--out', tmp('x.pcap')]), 2, '--packets: "1e3" is not a whole number from 1 to 100000000');
    expectUserError(runCli(['synth', 'mixed', '--duration', '0', '--out', tmp('x.pcap')]), 2, '--duration: "0" is not a number of seconds above 0');
    expectUserError(runCli(['synth', 'geo', '--countries', 'US,ZZ', '--out', tmp('x.pcap')]), 1, /^edgesim: parts\[0\]\.countries\[1\]: no address blocks for country "ZZ"; known: US, DE/);
    expectUserError(runCli(['synth', 'mixed', '--out', path.join(dir, 'no/such/dir/x.pcap')]), 1, `${path.join(dir, 'no/such/dir/x.pcap')}: cannot write: no such file`);
    const spec = tmp('bad.json');
    writeFileSync(spec, JSON.stringify({ parts: [{ kind: 'handshake' }, { kind: 'syn-flood', rat: 100 }] }));
    expectUserError(runCli(['synth', spec, '--out', tmp('x.pcap')]), 1, `${spec}: parts[1].rat: unknown key (did you mean "rate"?)`);
    writeFileSync(spec, '{"parts": [');
    expectUserError(runCli(['synth', spec, '--out', tmp('x.pcap')]), 1, new RegExp(`^edgesim: ${spec.replace(/[.]/g, '\\.')}: not valid JSON: `));
  });
});
