// `edgesim lint` and `edgesim diff --static` through the built CLI: output shapes, exit codes, and
// agreement of the static diff with the capture diff on the demo capture (every frame whose
// firewall decision changes falls in a class the static diff reports with the same rules).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('edgesim-lint-');
const DEMO = 'examples/demo.pcap';
const BEFORE = 'examples/demo-snapshot.json';

function snapshotFile(name: string, change: (s: Snapshot) => void): string {
  const s = JSON.parse(readFileSync(BEFORE, 'utf8')) as Snapshot;
  change(s);
  const file = path.join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(s));
  return file;
}

const rules = (s: Snapshot) => s.rulesets![0]!.rules!;

describe('edgesim lint', () => {
  it('exits 0 on the demo, whose only finding is a warning; --fail-on warning makes it 1', () => {
    const r = runCli(['lint', BEFORE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('block-other-tcp: negated_protocol_field');
    expect(runCli(['lint', BEFORE, '--fail-on', 'warning']).status).toBe(1);
  });

  it('reports an unreachable rule in the JSON shape, exit 1', () => {
    const file = snapshotFile('shadowed', (s) => rules(s).push({ ref: 'block-telnet-again', action: 'block', expression: 'tcp.dstport == 23 and ip.ttl < 64' }));
    const r = runCli(['lint', file, '--json']);
    expect(r.status).toBe(1);
    const { findings } = JSON.parse(r.stdout) as { findings: Array<Record<string, unknown>> };
    const f = findings.find((x) => x.kind === 'unreachable')!;
    expect(Object.keys(f)).toEqual(['ruleset', 'rule', 'kind', 'blocked_by', 'different_action', 'witness', 'message']);
    expect(f).toMatchObject({ rule: 'block-telnet-again', blocked_by: ['block-telnet'], different_action: false, witness: { 'tcp.dstport': 23 } });
  });

  it('--explain shows overlaps with witnesses; an unknown ref is an error naming the rules', () => {
    const r = runCli(['lint', BEFORE, '--explain', 'block-other-tcp', '--json']);
    expect(r.status).toBe(0);
    const e = JSON.parse(r.stdout) as { status: string; overlaps: Array<{ rule: string; witness: object }> };
    expect(e.status).toBe('reachable');
    expect(e.overlaps.map((o) => o.rule)).toContain('allow-partners');
    const bad = runCli(['lint', BEFORE, '--explain', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^edgesim: --explain: no rule nope \(rules: allow-partners,/);
  });

  it('a rule using a list the snapshot does not define is a warning naming the rule and the list, with or without "lists"', () => {
    for (const lists of [undefined, [{ name: 'partners', kind: 'ip', items: [{ ip: '192.0.2.0/24' }] }]]) {
      const file = snapshotFile(`unknown-list-${lists === undefined ? 'none' : 'some'}`, (s) => {
        s.lists = lists;
        rules(s).push({ ref: 'office-ssh', action: 'block', expression: 'ip.src in $office' }, { ref: 'malware', action: 'block', expression: 'ip.dst in $svc.mal' });
      });
      const r = runCli(['lint', file]);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^warning: .+ office-ssh: unknown_list: .*\$office/m);
      expect(r.stdout).toMatch(/^warning: .+ malware: unknown_list: .*\$svc\.mal/m);
      const replay = runCli(['replay', DEMO, '--config', file]);
      expect(replay.status).toBe(1);
      expect(replay.stderr).toMatch(/rulesets\[0\]\.rules\[\d+\]\.expression: unknown list \$office: /);
    }
  });

  it('names the file and rule of an expression the engine rejects', () => {
    const file = snapshotFile('broken', (s) => (rules(s)[0]!.expression = 'ip.src in {'));
    const r = runCli(['lint', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`edgesim: ${file}: rulesets[0].rules[0].expression:`);
  });
});

interface Line {
  before: { verdict: string; rule: string | null; stage: string | null };
  after: { verdict: string; rule: string | null; stage: string | null };
}

describe('edgesim diff --static', () => {
  it('proves a snapshot equivalent to itself, exit 0', () => {
    const r = runCli(['diff', '--static', BEFORE, BEFORE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('decide every packet the same way');
  });

  it('agrees with the capture diff: every changed firewall decision is a reported class', () => {
    const after = snapshotFile('reordered', (s) => {
      const rs = rules(s);
      const web = rs.findIndex((r) => r.ref === 'allow-web');
      rs.unshift(...rs.splice(web, 1));
      rs.find((r) => r.ref === 'block-telnet')!.enabled = false;
    });
    const r = runCli(['diff', '--static', BEFORE, after, '--format', 'json']);
    expect(r.status).toBe(1);
    const cmp = JSON.parse(r.stdout) as { equivalent: boolean; differences: Array<{ before: { verdict: string; rule: string | null }; after: { verdict: string; rule: string | null } }> };
    expect(cmp.equivalent).toBe(false);
    const capture = runCli(['diff', DEMO, '--config', BEFORE, '--against', after, '--format', 'ndjson']);
    const lines = capture.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
    const firewall = lines.filter((l) => l.before.stage !== 'syn_protection' && l.before.stage !== 'tcp_flow_protection' && l.after.stage !== 'syn_protection' && l.after.stage !== 'tcp_flow_protection');
    expect(firewall.length).toBeGreaterThan(0);
    for (const l of firewall) {
      const found = cmp.differences.some((d) => d.before.rule === l.before.rule && d.after.rule === l.after.rule && d.before.verdict === l.before.verdict && d.after.verdict === l.after.verdict);
      expect(found, JSON.stringify(l)).toBe(true);
    }
  });

  it('takes exactly two snapshots, exit 2 otherwise', () => {
    const r = runCli(['diff', '--static', BEFORE]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('diff --static takes two snapshot files');
  });
});
