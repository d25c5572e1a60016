// `edgesim lint` and `edgesim diff --static` through the built CLI: output shapes, exit codes, and
// agreement of the static diff with the capture diff on the demo capture (every frame whose
// firewall decision changes falls in a class the static diff reports with the same rules).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { notAndTerms, perCustomer, sharedList, withActionChanged } from '../../bench/analysis-shapes.js';

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
    expect(r.stderr).toContain('diff --static takes two configuration files');
  });
});

// The four shapes that once ran for minutes or out of memory (bench/analysis-shapes.ts), run by the
// CLI with the heap capped at 400 MB: each finishes with exact answers where the analysis settles
// them and `indeterminate` with the reason where its work limit stops it.
describe('large rulesets within the vendor limits', () => {
  const capped = { env: { NODE_OPTIONS: '--max-old-space-size=400' } };
  const file = (name: string, s: Snapshot): string => {
    const f = path.join(tmp, `${name}.json`);
    writeFileSync(f, JSON.stringify(s));
    return f;
  };
  type Findings = { findings: Array<{ rule: string; kind: string; blocked_by: string[]; message: string }> };

  it('diff --static, 100 per-customer rules with one action changed: the changed rule is reported', () => {
    const before = perCustomer(100);
    const r = runCli(['diff', '--static', file('customers', before), file('customers-changed', withActionChanged(before, 50)), '--format', 'json'], capped);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const cmp = JSON.parse(r.stdout) as { equivalent: boolean; differences: Array<Record<string, unknown>>; indeterminate: unknown[] };
    expect(cmp.equivalent).toBe(false);
    expect(cmp.differences).toEqual([expect.objectContaining({ before: { verdict: 'pass', rule: 'c50-allow' }, after: { verdict: 'drop', rule: 'c50-allow' }, certain: true })]);
    expect(cmp.indeterminate).toEqual([]);
  });

  it('diff --static, 100 rules each an `and` of `not (… and …)` terms, one action changed: indeterminate with the reason', () => {
    const before = notAndTerms('and', 100);
    const args = ['diff', '--static', file('and-terms', before), file('and-terms-changed', withActionChanged(before, 50))];
    const r = runCli([...args, '--format', 'json'], capped);
    expect(r.status).toBe(1);
    const cmp = JSON.parse(r.stdout) as { equivalent: boolean; differences: unknown[]; indeterminate: Array<{ before: object; after: object; reason: string }> };
    expect(cmp.equivalent).toBe(false);
    expect(cmp.indeterminate).toEqual([{ before: { verdict: 'drop', rule: 'r51' }, after: { verdict: 'pass', rule: 'r51' }, verdict_changed: true, reason: expect.stringMatching(/work limit \(10,000 steps\)/) }]);
    const text = runCli(args, capped);
    expect(text.stdout).toContain('drop by r51 -> pass by r51: indeterminate: the analysis reached its work limit');
  });

  it('lint, 200 rules each an `or` of `not (… and …)` terms: the first matches every packet, so the rest are unreachable', () => {
    const r = runCli(['lint', file('or-terms', notAndTerms('or', 200)), '--json'], capped);
    expect(r.status).toBe(1);
    const errors = (JSON.parse(r.stdout) as Findings).findings.filter((f) => f.kind !== 'negated_protocol_field');
    expect(errors).toHaveLength(199);
    for (const f of errors) expect(f).toMatchObject({ kind: 'unreachable', blocked_by: ['r1'] });
  });

  it('lint, 200 rules each an `and` of `not (… and …)` terms: settled rules exact, the others indeterminate with the reason', () => {
    const args = ['lint', file('and-terms-200', notAndTerms('and', 200))];
    const r = runCli([...args, '--json'], capped);
    expect(r.stderr).toBe('');
    const findings = (JSON.parse(r.stdout) as Findings).findings;
    const limited = findings.filter((f) => f.kind === 'indeterminate');
    expect(limited.length).toBeGreaterThan(0);
    for (const f of limited) expect(f.message).toBe(`${f.rule}: the analysis reached its work limit (10,000 steps) before deciding whether it is reached`);
    expect(limited.map((f) => f.rule)).not.toContain('r1');
    expect(runCli(args, capped).stdout).toContain(`note: edge ${limited[0]!.rule}: indeterminate: ${limited[0]!.message}`);
  });

  it('lint, 200 rules on one 100,000-entry list: rules repeating an earlier one are unreachable', () => {
    const r = runCli(['lint', file('list', sharedList(200, 100_000)), '--json'], capped);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const findings = (JSON.parse(r.stdout) as Findings).findings;
    expect(findings.filter((f) => f.kind !== 'unreachable')).toEqual([]);
    // rule 23 is rule 1 again (the ports repeat every 11 rules, the plain ones every 22)
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'r23', blocked_by: ['r1'] }));
  });
});
