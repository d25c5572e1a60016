// Replay's NDJSON names the ATP filter or rule that decided a protection drop (`rule`), and the one
// that set a monitoring note's mode (`monitor.rule`): its id, or its place in the snapshot when it
// has none. Checked on the bundled demo capture against the snapshot's own structure.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Line {
  verdict: string;
  stage: string | null;
  rule: string | null;
  monitor: { stage: string; reason: string; rule: string | null } | null;
}

function replay(snapshot: object): Line[] {
  const dir = tempDir('edgesim-atp-rule-');
  const file = path.join(dir, 'snapshot.json');
  writeFileSync(file, JSON.stringify(snapshot));
  const r = runCli(['replay', 'examples/demo.pcap', '--config', file, '--format', 'ndjson']);
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
}

const demo = JSON.parse(readFileSync('examples/demo-snapshot.json', 'utf8')) as {
  syn_protection: { rules: Array<Record<string, unknown>> };
  tcp_flow_protection: { rules: Array<Record<string, unknown>>; filters: Array<Record<string, unknown>> };
};

describe('the ATP filter or rule behind a protection drop', () => {
  it('without ids: the snapshot path of the rule', () => {
    const lines = replay(demo);
    const syn = lines.filter((l) => l.stage === 'syn_protection');
    const notes = lines.filter((l) => l.monitor !== null);
    expect(syn.length).toBeGreaterThan(100);
    expect(notes.length).toBeGreaterThan(100);
    expect(new Set(syn.map((l) => l.rule))).toEqual(new Set(['syn_protection.rules[0]']));
    expect(new Set(notes.map((l) => l.monitor!.rule))).toEqual(new Set(['tcp_flow_protection.rules[0]']));
    // a monitoring note does not decide: the top-level rule stays the firewall's
    for (const l of notes) expect(l.rule === null || !l.rule.includes('protection')).toBe(true);
    for (const l of lines.filter((x) => x.stage === null || x.stage === 'firewall')) expect(l.rule === null || !l.rule.startsWith('syn_protection')).toBe(true);
  });

  it('with ids: the id of the filter whose mode applied, else of the rule', () => {
    // ids as the API assigns them (UUIDs); a snapshot exported from the API carries them
    const lines = replay({
      ...demo,
      syn_protection: { ...demo.syn_protection, rules: [{ ...demo.syn_protection.rules[0], id: '0b7e2a2c-0000-4000-8000-000000000001' }] },
      tcp_flow_protection: {
        rules: [{ ...demo.tcp_flow_protection.rules[0], id: '0b7e2a2c-0000-4000-8000-000000000002' }],
        // enabled for one server: its out-of-state packets are dropped by the filter, the others noted by the rule
        filters: [{ id: '0b7e2a2c-0000-4000-8000-000000000003', expression: 'ip.dst in { 203.0.113.10 }', mode: 'enabled' }],
      },
    });
    const oos = lines.filter((l) => l.stage === 'tcp_flow_protection');
    const notes = lines.filter((l) => l.monitor !== null);
    expect(new Set(lines.filter((l) => l.stage === 'syn_protection').map((l) => l.rule))).toEqual(new Set(['0b7e2a2c-0000-4000-8000-000000000001']));
    expect(oos.length).toBeGreaterThan(0);
    expect(new Set(oos.map((l) => l.rule))).toEqual(new Set(['0b7e2a2c-0000-4000-8000-000000000003']));
    expect(new Set(notes.map((l) => l.monitor!.rule))).toEqual(new Set(['0b7e2a2c-0000-4000-8000-000000000002']));
  });
});
