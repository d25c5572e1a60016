// `edgesim test --coverage` end to end: the table after the totals, `coverage` in the --json report,
// and --min-coverage's exit codes (1 below it, as a failed case; 2 for a value that is not a
// percentage).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEMO_CONFIG, DEMO_PCAP, writeSuite } from './helpers.js';

/** 7 of the demo's 9 counted rules (block-fragments is disabled) are matched: 77.8% */
const SUITE = `config: ${DEMO_CONFIG}
cases:
  - name: telnet
    packet: {ip.dst: 198.51.100.80, tcp.dstport: 23}
    expect: {verdict: drop, rule: block-telnet}
  - name: ssh from outside
    space: {ip.src: [198.51.100.0/26], ip.src.country: [US], ip.dst: [203.0.113.5], tcp.dstport: [22]}
    expect: {verdict: drop, rule: ssh-from-office}
  - name: the demo capture
    capture: ${DEMO_PCAP}
    expect: {totals: {packets: 4526}}
`;

describe('edgesim test --coverage', () => {
  it('prints the table after the totals and writes coverage into --json', () => {
    const file = writeSuite(SUITE);
    const json = path.join(path.dirname(file), 'report.json');
    const r = runCli(['test', file, '--coverage', '--json', json]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const after = r.stdout.slice(r.stdout.indexOf('3 cases: 3 passed'));
    expect(after).toMatch(/\n +7\/9 +77\.8% +14\/14 +100\.0%  all\n/);
    expect(after).toContain('not matched by any case: block-botnet-cc (reached, never matched), block-other-tcp (reached, never matched)');
    expect(after).toContain('not counted (no case can reach them): block-fragments (disabled)');
    const report = JSON.parse(readFileSync(json, 'utf8')) as { passed: number; coverage: Record<string, unknown> };
    expect(report.passed).toBe(3);
    expect(report.coverage).toMatchObject({
      rules: { covered: 7, total: 9, uncovered: ['block-botnet-cc', 'block-other-tcp'] },
      conditions: { covered: 14, total: 14 },
      rulesets: [{ ruleset: 'demo edge_transit', rules: { covered: 7, total: 9 }, conditions: { covered: 14, total: 14 } }],
      excluded: [{ rule: 'block-fragments', ruleset: 'demo edge_transit', why: 'disabled' }],
    });
    const details = report.coverage.details as Array<{ rule: string; spaces: number; decided: number; conditions: unknown[] }>;
    expect(details.map((d) => d.rule)).toHaveLength(10);
    expect(details.find((d) => d.rule === 'ssh-from-office')).toMatchObject({ status: 'decided', spaces: 1, conditions: [{ condition: 'tcp.dstport == 22', true: true, false: true }, {}, {}] });
  }, 60_000);

  it('without --coverage, neither table nor coverage', () => {
    const file = writeSuite(SUITE);
    const json = path.join(path.dirname(file), 'report.json');
    const r = runCli(['test', file, '--json', json]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('Coverage');
    expect(JSON.parse(readFileSync(json, 'utf8'))).not.toHaveProperty('coverage');
  }, 60_000);

  it('--min-coverage fails the run below it (exit 1), passes at or above it', () => {
    const file = writeSuite(SUITE);
    const below = runCli(['test', file, '--min-coverage', '80']);
    expect(below.status).toBe(1);
    expect(below.stdout).toContain('FAIL coverage: 77.8% of the rules matched by a case, below --min-coverage 80%');
    expect(below.stdout).toContain('Coverage (');
    const above = runCli(['test', file, '--min-coverage', '77.5']);
    expect(above.status).toBe(0);
    expect(above.stdout).not.toContain('FAIL');
  }, 60_000);

  it('a failed case still fails a run whose coverage is enough', () => {
    const file = writeSuite(SUITE.replace('expect: {verdict: drop, rule: block-telnet}', 'expect: {verdict: pass}'));
    const r = runCli(['test', file, '--min-coverage', '0']);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('FAIL coverage');
  }, 60_000);

  it.each(['101', 'abc', '-5', ''])('--min-coverage %j is a usage error (exit 2) in one line', (pct) => {
    const r = runCli(['test', writeSuite(SUITE), '--min-coverage', pct]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^edgesim: option '--min-coverage <pct>' argument '.*' is invalid\. expected a percentage from 0 to 100\n/);
    expect(r.stdout).toBe('');
  });
});
