// Reviewers' formats where a reviewer looks, through the built CLI: SARIF that Microsoft's
// validator passes with its default rules and with GitHub's (`--rule-kind Gh`), every result with
// a region in a file of the repository — for the demo snapshot, an octorules file, and Terraform
// plans and states whose rules are placed in the .tf files beside them (the fixtures of
// test/config/terraform-source, written from the provider's examples and acceptance tests); the
// same places in --format github, the text output and the static diff's Markdown; standard input
// and a file named `..x.json` named as what they are.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { sarifRuleIds } from '../helpers/sarif.js';
import { tempDir } from '../helpers/temp-dir.js';

const TF = path.join(ROOT, 'test/config/terraform-source/fixtures');

/** A repository holding a copy of `fixture` (a folder of the Terraform fixtures, or a file), as a checkout has it. */
function repository(fixture: string): string {
  const dir = tempDir('edgesim-repo-');
  const from = path.isAbsolute(fixture) ? fixture : path.join(ROOT, fixture);
  cpSync(from, existsSync(path.join(from, 'plan.json')) || existsSync(path.join(from, 'state.json')) ? dir : path.join(dir, path.basename(from)), { recursive: true });
  return dir;
}

/** The lines of a file from a region's start. */
function from(file: string, line: number, column: number): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  return [lines[line - 1]!.slice(column - 1), ...lines.slice(line)].join('\n');
}

