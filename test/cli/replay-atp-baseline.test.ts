// A capture that starts with an attack: ATP learns the attack as its baseline and mitigates nothing.
// The replay says so on stderr and in the table, whatever the format, and --baseline-pps (shared by
// every command that takes --atp-options) gives the normal rate so the attack is mitigated from the start.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let capture: string;
let config: string;

const SNAPSHOT: Snapshot = {
  tcp_protection_status: { enabled: true },
  prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }],
  syn_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled', rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
};

interface Summary {
  labels: { attackPackets: number; attackDropped: number };
  atp: { components: { syn_protection: { scopes: Array<{ baselineSource: string; warning: string | null }> } } };
}

const LEARNED = 'syn_protection (scope global): thresholds were learned from the first 10 s of the capture';

beforeAll(async () => {
  dir = tempDir('edgesim-baseline-');
  capture = path.join(dir, 'syn-flood.pcap');
  // 30 s: the flood runs from 5 s to 25 s, so it fills ATP's 10 s learning window
  await generateToFile('syn-flood', capture, { packets: 6000, duration: 30, seed: 5 });
  config = path.join(dir, 'snapshot.json');
  writeFileSync(config, JSON.stringify(SNAPSHOT));
});

describe('replay of a capture that starts with an attack', () => {
  it('without --baseline-pps: mitigates nothing, and says why on stderr and in the table', () => {
    const json = runCli(['replay', capture, '--config', config, '--format', 'json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as Summary;
    expect(report.labels.attackPackets).toBeGreaterThan(5000);
    expect(report.labels.attackDropped).toBe(0);
    expect(json.stderr).toContain(`edgesim: warning: ${LEARNED}`);
    expect(json.stderr).toContain('--baseline-pps syn_protection=PPS');

    const table = runCli(['replay', capture, '--config', config]);
    expect(table.status).toBe(0);
    expect(table.stderr).toContain(`edgesim: warning: ${LEARNED}`);
    const lines = table.stdout.split('\n');
    const scope = lines.findIndex((l) => l.startsWith('  scope global: '));
    expect(scope).toBeGreaterThan(0);
    expect(table.stdout).not.toContain('scope global global');
    expect(lines[scope + 1]).toMatch(/^ {4}warning: thresholds were learned from the first 10 s of the capture \(peak \d+ pps\); .*--baseline-pps syn_protection=PPS/);

    const ndjson = runCli(['replay', capture, '--config', config, '--format', 'ndjson']);
    expect(ndjson.stderr).toContain(`edgesim: warning: ${LEARNED}`);
  });

  it('with --baseline-pps: the thresholds come from the given rate and the flood is dropped from the start, without a warning', () => {
    for (const flag of ['5', 'syn_protection=5', 'tcp_flow_protection=0, syn_protection=5']) {
      const r = runCli(['replay', capture, '--config', config, '--format', 'json', '--baseline-pps', flag]);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout) as Summary;
      expect(report.labels.attackDropped / report.labels.attackPackets).toBeGreaterThanOrEqual(0.95);
      expect(report.atp.components.syn_protection.scopes[0]).toMatchObject({ baselineSource: 'configured', warning: null });
    }
  });

  it('--baseline-pps overrides the same option of an --atp-options file, and leaves its others', () => {
    const file = path.join(dir, 'atp.json');
    writeFileSync(file, JSON.stringify({ syn_protection: { baselinePps: 100000, minRatePps: 50 }, learningSeconds: 3 }));
    const r = runCli(['replay', capture, '--config', config, '--format', 'json', '--atp-options', file, '--baseline-pps', 'syn_protection=5']);
    expect(r.status).toBe(0);
    const model = (JSON.parse(r.stdout) as { atp: { model: { syn_protection: unknown; learningSeconds: number } } }).atp.model;
    expect(model.syn_protection).toEqual({ baselinePps: 5, minRatePps: 50, minBurstPps: 500 });
    expect(model.learningSeconds).toBe(3);
  });

  it('refuses a bad --baseline-pps with one line naming the flag', () => {
    const cases: Array<[string, string]> = [
      ['oos_protection=5', 'unknown component "oos_protection" (expected syn_protection or tcp_flow_protection)'],
      ['fast', '"fast" is not a rate'],
      ['-3', '"-3" is not a rate'],
      ['syn_protection=5,syn_protection=6', 'syn_protection is given twice'],
      ['5,syn_protection=6', 'expected COMPONENT=PPS, got "5"'],
    ];
    for (const [flag, said] of cases) {
      const r = runCli(['replay', capture, '--config', config, '--baseline-pps', flag]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^edgesim: --baseline-pps: /);
      expect(r.stderr).toContain(said);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('is taken wherever --atp-options is: trace shows the configured baseline', () => {
    const r = runCli(['trace', '--config', config, '--json', '--baseline-pps', 'syn_protection=7', 'tcp.flags.syn=true']);
    expect(r.status).toBe(0);
    const trace = JSON.parse(r.stdout) as { steps: Array<{ step_name: string; detail: { components?: { syn_protection: { meter: unknown } } } }> };
    const atp = trace.steps.find((s) => s.step_name === 'advanced_tcp_protection')!;
    expect(atp.detail.components!.syn_protection.meter).toMatchObject({ baselinePps: 7, baselineSource: 'configured', rateThresholdPps: 100 });
    for (const command of ['replay', 'trace', 'test', 'diff', 'bench']) {
      expect(runCli([command, '--help']).stdout).toContain('--baseline-pps <pps>');
    }
  });

  it('says when no packet reached a protected prefix, on stderr and in the table', () => {
    const elsewhere = path.join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ ...SNAPSHOT, prefixes: [{ prefix: '198.18.0.0/15', comment: 'not in the capture', excluded: false }] }));
    const r = runCli(['replay', capture, '--config', elsewhere]);
    expect(r.status).toBe(0);
    const said = 'none of the 6,000 IP packets was TCP to a protected prefix, so Advanced TCP Protection inspected nothing';
    expect(r.stderr).toContain(`edgesim: warning: ${said}`);
    expect(r.stdout).toContain(`warning: ${said}`);
  });
});
