// `trace` agrees with the replay on every frame of the demo capture: the verdict, stage, rule, reason
// and matched rules are the replay's NDJSON, and the per-rule steps explain them (the deciding rule
// is the first tried rule that matched and terminates; the matched list is the tried rules that
// matched). The CLI gives the same for a frame (earlier frames replayed first) and for a packet
// written as field=value arguments.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AtpExplanation } from '../../src/atp/index.js';
import { loadSnapshotFile } from '../../src/config/load.js';
import type { PacketTrace } from '../../src/suite/trace.js';
import { compilePath } from '../../src/sim/build.js';
import { traceFrames } from '../../src/suite/trace-frame.js';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, tempDir } from './helpers.js';

interface Line {
  frame: number;
  time: number;
  verdict: string;
  stage: string | null;
  rule: string | null;
  reason: string | null;
  matched: string[];
  monitor: { stage: string; verdict: string; reason: string; rule: string | null } | null;
}

let replayed: Line[];

beforeAll(() => {
  const r = runCli(['replay', DEMO_PCAP, '--config', DEMO_CONFIG, '--format', 'ndjson']);
  expect(r.status).toBe(0);
  replayed = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
});

function summary(t: PacketTrace): Omit<Line, 'monitor'> {
  return { frame: t.frame, time: t.time, verdict: t.verdict, stage: t.stage, rule: t.rule, reason: t.reason, matched: t.matched };
}

