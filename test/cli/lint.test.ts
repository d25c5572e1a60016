// `edgesim lint` and `edgesim diff --static` through the built CLI: output shapes, exit codes, and
// agreement of the static diff with the capture diff on the demo capture (every frame whose
// firewall decision changes falls in a class the static diff reports with the same rules).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Log } from 'sarif';
import { FINDING_KINDS } from '../../src/analysis/index.js';
import type { Ruleset, RulesetRule, Snapshot } from '../../src/config/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { sarifProblems } from '../helpers/sarif.js';
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
    expect(Object.keys(f)).toEqual(['ruleset', 'rule', 'kind', 'blocked_by', 'different_action', 'witness', 'message', 'severity', 'location']);
    expect(f).toMatchObject({ rule: 'block-telnet-again', blocked_by: ['block-telnet'], different_action: false, witness: { 'tcp.dstport': 23 }, severity: 'error' });
    expect(f.location).toEqual({ file, line: 1, column: expect.any(Number) });
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
      expect(r.stdout).toMatch(/^\S+\.json:1:\d+: warning: .+ office-ssh: unknown_list: .*\$office/m);
      expect(r.stdout).toMatch(/^\S+\.json:1:\d+: warning: .+ malware: unknown_list: .*\$svc\.mal/m);
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

/** A configuration with every kind of finding, one rule or ruleset an object of its own lines. */
function everyKind(): Snapshot {
  const rule = (ref: string, action: string, expression: string, extra: object = {}) => ({ ref, action, expression, ...extra }) as RulesetRule;
  const long = Array.from({ length: 260 }, (_, i) => `tcp.dstport == ${1000 + i}`).join(' or ');
  return {
    prefixes: [{ prefix: '203.0.113.0/24' }],
    syn_protection: { filters: [{ expression: 'ip.dst in {198.51.100.0/24} and ip.src in {198.51.100.0/24}', mode: 'enabled' }] },
    lists: [{ name: 'empty', kind: 'ip', items: [] }],
    rulesets: [
      {
        name: 'fw',
        kind: 'root',
        phase: 'magic_transit',
        rules: [
          rule('impossible', 'block', 'ip.proto == "TCP"'),
          rule('contradiction', 'block', 'tcp.dstport == 22 and tcp.dstport == 23'),
          rule('ssh', 'block', 'tcp.dstport == 22'),
          rule('ssh-again', 'block', 'tcp.dstport == 22 and ip.ttl < 64'),
          rule('empty', 'block', 'ip.src in $empty'),
          rule('nosuch', 'block', 'ip.src in $nosuch'),
          rule('not-syn', 'block', 'not tcp.flags.syn'),
          rule('allowed', 'allow', 'tcp.dstport == 80'),
          rule('logged', 'block', 'tcp.dstport == 81', { logging: { enabled: true } }),
          rule('web', 'block', 'http.request.uri.path eq "/admin"'),
          rule('long', 'block', long),
        ],
      },
      { name: 'zoned', kind: 'custom', phase: 'magic_transit', zone_id: 'z1', rules: [rule('z', 'block', 'udp.dstport == 53')] } as Ruleset,
    ],
  };
}

