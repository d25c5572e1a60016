// Evidence from traffic ATP's own tests did not make: edgesim's synthetic scenarios (a separate
// generator with its own TCP sessions, written to pcap with a label sidecar) read back through the
// capture reader, as `edgesim replay` will, and scored against their labels.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvancedTcpProtection, AtpDecision, type AtpReport } from '../../src/atp/index.js';
import { readCapture } from '../../src/capture/reader.js';
import { generateToFile, readLabels } from '../../src/capture/synth/index.js';
import type { Snapshot } from '../../src/config/snapshot.js';

const dir = mkdtempSync(path.join(tmpdir(), 'edgesim-atp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(mode: 'enabled' | 'monitoring'): Snapshot {
  const global = { scope: 'global' as const, name: 'global', mode, rate_sensitivity: 'medium' as const, burst_sensitivity: 'medium' as const };
  return {
    tcp_protection_status: { enabled: true },
    prefixes: [{ prefix: '203.0.113.0/24', excluded: false }, { prefix: '2001:db8:ffff::/48', excluded: false }],
    syn_protection: { rules: [global] },
    tcp_flow_protection: { rules: [global] },
  };
}

async function replay(capture: string, mode: 'enabled' | 'monitoring'): Promise<{ report: AtpReport; verdicts: string[] }> {
  const atp = AdvancedTcpProtection.fromSnapshot(config(mode));
  const out = new AtpDecision();
  const verdicts: string[] = [];
  await readCapture(capture, (rec) => {
    atp.inspect(rec, out);
    verdicts.push(out.drop ? `${out.stage}:${out.reason}` : out.monitor === null ? '' : `${out.monitor.stage}:${out.monitor.reason}`);
  });
  const labels = await readLabels(capture);
  return { report: atp.report(labels ?? undefined), verdicts };
}

describe.each([
  ['syn-flood', 'syn_protection'],
  ['ack-flood', 'tcp_flow_protection'],
] as const)('synthetic %s scenario (60,000 packets over 90 s, the flood in the middle two thirds)', (scenario, stage) => {
  const capture = path.join(dir, `${scenario}.pcap`);
  beforeAll(async () => {
    await generateToFile(scenario, capture, { packets: 60_000, duration: 90, seed: 11 });
  });

  it('enabled: >= 99% of the attack stopped, no legitimate flow harmed; monitoring: nothing dropped, the same packets flagged', async () => {
    const enabled = await replay(capture, 'enabled');
    const l = enabled.report.labels;
    expect(l).not.toBeNull();
    if (l === null) return;
    expect(l.attackPackets).toBeGreaterThan(50_000);
    expect(l.attackDropped / l.attackPackets).toBeGreaterThanOrEqual(0.99);
    expect(l.legitFlows).toBeGreaterThan(100);
    expect(l.legitFlowsHarmed).toBe(0);
    expect(enabled.report.components[stage].scopes[0].mitigations).toHaveLength(1);

    const monitoring = await replay(capture, 'monitoring');
    expect(monitoring.report.packets.dropped).toBe(0);
    expect(monitoring.report.labels).toMatchObject({ attackDropped: 0, attackFlagged: l.attackDropped, legitFlagged: l.legitDropped });
    expect(monitoring.verdicts).toEqual(enabled.verdicts);
  });
});