describe('edgesim trace', () => {
  it('agrees with the replay on every frame of the demo capture, and its rule steps explain the verdict', async () => {
    const traces: PacketTrace[] = [];
    await traceFrames(await compilePath(await loadSnapshotFile(DEMO_CONFIG)), DEMO_PCAP, () => true, Infinity, (t) => traces.push(t));
    expect(traces.map(summary)).toEqual(replayed.map(({ frame, time, verdict, stage, rule, reason, matched }) => ({ frame, time, verdict, stage, rule, reason, matched })));
    const stages = new Set<string | null>();
    for (const t of traces) {
      stages.add(t.stage);
      const fw = t.steps.find((s) => s.step_name === 'firewall');
      if (fw === undefined) continue;
      const rules = fw.trace!;
      const tried = rules.filter((r) => r.tried);
      expect(tried.filter((r) => r.matched).map((r) => r.step_name)).toEqual(fw.reached ? t.matched : []);
      const decider = tried.find((r) => r.matched && r.action !== 'log');
      expect(decider?.step_name ?? null).toBe(fw.reached ? t.rule : null);
      expect(rules.filter((r) => r.decided).map((r) => r.step_name)).toEqual(decider ? [decider.step_name] : []);
      // nothing after the deciding rule was tried, and every enabled rule before it was
      if (decider) expect(rules.slice(rules.indexOf(decider) + 1).every((r) => !r.tried)).toBe(true);
      const before = decider ? rules.slice(0, rules.indexOf(decider)) : rules;
      if (fw.reached) expect(before.every((r) => r.tried === r.enabled)).toBe(true);
    }
    expect(stages).toEqual(new Set([null, 'firewall', 'syn_protection']));
    // a monitoring-mode protection's note names the rule that set the mode, as the replay's line does
    expect(traces.map((t) => t.monitor)).toEqual(replayed.map((l) => l.monitor));
    expect(traces.filter((t) => t.monitor?.rule === 'tcp_flow_protection.rules[0]').length).toBe(300);
  });

  it('traces a frame from the command line as the replay decided it, protection drops included', () => {
    for (const frame of [5, 57, 481, 1420, 1444]) {
      const r = runCli(['trace', DEMO_PCAP, '--frame', String(frame), '--config', DEMO_CONFIG, '--json']);
      expect(r.status).toBe(0);
      const t = JSON.parse(r.stdout) as PacketTrace;
      const { frame: f, time, verdict, stage, rule, reason, matched } = replayed[frame - 1]!;
      // the same fields as the NDJSON line, `time` a number as there
      expect(summary(t)).toEqual({ frame: f, time, verdict, stage, rule, reason, matched });
      expect(t.steps.map((s) => s.step_name)).toEqual(['decode', 'advanced_tcp_protection', 'firewall']);
    }
    // protection says why: the component, the rule that set its mode, the connection, rate against threshold
    const t = JSON.parse(runCli(['trace', DEMO_PCAP, '--frame', '1420', '--config', DEMO_CONFIG, '--json']).stdout) as PacketTrace;
    const atp = t.steps[1]!.detail as AtpExplanation;
    expect(atp).toMatchObject({ step: 'syn_protection', component: 'syn_protection', connection: { before: 'none', after: 'challenged' }, reason: 'CHALLENGE_NEEDED' });
    const syn = atp.components.syn_protection;
    expect(syn).toMatchObject({ applied: true, mode: 'enabled', modeFrom: { kind: 'rule', ref: 'syn_protection.rules[0]', scope: 'global' }, meter: { mitigating: true } });
    expect(syn.meter.rateThresholdPps).not.toBeNull();
    expect(syn.meter.ratePps > syn.meter.rateThresholdPps! || syn.meter.burstPps > syn.meter.burstThresholdPps!).toBe(true);
    const past = runCli(['trace', DEMO_PCAP, '--frame', '99999', '--config', DEMO_CONFIG]);
    expect(past.status).toBe(1);
    expect(past.stderr).toBe(`edgesim: ${DEMO_PCAP}: has ${replayed.length.toLocaleString('en-US')} frames, no frame 99999\n`);
  });

  it('traces the last packet of a packet file after the ones before it (connection state carried)', () => {
    const file = path.join(tempDir(), 'handshake.yaml');
    writeFileSync(file, 'packets:\n  - {tcp.dstport: 443, tcp.flags.syn: true}\n  - {tcp.dstport: 443, tcp.flags.ack: true, time: 0.05}\n');
    const r = runCli(['trace', '--config', DEMO_CONFIG, '--packet', file, '--json']);
    expect(r.stderr).toBe('');
    const t = JSON.parse(r.stdout) as PacketTrace;
    expect(summary(t)).toMatchObject({ frame: 2, verdict: 'pass', rule: 'allow-web' });
    expect(t.steps[1]!.detail).toMatchObject({ step: 'tcp_flow_protection', connection: { before: 'new', after: 'open' } });
  });

  it('traces a packet given as field=value arguments, with the vendor trace field names', () => {
    const r = runCli(['trace', '--config', DEMO_CONFIG, 'ip.src=198.51.100.7', 'ip.dst=203.0.113.5', 'tcp.dstport=22', '--json']);
    expect(r.status).toBe(0);
    const t = JSON.parse(r.stdout) as PacketTrace;
    expect(summary(t)).toMatchObject({ verdict: 'drop', stage: 'firewall', rule: 'ssh-from-office' });
    const step = t.steps[2]!.trace!.find((s) => s.step_name === 'ssh-from-office')!;
    expect(step).toMatchObject({ type: 'rule', matched: true, action: 'block', decided: true, expression: 'tcp.dstport == 22 and not ip.src in { 10.0.0.0/8 192.168.0.0/16 }' });
    const table = runCli(['trace', '--config', DEMO_CONFIG, 'ip.src=198.51.100.7', 'tcp.dstport=22', '--table']);
    expect(table.stdout).toMatch(/^ +8 +ssh-from-office +rule +block +true +DECIDED +tcp\.dstport == 22/m);
    const bad = runCli(['trace', '--config', DEMO_CONFIG, 'ip.src=198.51.100.7', 'tcp.dstprot=22']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('edgesim: argument 2: tcp.dstprot: unknown field (did you mean "tcp.dstport"?)\n');
  });
});
