// Advanced TCP Protection through `edgesim replay`, end to end: a spoofed SYN flood mixed with real
// handshakes, in enabled mode and in monitoring mode, scored against the capture's labels.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToFile } from '../../src/capture/synth/index.js';
import type { Mode, Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let capture: string;

function snapshot(mode: Mode): Snapshot {
  return {
    tcp_protection_status: { enabled: true },
    prefixes: [{ prefix: '203.0.113.0/24', comment: 'servers', excluded: false }],
    syn_protection: { rules: [{ scope: 'global', name: 'global', mode, rate_sensitivity: 'medium', burst_sensitivity: 'medium' }] },
  };
}

function run(mode: Mode, extra: string[] = []) {
  const file = path.join(dir, `${mode}.json`);
  writeFileSync(file, JSON.stringify(snapshot(mode)));
  const r = runCli(['replay', capture, '--config', file, '--format', 'ndjson', ...extra]);
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { frame: number; verdict: string; stage: string | null; reason: string | null; monitor: { stage: string; reason: string } | null });
}

beforeAll(async () => {
  dir = tempDir('edgesim-atp-');
  capture = path.join(dir, 'syn-flood.pcap');
  // 90 s: the flood (the middle two thirds, from 15 s) starts well after the 10 s window in which ATP learns its baseline
  await generateToFile('syn-flood', capture, { packets: 20000, duration: 90, seed: 11 });
});

describe('replay with Advanced TCP Protection', () => {
  it('in enabled mode stops the flood and lets legitimate handshakes complete', () => {
    const file = path.join(dir, 'enabled-report.json');
    writeFileSync(file, JSON.stringify(snapshot('enabled')));
    const r = runCli(['replay', capture, '--config', file, '--format', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as {
      labels: { attackPackets: number; attackDropped: number };
      atp: { labels: { legitFlows: number; legitFlowsChallenged: number; legitFlowsHarmed: number } };
    };
    expect(report.labels.attackPackets).toBeGreaterThan(10000);
    expect(report.labels.attackDropped / report.labels.attackPackets).toBeGreaterThanOrEqual(0.99);
    // a legitimate client meets the SYN challenge during the flood and passes it: its flow completes
    const flows = report.atp.labels;
    expect(flows.legitFlows).toBeGreaterThan(40);
    expect(flows.legitFlowsChallenged).toBeGreaterThan(0);
    expect(flows.legitFlowsHarmed / flows.legitFlows).toBeLessThanOrEqual(0.01);
  });

  it('in monitoring mode drops nothing and flags exactly the packets enabled mode drops', () => {
    const enabled = run('enabled');
    const monitoring = run('monitoring');
    expect(monitoring.filter((p) => p.verdict === 'drop')).toEqual([]);
    const dropped = enabled.filter((p) => p.verdict === 'drop');
    expect(dropped.length).toBeGreaterThan(10000);
    for (const p of dropped) expect(p).toMatchObject({ stage: 'syn_protection', reason: expect.stringMatching(/^CHALLENGE_/) });
    const flagged = monitoring.filter((p) => p.monitor !== null);
    expect(flagged.map((p) => p.frame)).toEqual(dropped.map((p) => p.frame));
    flagged.forEach((p, i) => expect(p.monitor).toMatchObject({ stage: 'syn_protection', verdict: 'drop', reason: dropped[i].reason }));
  });

  it('does nothing when protection is off', () => {
    const file = path.join(dir, 'off.json');
    writeFileSync(file, JSON.stringify({ ...snapshot('enabled'), tcp_protection_status: { enabled: false } }));
    const r = runCli(['replay', capture, '--config', file, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { dropped: number; atp: unknown };
    expect(report.dropped).toBe(0);
    expect(report.atp).toBeNull();
  });

  it('takes model parameters from --atp-options and names a bad one with its file', () => {
    const ok = path.join(dir, 'atp-ok.json');
    writeFileSync(ok, JSON.stringify({ learningSeconds: 2, bidirectional: false }));
    const file = path.join(dir, 'model.json');
    writeFileSync(file, JSON.stringify(snapshot('enabled')));
    const r = runCli(['replay', capture, '--config', file, '--format', 'json', '--atp-options', ok]);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { atp: { model: { learningSeconds: number } } }).atp.model.learningSeconds).toBe(2);
    const bad = path.join(dir, 'atp-bad.json');
    writeFileSync(bad, JSON.stringify({ learningSeconds: -1 }));
    const e = runCli(['replay', capture, '--config', file, '--atp-options', bad]);
    expect(e.status).toBe(1);
    expect(e.stderr).toBe(`edgesim: ${bad}: options.learningSeconds: expected a number, 0 or more, got -1\n`);
  });

  it('names the snapshot file for a bad ATP item of the snapshot, even with --atp-options', () => {
    const ok = path.join(dir, 'atp-ok2.json');
    writeFileSync(ok, JSON.stringify({ learningSeconds: 2 }));
    const file = path.join(dir, 'bad-filter.json');
    const s = snapshot('enabled');
    writeFileSync(file, JSON.stringify({ ...s, syn_protection: { ...s.syn_protection, filters: [{ expression: 'ip.src==34', mode: 'enabled' }] } }));
    const e = runCli(['replay', capture, '--config', file, '--atp-options', ok]);
    expect(e.status).toBe(1);
    expect(e.stderr.startsWith(`edgesim: ${file}: syn_protection.filters[0].expression: `)).toBe(true);
  });
});