describe('SARIF that GitHub code scanning takes', () => {
  const cases: Array<[string, string, string[]]> = [
    ['the demo snapshot', 'examples/demo-snapshot.json', ['demo-snapshot.json']],
    ['an octorules file', 'test/config/inputs/fixtures/octorules-account.yaml', ['octorules-account.yaml']],
    ['a v5 plan with a child module and for_each, .tf files beside it', `${TF}/v5-module`, ['--plan', 'plan.json']],
    ['a v4 plan with count and dynamic rules, .tf files beside it', `${TF}/v4-dynamic`, ['--plan', 'plan.json']],
    ['a state of the legacy resource in a local module', `${TF}/legacy-state`, ['state.json']],
  ];
  for (const [what, fixture, args] of cases) {
    it(`${what}: no error or warning with the default rules nor GitHub's; every result has a region in a file of the repository`, () => {
      const repo = repository(fixture);
      const r = runCli(['lint', ...args, '--format', 'sarif', '--out', 'edgesim.sarif'], { cwd: repo });
      expect(r.status, r.stderr).toBeLessThanOrEqual(1);
      // the readers' notes (a phase not simulated, allow read as skip), and none that a rule could not be placed
      expect(r.stderr).not.toMatch(/placed in|not valid HCL/);
      const sarif = path.join(repo, 'edgesim.sarif');
      expect(sarifRuleIds(sarif)).toEqual({ default: [], Gh: [] });
      const log = JSON.parse(readFileSync(sarif, 'utf8')) as Log;
      const results = log.runs[0]!.results!;
      expect(results.length, what).toBeGreaterThan(0);
      for (const result of results) {
        const physical = result.locations![0]!.physicalLocation!;
        expect(physical.artifactLocation!.uriBaseId).toBe('%SRCROOT%');
        const file = path.join(repo, decodeURIComponent(physical.artifactLocation!.uri!));
        expect(existsSync(file), file).toBe(true);
        expect(physical.region!.startLine).toBeGreaterThan(0);
        if (args[0] === '--plan' || args[0] === 'state.json') {
          // placed in the .tf files, not in the JSON
          expect(file).toMatch(/\.tf$/);
          const text = from(file, physical.region!.startLine!, physical.region!.startColumn!);
          expect(text, result.ruleId).toMatch(['edgesim/unreachable', 'edgesim/allow_action'].includes(result.ruleId!) ? /^(\{|rules \{)/ : /^expression\s+= /);
        }
      }
      // every rule descriptor says what code scanning shows
      for (const rule of log.runs[0]!.tool.driver.rules!) {
        expect(rule.fullDescription?.text, rule.id).toBeTruthy();
        expect(rule.help?.markdown, rule.id).toContain('How to fix it');
        expect(rule.properties?.tags?.length, rule.id).toBeGreaterThan(0);
      }
    });
  }

  it('security-severity on the findings that leave traffic decided otherwise than the rules say, not on deploy-time checks', () => {
    const log = JSON.parse(runCli(['lint', 'examples/demo-snapshot.json', '--format', 'sarif']).stdout) as Log;
    const rules = new Map(log.runs[0]!.tool.driver.rules!.map((r) => [r.id, r.properties ?? {}]));
    expect(rules.get('edgesim/unreachable')).toMatchObject({ 'security-severity': '5.0', tags: expect.arrayContaining(['security']) });
    expect(rules.get('edgesim/negated_protocol_field')?.['security-severity']).toBe('4.0');
    expect(rules.get('edgesim/too_many_rules')?.['security-severity']).toBeUndefined();
    expect(rules.get('edgesim/indeterminate')?.tags).not.toContain('security');
  });

  it('fingerprints survive a rebase: rules inserted above and rules without refs renumbered keep every fingerprint', () => {
    const repo = repository(`${TF}/v4-dynamic`);
    const prints = (): Map<string, string | undefined> => {
      const log = JSON.parse(runCli(['lint', '--plan', 'plan.json', '--format', 'sarif'], { cwd: repo }).stdout) as Log;
      return new Map(log.runs[0]!.results!.map((r) => [r.ruleId!, r.partialFingerprints!['edgesimFinding/v2']]));
    };
    const before = prints();
    expect(before.size).toBe(2);
    // a new first rule: every rule after it moves down a line and a place (their refs are `magic transit#N`)
    const plan = JSON.parse(readFileSync(path.join(repo, 'plan.json'), 'utf8'));
    const extra = { action: 'block', description: 'new', enabled: true, expression: 'udp.dstport == 19', action_parameters: [], logging: [], exposed_credential_check: [], ratelimit: [] };
    for (const values of [plan.resource_changes[0].change.after, plan.planned_values.root_module.resources[0].values]) values.rules.unshift(extra);
    plan.resource_changes[0].change.after_unknown.rules.unshift({ id: true, ref: true });
    writeFileSync(path.join(repo, 'plan.json'), JSON.stringify(plan, null, 2));
    const tf = path.join(repo, 'main.tf');
    writeFileSync(tf, readFileSync(tf, 'utf8').replace('  rules {\n', '  rules {\n    action     = "block"\n    expression = "udp.dstport == 19"\n  }\n\n  rules {\n'));
    expect(prints()).toEqual(before);
  });
});

describe('Terraform findings in the other formats', () => {
  it('--format github annotates the .tf line of the expression (or of the rule), with its end; text shows file:line:column and the address', () => {
    const repo = repository(`${TF}/v5-module`);
    const github = runCli(['lint', '--plan', 'plan.json', '--format', 'github'], { cwd: repo });
    expect(github.status).toBe(1);
    const lines = github.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const m = /^::(?:error|warning) title=edgesim (\w+),file=([^,]+),line=(\d+),endLine=(\d+),col=(\d+),endColumn=(\d+)::module\.firewall\["prod"\]\.cloudflare_ruleset\.magic_transit rules\[\d\]: /.exec(line);
      expect(m, line).not.toBeNull();
      expect(m![2]).toBe('modules/firewall/main.tf');
      expect(from(path.join(repo, m![2]!), Number(m![3]), Number(m![5]))).toMatch(m![1] === 'unreachable' ? /^\{/ : /^expression\s+= /);
    }
    const text = runCli(['lint', '--plan', 'plan.json'], { cwd: repo });
    expect(text.stdout).toMatch(/^modules\/firewall\/main\.tf:\d+:\d+ \(module\.firewall\["prod"\]\.cloudflare_ruleset\.magic_transit rules\[6\]\): error: .*: unmatchable: /m);
  });

  it('diff --static --plan --format markdown: the after side at its .tf line, the before side (what is deployed) by its address', () => {
    const repo = repository(`${TF}/v5-module`);
    // what is deployed blocks the partners that the plan lets through (a before-side rule decides a change)
    const plan = JSON.parse(readFileSync(path.join(repo, 'plan.json'), 'utf8'));
    plan.resource_changes.find((c: { type: string }) => c.type === 'cloudflare_ruleset').change.before.rules[0].action = 'block';
    writeFileSync(path.join(repo, 'plan.json'), JSON.stringify(plan, null, 2));
    const r = runCli(['diff', '--static', '--plan', 'plan.json', '--format', 'markdown'], { cwd: repo });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/→ drop by .* \(modules\/firewall\/main\.tf:\d+\)\*\*/);
    expect(r.stdout).toMatch(/\*\*drop by .* \(plan\.json module\.firewall\\\["prod"\\\]\.cloudflare\\_ruleset\.magic\\_transit rules\\\[0\\\]\) → pass by .* \(modules\/firewall\/main\.tf:\d+\)\*\*/);
    // the text output reads no .tf file
    expect(runCli(['diff', '--static', '--plan', 'plan.json'], { cwd: repo }).stderr).not.toMatch(/\.tf\b|placed in/);
  });

  it('a plan without its .tf files: placed at the rule in the plan, and a note says why and what to give', () => {
    const repo = repository(`${TF}/v4-dynamic/plan.json`);
    const r = runCli(['lint', '--plan', 'plan.json', '--format', 'github'], { cwd: repo });
    expect(r.stderr.split('\n').filter((l) => !l.includes('known only after apply'))).toEqual(['edgesim: warning: cloudflare_ruleset.magic_transit[0]: placed in plan.json: no .tf files in the working folder (give their folder with --tf-dir)', '']);
    expect(r.stdout).toMatch(/^::error title=edgesim unreachable,file=plan\.json,line=\d+,col=\d+::/m);
    const given = runCli(['lint', '--plan', 'plan.json', '--tf-dir', path.join(TF, 'v4-dynamic'), '--format', 'github'], { cwd: repo });
    expect(given.stderr.split('\n').filter((l) => l !== '' && !l.includes('known only after apply'))).toEqual([]);
    expect(given.stdout).toContain(`file=${path.join(TF, 'v4-dynamic', 'main.tf')}`);
    // --tf-dir that is no folder, or beside no Terraform JSON
    expect(runCli(['lint', '--plan', 'plan.json', '--tf-dir', 'nowhere'], { cwd: repo })).toMatchObject({ status: 2, stderr: 'edgesim: --tf-dir nowhere: no such folder (give the folder of the .tf files)\n' });
    expect(runCli(['lint', 'examples/demo-snapshot.json', '--tf-dir', 'examples']).stderr).toBe('edgesim: warning: --tf-dir: no configuration file is Terraform JSON, so no .tf file was read\n');
  });
});

describe('SARIF names files as they are', () => {
  it('standard input is no file: no physical location (no `standard%20input` under %SRCROOT%), and a warning says so', () => {
    const r = runCli(['lint', '--config', '-', '--format', 'sarif'], { input: readFileSync(path.join(ROOT, 'examples/demo-snapshot.json')) });
    expect(r.stdout).not.toContain('standard');
    const log = JSON.parse(r.stdout) as Log;
    expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation).toBeUndefined();
    expect(log.runs[0]!.results![0]!.locations![0]!.logicalLocations![1]!.name).toBe('block-other-tcp');
    expect(r.stderr).toBe('edgesim: warning: --format sarif: the configuration came from standard input, which is no file: its findings have no place in the repository for code scanning to show them at\n');
  });

  it('--format github: a finding in a configuration from standard input is annotated without a file', () => {
    const r = runCli(['lint', '--config', '-', '--format', 'github'], { input: readFileSync(path.join(ROOT, 'examples/demo-snapshot.json')) });
    expect(r.stdout).toMatch(/^::warning title=edgesim negated_protocol_field::`not` over tcp\.dstport /);
  });

  it('a file named ..x.json in the working folder is relative to it, not a file: URI', () => {
    const repo = tempDir('edgesim-dots-');
    cpSync(path.join(ROOT, 'examples/demo-snapshot.json'), path.join(repo, '..x.json'));
    const log = JSON.parse(runCli(['lint', '..x.json', '--format', 'sarif'], { cwd: repo }).stdout) as Log;
    expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: '..x.json', uriBaseId: '%SRCROOT%' });
  });
});

