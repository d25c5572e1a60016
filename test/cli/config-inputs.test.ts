// `--config` reads the configuration where it already is — Terraform JSON, the vendor API's JSON,
// octorules YAML — and several files merged by resource: each replays the demo capture exactly as
// the equivalent snapshot does (every NDJSON field of every frame). `--plan`: diff compares the plan's
// before and after exactly as --config BEFORE --against AFTER does; lint reads the after side.
// Errors are one line; notes are said once on stderr.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const DEMO = 'examples/demo.pcap';
const SNAP = 'examples/demo-snapshot.json';
const FIX = 'test/config/inputs/fixtures';
const fx = (name: string): string => `${FIX}/${name}`;
const PLAN = fx('terraform-v5-plan.json');
const ATP = fx('demo-atp.json');

function ndjson(configs: string[]): unknown[] {
  const r = runCli(['replay', DEMO, ...configs.flatMap((c) => ['--config', c]), '--format', 'ndjson']);
  expect(r.stderr.split('\n').filter((l) => !/ is not simulated$| as the provider sends it$|^edgesim: [\d,]+ packets:/.test(l) && l !== '')).toEqual([]);
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);
}

describe('replay --config in every format', () => {
  const expected = ndjson([SNAP]);

  it.each([
    ['Terraform v5 state + an ATP snapshot', [fx('terraform-v5-state.json'), ATP]],
    ['Terraform v4 state + an ATP snapshot', [fx('terraform-v4-state.json'), ATP]],
    ['a Terraform plan (its planned values) + an ATP snapshot', [PLAN, ATP]],
    ['the vendor GET entrypoint response + lists and ATP', [fx('vendor-entrypoint.json'), fx('demo-atp-lists.json')]],
    ['octorules YAML + an ATP snapshot', [fx('octorules-account.yaml'), ATP]],
  ])('%s replays exactly as the snapshot', (_name, configs) => {
    const got = ndjson(configs);
    expect(got).toHaveLength(expected.length);
    expect(got).toEqual(expected);
  });

  it('the legacy resource replays as its equivalent snapshot, and says once that allow is read as skip', () => {
    expect(ndjson([fx('terraform-legacy-state.json'), ATP])).toEqual(ndjson([fx('legacy-equivalent-snapshot.json')]));
    const r = runCli(['replay', DEMO, '--config', fx('terraform-legacy-state.json'), '--config', ATP, '--format', 'ndjson', '--out', '-']);
    expect(r.stderr.split('\n').filter((l) => l.includes('allow'))).toEqual(['edgesim: warning: cloudflare_magic_firewall_ruleset.legacy: action "allow" read as "skip" with {"ruleset": "current"}, as the provider sends it']);
  });

  it('a note is said once, though both sides of a diff read the file', () => {
    const legacy = fx('terraform-legacy-state.json');
    const r = runCli(['diff', DEMO, '--config', legacy, '--config', ATP, '--against', legacy, '--against', ATP]);
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('allow'))).toHaveLength(1);
  });

  it('--config-format forces a format', () => {
    const r = runCli(['replay', DEMO, '--config', SNAP, '--config-format', 'octorules', '--format', 'ndjson']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^edgesim: [^\n]*demo-snapshot\.json: tcp_protection_status: not an octorules key/);
  });
});

