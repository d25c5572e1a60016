// The commands on Terraform as people write it (issue 32): lists a plan creates decide as their
// items say, `pin` merges several --config files (state + ATP, the README's own setup) in any format,
// `test --plan` runs a pinned suite against a plan, the deploy checks fire for a Terraform
// zone-level ruleset, `--account` picks one account of a for_each state, and `--min-coverage` fails
// when there is nothing to cover (a wrong or empty workspace), with the warning that says why.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const FIXTURES = 'test/config/inputs/fixtures/real-world';
const ATP = 'test/config/inputs/fixtures/demo-atp.json';
const at = (name: string): string => `${FIXTURES}/${name}`;

function suite(text: string): string {
  const file = path.join(tempDir('edgesim-tf-suite-'), 'suite.yaml');
  writeFileSync(file, text);
  return file;
}

describe('lists created in the same plan', () => {
  it("192.0.2.1, an item of blocked_a, is dropped by the $blocked_a rule; blocked_b's item is only logged", () => {
    const file = suite(`config: {}
cases:
  - name: an item of blocked_a
    packet: {ip.src: 192.0.2.1, tcp.dstport: 443}
    expect: {verdict: drop, rule: "module.fw.cloudflare_ruleset.mt: Abuse reports, team A"}
  - name: an item of blocked_b
    packet: {ip.src: 198.51.100.7, tcp.dstport: 443}
    expect: {verdict: pass, rule: null, matched: ["module.fw.cloudflare_ruleset.mt: Abuse reports, team B (watch first)"]}
`);
    const r = runCli(['test', file, '--plan', at('v5-module-new-lists/plan.json')]);
    expect(r.stdout).toMatch(/^2 cases: 2 passed, 0 failed, 0 errors$/m);
    expect(r.status).toBe(0);
  });
});

describe('pin', () => {
  it('merges a Terraform state and an ATP snapshot as every other command does, and the suite names both', () => {
    const out = path.join(tempDir('edgesim-pin-tf-'), 'pinned.yaml');
    const r = runCli(['pin', '--config', at('v5-pull-request/state.json'), '--config', ATP, '--out', out]);
    expect(r.status).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^config: \["?[^,]*v5-pull-request\/state\.json"?, "?[^,]*demo-atp\.json"?\]$/m);
    // the ATP snapshot's filter is pinned: the second file was read, not dropped
    expect(text).toContain('tcp_flow_protection.filters[0]');
    expect(runCli(['test', out]).status).toBe(0);
  });

  it('takes --config-format, and --account for a state of several accounts', () => {
    const out = path.join(tempDir('edgesim-pin-tf-'), 'pinned.yaml');
    const forced = runCli(['pin', '--config', at('v5-pull-request/state.json'), '--config-format', 'octorules', '--out', out]);
    expect([forced.status, forced.stderr]).toEqual([1, `edgesim: ${at('v5-pull-request/state.json')}: not an octorules account file (no network_firewall_rules: or lists:)\n`]);
    const accounts = runCli(['pin', '--config', at('accounts-for-each/state.json'), '--account', '023e105f4ecef8ad9ca31a8372d0c353', '--out', out]);
    expect(accounts.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(JSON.stringify('cloudflare_ruleset.mt["prod"]: Catch-all to block all other traffic destined for web server IP addresses'));
  });
});

describe('the deploy checks fire for Terraform input', () => {
  it("a public module's zone-level magic_transit ruleset (kind zone, zone_id, an HTTP field)", () => {
    const r = runCli(['lint', at('zone-level-module/state.json'), '--json']);
    const codes = (JSON.parse(r.stdout) as { findings: Array<{ kind: string; location: { address?: string } }> }).findings.map((f) => [f.kind, f.location.address]);
    expect(codes).toEqual([
      ['ruleset_at_zone_level', 'cloudflare_ruleset.block_public_access[0]'],
      ['ruleset_kind_not_root', 'cloudflare_ruleset.block_public_access[0]'],
      ['field_of_other_phase', 'cloudflare_ruleset.block_public_access[0] rules[0]'],
    ]);
    expect(r.status).toBe(1);
  });
});

describe('several accounts', () => {
  it('diff --account reads the one account on both sides; without it, one line lists the accounts', () => {
    const state = at('accounts-for-each/state.json');
    const r = runCli(['diff', '--static', state, state, '--account', '9f1839b6152d298aca64c4e906b6d074']);
    expect([r.status, r.stdout]).toEqual([0, `${state} and ${state} decide every packet the same way, by the same rules\n`]);
    const without = runCli(['lint', state]);
    expect(without.status).toBe(2);
    expect(without.stderr.trim().split('\n')).toHaveLength(1);
    expect(without.stderr).toMatch(/the file holds 2 accounts: give --account ID to read one: 023e/);
  });
});

describe('nothing to cover', () => {
  it.each(['empty-workspace/state.json', 'wrong-workspace/state.json'])('%s: --min-coverage fails, and the warning says what the file holds', (file) => {
    const s = suite(`config: {}\ncases:\n  - name: any packet passes\n    packet: {tcp.dstport: 80}\n    expect: {verdict: pass}\n`);
    const r = runCli(['test', s, '--config', at(file), '--min-coverage', '90']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL coverage: nothing to cover: the configuration has no firewall rule a case could match (--min-coverage 90%)');
    expect(r.stderr).toMatch(/^edgesim: warning: no network-firewall ruleset \(cloudflare_ruleset of phase magic_transit\) in this state; it holds /);
  });
});