describe('edgesim lint: formats and deploy-time checks', () => {
  const write = (name: string, text: string): string => {
    const file = path.join(tmp, name);
    writeFileSync(file, text);
    return file;
  };
  const everyKindFile = write('every-kind.json', JSON.stringify(everyKind(), null, 2));
  type Json = { findings: Array<{ rule: string | null; kind: string; severity: string; location: { file: string; line?: number; column?: number } }> };

  it('reports every kind of finding, deploy-time checks included, with severity and the line of the rule, exit 1', () => {
    const r = runCli(['lint', everyKindFile, '--json', '--max-rules', '5']);
    expect([r.status, r.stderr]).toEqual([1, '']);
    const { findings } = JSON.parse(r.stdout) as Json;
    expect(new Set(findings.map((f) => f.kind))).toEqual(new Set(Object.keys(FINDING_KINDS)));
    const text = readFileSync(everyKindFile, 'utf8').split('\n');
    for (const f of findings.filter((x) => x.rule !== null && x.kind !== 'atp_filter_never_applies')) {
      expect(text[f.location.line! - 1]!.slice(f.location.column! - 1), f.kind).toBe('{');
      expect(text[f.location.line!], f.kind).toContain(`"ref": "${f.rule}"`);
    }
    expect(findings.find((f) => f.kind === 'allow_action')).toMatchObject({ rule: 'allowed', severity: 'error' });
    const tooMany = findings.find((f) => f.kind === 'too_many_rules')!;
    expect(tooMany).toMatchObject({ rule: null, severity: 'error' });
    expect(text[tooMany.location.line!]).toContain('"name": "fw"');
  });

  it('--format sarif passes Microsoft\'s validator, with its default rules and with GitHub\'s, on the demo and on every kind of finding', () => {
    for (const [name, args] of [
      ['demo', [BEFORE]],
      ['every-kind', [everyKindFile, '--max-rules', '5']],
      ['clean', [snapshotFile('clean', (s) => (s.rulesets = []))]],
    ] as const) {
      const out = path.join(tmp, `${name}.sarif`);
      const r = runCli(['lint', ...args, '--format', 'sarif', '--out', out]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('');
      const { errors, warnings } = sarifProblems(out);
      expect(errors, name).toEqual([]);
      // the one finding without a line (an ATP filter) has no region, which the validator only warns about
      expect(warnings.map((w) => /SARIF\d+/.exec(w)?.[0]), name).toEqual(name === 'every-kind' ? ['SARIF2017'] : []);
      // GitHub's rules: a full description and help for every rule (GH2012), relative locations, ...
      expect(sarifProblems(out, 'Gh'), name).toEqual({ errors: [], warnings: [] });
    }
    const log = JSON.parse(readFileSync(path.join(tmp, 'every-kind.sarif'), 'utf8')) as Log;
    const ids = log.runs[0]!.tool.driver.rules!.map((r) => r.id);
    expect(ids).toContain('edgesim/unreachable');
    expect(ids).toContain('edgesim/allow_action');
    expect(log.runs[0]!.results!.every((res) => ids.includes(res.ruleId!))).toBe(true);
  });

  it('SARIF fingerprints are the same in two runs and after a line is inserted above the rules; the lines move', () => {
    const sarif = (file: string): Log => JSON.parse(runCli(['lint', file, '--format', 'sarif', '--max-rules', '5']).stdout) as Log;
    const prints = (log: Log) => log.runs[0]!.results!.map((r) => r.partialFingerprints!['edgesimFinding/v2']);
    const lines = (log: Log) => log.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation!.region?.startLine);
    const first = sarif(everyKindFile);
    expect(new Set(prints(first)).size).toBe(prints(first).length);
    expect(prints(sarif(everyKindFile))).toEqual(prints(first));
    const text = readFileSync(everyKindFile, 'utf8');
    const inserted = text.split('\n').indexOf('      "rules": [') + 1;
    expect(inserted).toBeGreaterThan(0);
    const moved = sarif(write('every-kind-moved.json', text.replace('"rules": [\n', '"rules": [\n\n')));
    expect(prints(moved)).toEqual(prints(first));
    expect(lines(moved)).toEqual(lines(first).map((l) => (l === undefined || l <= inserted ? l : l + 1)));
    expect(lines(first).filter((l) => l !== undefined && l > inserted).length).toBeGreaterThan(10);
  });

  it('--format github: annotations at the rule, errors first; --json is --format json', () => {
    const r = runCli(['lint', everyKindFile, '--format', 'github', '--max-rules', '5']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    const levels = lines.map((l) => /^::(\w+) /.exec(l)?.[1] ?? 'plain');
    expect(levels.indexOf('warning')).toBeGreaterThan(levels.lastIndexOf('error'));
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(lines).toContainEqual('edgesim: 1 more error finding not annotated (GitHub shows about 10 a level); every finding is in the job summary and in --format sarif');
    expect(lines).toContainEqual(expect.stringMatching(/^::error title=edgesim allow_action,file=[^,]+every-kind\.json,line=\d+,col=\d+::allowed: action "allow"/));
    expect(runCli(['lint', BEFORE, '--json']).stdout).toBe(runCli(['lint', BEFORE, '--format', 'json']).stdout);
    const both = runCli(['lint', BEFORE, '--json', '--format', 'sarif']);
    expect([both.status, both.stderr]).toEqual([2, 'edgesim: --json is --format json: give one of --json and --format sarif\n']);
  });

  it('appends a table of findings to --summary FILE, or to $GITHUB_STEP_SUMMARY', () => {
    const summary = path.join(tmp, 'summary.md');
    writeFileSync(summary, '## earlier step\n');
    expect(runCli(['lint', BEFORE, '--summary', summary]).status).toBe(0);
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(/^## earlier step\n### edgesim lint examples\/demo-snapshot\.json: 0 errors, 1 warning, 0 notes\n/);
    expect(md).toMatch(/\| warning \| negated\\_protocol\\_field \| demo edge\\_transit \/ block-other-tcp \| examples\/demo-snapshot\.json:44:9 \| /);
    const env = path.join(tmp, 'step-summary.md');
    expect(runCli(['lint', everyKindFile], { env: { GITHUB_STEP_SUMMARY: env } }).status).toBe(1);
    expect(readFileSync(env, 'utf8')).toContain('| error | allow\\_action | fw / allowed |');
  });

  it('refuses to write --out or --summary over the snapshot it reads, exit 2', () => {
    const copy = write('precious.json', readFileSync(BEFORE, 'utf8'));
    for (const flag of ['--out', '--summary']) {
      const r = runCli(['lint', copy, flag, copy]);
      expect([r.status, r.stderr]).toEqual([2, `edgesim: ${flag} ${copy}: the same file as the configuration; give each output its own file\n`]);
    }
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(BEFORE, 'utf8'));
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
    const cmp = JSON.parse(r.stdout) as { same_verdicts: boolean; differences: Array<{ before: { verdict: string; rule: string | null }; after: { verdict: string; rule: string | null } }> };
    expect(cmp.same_verdicts).toBe(false);
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
    const cmp = JSON.parse(r.stdout) as { same_verdicts: boolean; differences: Array<Record<string, unknown>>; indeterminate: unknown[] };
    expect(cmp.same_verdicts).toBe(false);
    expect(cmp.differences).toEqual([expect.objectContaining({ before: { verdict: 'pass', rule: 'c50-allow' }, after: { verdict: 'drop', rule: 'c50-allow' }, certain: true })]);
    expect(cmp.indeterminate).toEqual([]);
  });

  it('diff --static, 100 rules each an `and` of `not (… and …)` terms, one action changed: indeterminate with the reason', () => {
    const before = notAndTerms('and', 100);
    const args = ['diff', '--static', file('and-terms', before), file('and-terms-changed', withActionChanged(before, 50))];
    const r = runCli([...args, '--format', 'json'], capped);
    expect(r.status).toBe(1);
    const cmp = JSON.parse(r.stdout) as { same_verdicts: boolean; differences: unknown[]; indeterminate: Array<{ before: object; after: object; reason: string }> };
    expect(cmp.same_verdicts).toBe(false);
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
