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

  it('sends every part of a scenario to --servers, spoofing floods from the family the servers have', () => {
    for (const [servers, family] of [['192.0.2.0/24', '192.0.2.0/24'], ['2001:db8:5::/48', '2001:db8:5::/48'], ['192.0.2.7,2001:db8:5::/48', '192.0.2.7 2001:db8:5::/48']]) {
      for (const scenario of ['syn-flood', 'mixed']) {
        const out = tmp(`servers-${scenario}.pcap`);
        const r = runCli(['synth', scenario, '--servers', servers, '--packets', '1500', '--out', out, '--no-labels']);
        expect(r.status).toBe(0);
        const count = runCli(['match', out, `ip.dst in {${family}} or ip.src in {${family}}`, '--count']);
        expect(count.stdout.trim()).toBe('1500');
      }
    }
  });

  it('with --config, warns when the capture (or an attack part of it) goes to no protected prefix', () => {
    const config = tmp('protects.json');
    writeFileSync(config, JSON.stringify({ prefixes: [{ prefix: '192.0.2.0/24', comment: 'ours', excluded: false }, { prefix: '192.0.2.128/25', comment: 'lab', excluded: true }] }));
    const wrote = (out: string, summary: string): string => `edgesim: wrote ${summary} to ${out}, labels to ${out}.labels.ndjson\n`;
    const demo = runCli(['synth', 'syn-flood', '--config', config, '--packets', '500', '--out', tmp('demo-servers.pcap')]);
    expect(demo.status).toBe(0);
    expect(demo.stderr).toBe(
      wrote(tmp('demo-servers.pcap'), '500 packets (15 legit, 485 attack; 2 flows)') +
        `edgesim: warning: no packet of this capture goes to a protected prefix of ${config}, so Advanced TCP Protection will inspect none of it; give --servers with your protected prefixes\n`,
    );
    const excluded = runCli(['synth', 'syn-flood', '--config', config, '--servers', '192.0.2.128/26', '--packets', '500', '--out', tmp('excluded.pcap')]);
    expect(excluded.stderr).toContain('warning: no packet of this capture goes to a protected prefix');
    const ours = runCli(['synth', 'syn-flood', '--config', config, '--servers', '192.0.2.0/24', '--packets', '500', '--out', tmp('ours.pcap')]);
    expect(ours.stderr).toBe(wrote(tmp('ours.pcap'), '500 packets (15 legit, 485 attack; 2 flows)'));
    const spec = tmp('elsewhere.json');
    writeFileSync(spec, JSON.stringify({ packets: 300, parts: [{ kind: 'handshake', servers: ['192.0.2.10'] }, { name: 'flood', kind: 'syn-flood', packets: 100, servers: ['198.51.100.1'] }] }));
    const part = runCli(['synth', spec, '--config', config, '--out', tmp('part.pcap')]);
    expect(part.status).toBe(0);
    expect(part.stderr.split('\n')[1]).toBe(
      `edgesim: warning: the attack part "flood" goes to no protected prefix of ${config}, so Advanced TCP Protection will not see it; set the spec's "servers" to your protected prefixes`,
    );
  });

  it('reports mistakes as one line naming what is wrong, never a stack trace', () => {
    expectUserError(runCli(['synth', 'mixed', '--servers', '10.0.0.1/8', '--out', tmp('x.pcap')]), 2, '--servers: "10.0.0.1/8": host bits are set (did you mean 10.0.0.0/8?)');
    expectUserError(runCli(['synth', 'pcaps/demo-spec.json', '--servers', '10.0.0.0/8', '--out', tmp('x.pcap')]), 1, '--servers applies to built-in scenarios; put "servers" in the spec\'s parts instead');
    expectUserError(runCli(['synth', 'mixed', '--config', tmp('no-such.json'), '--out', tmp('x.pcap')]), 1, `${tmp('no-such.json')}: cannot read the configuration: no such file`);
    expectUserError(runCli(['synth', tmp('no-such-spec.json'), '--out', tmp('x.pcap')]), 1, `cannot read ${tmp('no-such-spec.json')}: no such file`);
    expectUserError(runCli(['synth', 'sin-flood', '--out', tmp('x.pcap')]), 1, 'unknown scenario "sin-flood"; expected one of handshakes, syn-flood, ack-flood, mixed, geo or a flow spec file (.json)');
    expectUserError(runCli(['synth', 'mixed']), 2, '--out FILE is required (use --out - for stdout)');
    expectUserError(runCli(['synth', 'mixed', '--packets', '1e3', '--out', tmp('x.pcap')]), 2, '--packets: "1e3" is not a whole number from 1 to 100000000');
    expectUserError(runCli(['synth', 'mixed', '--duration', '0', '--out', tmp('x.pcap')]), 2, '--duration: "0" is not a number of seconds above 0');
    expectUserError(runCli(['synth', 'geo', '--countries', 'US,ZZ', '--out', tmp('x.pcap')]), 1, /^edgesim: parts\[0\]\.countries\[1\]: no address blocks for country "ZZ"; known: US, DE/);
    expectUserError(runCli(['synth', 'mixed', '--out', path.join(dir, 'no/such/dir/x.pcap')]), 1, `${path.join(dir, 'no/such/dir/x.pcap')}: cannot write: no such file`);
    const spec = tmp('bad.json');
    writeFileSync(spec, JSON.stringify({ parts: [{ kind: 'handshake' }, { kind: 'syn-flood', rat: 100 }] }));
    expectUserError(runCli(['synth', spec, '--out', tmp('x.pcap')]), 1, `${spec}: parts[1].rat: unknown key (did you mean "rate"?)`);
    writeFileSync(spec, JSON.stringify({ parts: [{ kind: 'handshake', share: 0.5 }, { kind: 'syn-flood', share: 0.2 }] }));
    const short = runCli(['synth', spec, '--out', tmp('short.pcap')]);
    expectUserError(short, 1, `${spec}: parts: the shares add up to 0.7, less than 1, so 30% of the packets would be missing; make them add up to 1, or leave a part without a size to take the rest`);
    expect(existsSync(tmp('short.pcap'))).toBe(false);
    writeFileSync(spec, '{"parts": [');
    expectUserError(runCli(['synth', spec, '--out', tmp('x.pcap')]), 1, new RegExp(`^edgesim: ${spec.replace(/[.]/g, '\\.')}: not valid JSON: `));
  });
});
