// A protection component is its module and its entry in the one list (src/protection-components.ts,
// with its module in src/atp/components.ts): every other stage derives from that list. Shown with a
// component defined only here — URG protection, which in enabled mode drops every TCP packet to a
// protected prefix with the URG flag set — put first in the list by replacing the list's two modules
// for this test file's module graph (vi.mock), as a component added to the source would be. The
// replay's verdicts and counts, the ATP report and terminal table, the series and summary, the HTML
// report, a suite's expectations, trace's explanation, the options, the snapshot's schema, the mock
// API's routes, import's parts, the analysis of ATP filters and the help all name it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import type { ComponentModule } from '../../src/atp/atp-component.js';
import type { AtpComponentReport } from '../../src/atp/report.js';
import type { Snapshot } from '../../src/config/snapshot.js';
import type { ProtectionComponentSpec } from '../../src/protection-components.js';
import { tempDir } from '../helpers/temp-dir.js';

const URG_SPEC = vi.hoisted(
  (): ProtectionComponentSpec => ({
    name: 'urg_protection',
    title: 'URG protection',
    short: 'URG',
    dropped: 'dropped by URG protection',
    rule: 'URG rule',
    filter: 'URG filter',
    mitigationType: false,
    color: '#2a9d8f',
    help: 'TCP packets with the URG flag',
  }),
);

vi.mock('../../src/protection-components.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/protection-components.js')>();
  const list = [URG_SPEC, ...real.PROTECTION_COMPONENTS];
  return { ...real, PROTECTION_COMPONENTS: list, COMPONENT_NAMES: list.map((c) => c.name), componentSpec: (name: string) => list.find((c) => c.name === name) };
});

vi.mock('../../src/atp/components.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/atp/components.js')>();
  const { ComponentCounters } = await import('../../src/atp/report.js');
  const { evaluates } = await import('../../src/atp/atp-component.js');
  const { Reason } = await import('../../src/atp/vocabulary.js');
  const URG = 0x20;
  const urg: ComponentModule = {
    spec: URG_SPEC,
    create: (stage, modes) => ({
      stage,
      modes,
      reads: ['tcpFlags'],
      counters: new ComponentCounters(),
      undecided: false,
      takes: (rec) => (rec.tcpFlags & URG) !== 0,
      inspect: (_rec, _t, _slot, mode) => (evaluates(mode) ? Reason.UNEXPECTED : Reason.NONE),
    }),
  };
  // the real list's entries by name: the URG spec has no module there
  return { ...real, COMPONENT_MODULES: [urg, ...real.COMPONENT_MODULES.filter((m) => m !== undefined)] };
});

const { ethernet, ipv4, tcp } = await import('../capture/helpers/build.js');
const { PcapWriter } = await import('../../src/capture/pcap-writer.js');
const { replayFile } = await import('../../src/sim/replay.js');
const { formatAtp } = await import('../../src/sim/outputs/atp-table.js');
const { renderHtmlReport } = await import('../../src/report/render.js');
const { createSimulator, loadConfig } = await import('../../src/lib/index.js');
const { lint: lintSnapshot } = await import('../../src/analysis/lint.js');
const { loadSuite } = await import('../../src/suite/load.js');
const { runSuites } = await import('../../src/suite/run.js');
const { validateSnapshot } = await import('../../src/config/validate.js');
const { COLLECTIONS } = await import('../../src/config/import-parts.js');
const { DEFAULT_ATP_OPTIONS, STAGES } = await import('../../src/atp/index.js');
const { addAtpOptions } = await import('../../src/cli/options.js');
const { start, call, cfg } = await import('../api/helpers.js');
const testCommand = await import('../../src/cli/commands/test/command.js');

const SERVER = '203.0.113.10';
const SNAPSHOT = {
  tcp_protection_status: { enabled: true },
  prefixes: [{ prefix: '203.0.113.0/24' }],
  urg_protection: { rules: [{ scope: 'global' as const, name: 'global', mode: 'enabled' as const }], filters: [] },
  syn_protection: { rules: [{ scope: 'global' as const, name: 'global', mode: 'monitoring' as const }] },
  tcp_flow_protection: { rules: [{ scope: 'global' as const, name: 'global', mode: 'monitoring' as const }] },
};
const ACK = 0x10;
const PSH = 0x08;
const URG = 0x20;

/** a capture of 10 TCP packets to the protected server, every third with the URG flag */
async function capture(): Promise<string> {
  const file = path.join(tempDir('edgesim-urg-'), 'urg.pcap');
  const writer = PcapWriter.open(file, { linkType: 1, nanosecond: false });
  for (let i = 0; i < 10; i++) {
    const frame = ethernet(0x0800, ipv4({ src: '198.51.100.7', dst: SERVER, proto: 6 }, tcp(40000, 80, ACK | PSH | (i % 3 === 0 ? URG : 0))));
    writer.write(frame, 1_704_067_200 + i, 0, frame.length);
  }
  await writer.close();
  return file;
}