describe('--plan', () => {
  it.each([['ndjson'], ['table'], ['json']])('diff CAPTURE --plan prints what --config BEFORE --against AFTER prints (%s)', (format) => {
    const byPlan = runCli(['diff', DEMO, '--plan', PLAN, '--config', ATP, '--format', format]);
    const byFiles = runCli(['diff', DEMO, '--config', fx('plan-before-snapshot.json'), '--against', SNAP, '--format', format]);
    expect(byFiles.status).toBe(1);
    expect(byPlan.status).toBe(byFiles.status);
    expect(byPlan.stdout).not.toBe('');
    expect(byPlan.stdout).toBe(byFiles.stdout);
  });

  it('diff --static --plan compares the same two configurations as diff --static BEFORE AFTER', () => {
    const byPlan = runCli(['diff', '--static', '--plan', PLAN, '--config', ATP, '--format', 'json']);
    const byFiles = runCli(['diff', '--static', fx('plan-before-snapshot.json'), SNAP, '--format', 'json']);
    expect(byFiles.status).toBe(1);
    expect([byPlan.status, byPlan.stdout]).toEqual([byFiles.status, byFiles.stdout]);
  });

  it('lint --plan lints the after side; without .tf files beside the plan its findings are placed at the rules in the plan, with their addresses and a note; lint --config FILE is lint FILE', () => {
    const bySnapshot = runCli(['lint', SNAP, '--json']);
    const byPlan = runCli(['lint', '--plan', PLAN, '--json']);
    type Findings = { findings: Array<{ location: { file: string; line?: number; column?: number; address?: string } }> };
    const placeless = (stdout: string) => (JSON.parse(stdout) as Findings).findings.map(({ location, ...finding }) => finding);
    expect(byPlan.status).toBe(bySnapshot.status);
    expect(byPlan.stderr).toBe(`edgesim: warning: module.fw.cloudflare_ruleset.mt: placed in ${PLAN}: no .tf files in ${path.dirname(PLAN)} (give their folder with --tf-dir)\n`);
    expect(placeless(byPlan.stdout)).toEqual(placeless(bySnapshot.stdout));
    const places = (JSON.parse(byPlan.stdout) as Findings).findings.map((f) => f.location);
    expect(places.length).toBeGreaterThan(0);
    const planLines = readFileSync(path.join(ROOT, PLAN), 'utf8').split('\n');
    for (const place of places) {
      expect(place).toEqual({ file: PLAN, line: expect.any(Number), column: expect.any(Number), address: expect.stringMatching(/^module\.fw\.cloudflare_ruleset\.mt rules\[\d+\]$/) });
      // the rule's object in planned_values: its first key on the next line
      expect(planLines[place.line! - 1]!.slice(place.column! - 1)).toMatch(/^\{/);
    }
    expect(runCli(['lint', '--config', SNAP, '--json'])).toEqual(bySnapshot);
  });

  it('lint without a configuration is a usage error', () => {
    const r = runCli(['lint']);
    expect([r.status, r.stderr]).toEqual([2, 'edgesim: lint takes a configuration: edgesim lint FILE, --config FILE or --plan PLAN.json\n']);
  });

  it('diff --plan exits 0 when the plan changes nothing the capture shows, 2 on an error', () => {
    const plan = JSON.parse(readFileSync(path.join(ROOT, PLAN), 'utf8'));
    for (const c of plan.resource_changes) c.change.before = c.change.after;
    const noop = path.join(tempDir('edgesim-noop-plan-'), 'plan.json');
    writeFileSync(noop, JSON.stringify(plan));
    const same = runCli(['diff', DEMO, '--plan', noop, '--config', ATP, '--format', 'ndjson']);
    expect([same.status, same.stdout]).toEqual([0, '']);
    const state = fx('terraform-v5-state.json');
    const notPlan = runCli(['diff', DEMO, '--plan', state]);
    expect([notPlan.status, notPlan.stderr]).toEqual([2, `edgesim: ${state}: --plan: not a Terraform plan (no resource_changes): give the output of terraform show -json PLANFILE\n`]);
  });

  it('diff --plan with --against is a usage error', () => {
    const r = runCli(['diff', DEMO, '--plan', PLAN, '--against', SNAP]);
    expect([r.status, r.stderr]).toEqual([2, 'edgesim: --plan gives both sides of the change: drop --against\n']);
  });
});

describe('errors are one line', () => {
  const dir = tempDir('edgesim-cli-inputs-');
  const write = (name: string, value: object): string => {
    const p = path.join(dir, name);
    writeFileSync(p, JSON.stringify(value));
    return p;
  };
  const state = (): any => JSON.parse(readFileSync(path.join(ROOT, fx('terraform-v5-state.json')), 'utf8'));

  it.each([
    ['an unknown major format_version', () => [write('v2.json', { ...state(), format_version: '2.0' })], /: Terraform JSON format_version "2\.0" is not one edgesim reads \(1\.x\)$/],
    ['two root rulesets', () => {
      const s = state();
      s.values.root_module.resources.push({ ...s.values.root_module.child_modules[0].resources[1], address: 'cloudflare_ruleset.second' });
      return [write('two.json', s)];
    }, /: two root rulesets for phase magic_transit: cloudflare_ruleset\.second and module\.fw\.cloudflare_ruleset\.mt \(an account has one entry point\)$/],
    ['an expression unknown at plan time', () => {
      const p = JSON.parse(readFileSync(path.join(ROOT, PLAN), 'utf8'));
      p.resource_changes[1].change.after_unknown.rules[5] = { expression: true };
      return [write('unknown.json', p)];
    }, /: module\.fw\.cloudflare_ruleset\.mt rules\[5\]: the expression is known only after apply/],
    ['the same resource in two files', () => [fx('terraform-v5-state.json'), fx('demo-atp-lists.json')], /^edgesim: lists is given in both .*terraform-v5-state\.json and .*demo-atp-lists\.json: give each resource in one file$/],
  ])('%s', (_name, files, message) => {
    const r = runCli(['replay', DEMO, ...files().flatMap((f) => ['--config', f])]);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^edgesim: /);
    expect(lines[0]).toMatch(message);
  });
});

describe('suites', () => {
  it('config: [a, b] merges the files as --config a --config b does, and its notes are said', () => {
    const dir = tempDir('edgesim-suite-inputs-');
    const abs = (p: string): string => path.join(ROOT, p);
    const suite = readFileSync(abs('examples/demo-suite.yaml'), 'utf8')
      .replace('config: demo-snapshot.json', `config: [${abs(fx('terraform-v5-state.json'))}, ${abs(ATP)}]`)
      .replace('capture: demo.pcap', `capture: ${abs(DEMO)}`)
    copyFileSync(abs('examples/demo.verdicts.ndjson'), path.join(dir, 'demo.verdicts.ndjson'));
    const p = path.join(dir, 'suite.yaml');
    writeFileSync(p, suite);
    const r = runCli(['test', p, '--json', '-']);
    expect(r.stderr).toBe('edgesim: warning: module.fw.cloudflare_ruleset.managed: phase magic_transit_managed is not simulated\n');
    expect(r.status).toBe(0);
  });
});