describe('a failing case says where its deciding rule is written (JUnit and text)', () => {
  it('a suite over a Terraform plan: the rule at its .tf line, in the JUnit failure and in the text report', () => {
    const repo = repository(`${TF}/v5-module`);
    writeFileSync(
      path.join(repo, 'suite.yaml'),
      'config: plan.json\ncases:\n  - name: high UDP ports pass\n    packet: {ip.src: 198.51.100.7, ip.dst: 203.0.113.10, udp.dstport: 40000}\n    expect: {verdict: pass}\n',
    );
    const r = runCli(['test', 'suite.yaml', '--junit', 'junit.xml'], { cwd: repo });
    expect(r.status).toBe(1);
    const place = /deciding rule .+ is written at (\S+modules\/firewall\/main\.tf):(\d+):(\d+) \(module\.firewall\["prod"\]\.cloudflare_ruleset\.magic_transit rules\[1\]\)/;
    expect(r.stdout).toMatch(place);
    const junit = readFileSync(path.join(repo, 'junit.xml'), 'utf8');
    const m = place.exec(junit.replace(/&quot;/g, '"'))!;
    expect(m).not.toBeNull();
    expect(from(m[1]!, Number(m[2]), Number(m[3]))).toMatch(/^\{\n\s+action\s+= "block"\n\s+expression\s+= "udp\.dstport in \{ 32768\.\.65535 \}"/);
    // --config given on the command line: the same place, relative to the working folder
    const given = runCli(['test', 'suite.yaml', '--config', 'plan.json'], { cwd: repo });
    expect(given.stdout).toMatch(/deciding rule .+ is written at modules\/firewall\/main\.tf:\d+:\d+ /);
  });
});