describe('a protection component defined only in a test', () => {
  it('is first in the list every stage reads', () => {
    expect(STAGES).toEqual(['urg_protection', 'syn_protection', 'tcp_flow_protection']);
    expect((DEFAULT_ATP_OPTIONS as unknown as Record<string, unknown>).urg_protection).toEqual({ baselinePps: null, minRatePps: 100, minBurstPps: 500 });
  });

  it('decides a replay: verdicts, counts, the series, the summary, the ATP report and table, the HTML report', async () => {
    const { report } = await replayFile(await capture(), SNAPSHOT, { useLabels: false });
    expect(report.dropped).toBe(4);
    expect(report.droppedByStage).toMatchObject({ urg_protection: 4, firewall: 0, syn_protection: 0, tcp_flow_protection: 0 });
    const counts = report.series.counts as Record<string, number[]>;
    expect(Object.keys(counts)).toEqual(['pass', 'firewall', 'urg_protection', 'syn_protection', 'tcp_flow_protection']);
    expect(counts.urg_protection!.reduce((a, b) => a + b, 0)).toBe(4);
    expect(report.drops.byReason).toContainEqual({ stage: 'urg_protection', reason: 'UNEXPECTED', packets: 4 });
    const atp = report.atp!;
    expect(Object.keys(atp.components)).toEqual(['urg_protection', 'syn_protection', 'tcp_flow_protection']);
    expect((atp.components as Record<string, AtpComponentReport>).urg_protection).toMatchObject({ packets: { enabled: 4 }, dropped: { UNEXPECTED: 4 } });
    expect(formatAtp(atp)).toContain('URG protection (urg_protection): 4 packets (enabled 4');
    const html = renderHtmlReport(report);
    expect(html).toContain('.tile.urg_protection { border-top-color: #2a9d8f; }');
    expect(html).toContain('"urg_protection":"dropped by URG protection"');
  });

  it('names it in the library’s verdict records and in trace’s explanation', async () => {
    const sim = await createSimulator(await loadConfig(SNAPSHOT));
    const packet = { 'ip.src': '198.51.100.7', 'ip.dst': SERVER, 'tcp.dstport': 80, 'tcp.flags.ack': true, 'tcp.flags.urg': true };
    expect(sim.decide(packet)).toMatchObject({ verdict: 'drop', stage: 'urg_protection', reason: 'UNEXPECTED', rule: 'urg_protection.rules[0]' });
    const trace = sim.trace(packet);
    const atpStep = trace.steps.find((s) => s.step_name === 'advanced_tcp_protection')!;
    expect(JSON.stringify(atpStep)).toContain('"component":"urg_protection"');
    expect(JSON.stringify(atpStep)).toContain('"step":"urg_protection"');
  });

  it('can be expected by a suite case', async () => {
    const dir = tempDir('edgesim-urg-suite-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify(SNAPSHOT));
    const file = path.join(dir, 'suite.yaml');
    writeFileSync(
      file,
      [
        'config: snapshot.json',
        'cases:',
        '  - name: an urgent packet is dropped by URG protection',
        `    packet: {ip.dst: ${SERVER}, tcp.dstport: 80, tcp.flags.ack: true, tcp.flags.urg: true}`,
        '    expect: {verdict: drop, stage: urg_protection, reason: UNEXPECTED}',
        '  - name: a wrong expectation fails',
        `    packet: {ip.dst: ${SERVER}, tcp.dstport: 80, tcp.flags.ack: true, tcp.flags.urg: true}`,
        '    expect: {stage: tcp_flow_protection}',
        '',
      ].join('\n'),
    );
    const results = await runSuites([await loadSuite(file)]);
    expect(results.map((r) => [r.status, r.message])).toEqual([
      ['passed', ''],
      ['failed', expect.stringContaining('got urg_protection')],
    ]);
  });

  it('is a key of the snapshot, an import part, and its filters are analysed', async () => {
    expect(() => validateSnapshot({ urg_protection: { rules: [{ scope: 'global', name: 'global', mode: 'sometimes' }] } })).toThrow(/urg_protection/);
    expect(validateSnapshot({ urg_protection: { rules: [{ scope: 'global', name: 'global', mode: 'enabled' }] } })).toHaveProperty('urg_protection');
    expect(COLLECTIONS.map((c) => c.path)).toEqual(expect.arrayContaining(['urg_protection/rules', 'urg_protection/filters']));
    expect(COLLECTIONS.find((c) => c.path === 'urg_protection/rules')!.what).toBe('URG rule');
    const outside = { rules: [], filters: [{ expression: 'ip.src == 192.0.2.1 and ip.dst == 192.0.2.2', mode: 'enabled' }] };
    const findings = lintSnapshot({ ...SNAPSHOT, urg_protection: outside } as Snapshot);
    expect(findings).toContainEqual(expect.objectContaining({ ruleset: 'urg_protection', rule: 'urg_protection.filters[0]', kind: 'atp_filter_never_applies' }));
  });

  it('has the mock API’s routes: rules and filters created, listed and refused as the others are', async () => {
    const server = await start();
    try {
      const base = `${cfg(server.url, 'a1')}/urg_protection`;
      expect((await call('POST', `${base}/rules`, { scope: 'global', name: 'global', mode: 'enabled' })).status).toBe(200);
      expect((await call('POST', `${base}/filters`, { expression: 'tcp.dstport == 80', mode: 'monitoring' })).status).toBe(200);
      const refused = await call('POST', `${base}/rules`, { scope: 'global', name: 'global', mode: 'sometimes' });
      expect(refused.status).toBe(400);
      const rules = await call('GET', `${base}/rules`);
      expect(rules.body.result).toEqual([expect.objectContaining({ scope: 'global', mode: 'enabled' })]);
      expect(rules.body.result[0]).not.toHaveProperty('mitigation_type');
    } finally {
      await server.close();
    }
  });

  it('is listed by the help', () => {
    expect(addAtpOptions(new Command('x')).helpInformation().replace(/\s+/g, ' ')).toContain('urg_protection=PPS,syn_protection=PPS,tcp_flow_protection=PPS');
    const program = new Command();
    testCommand.register(program);
    const help = program.commands.find((c) => c.name() === 'test')!;
    let text = '';
    help.configureOutput({ writeOut: (s) => (text += s) });
    help.outputHelp();
    expect(text).toContain('stage (firewall|urg_protection|syn_protection|tcp_flow_protection|null)');
  });
});
