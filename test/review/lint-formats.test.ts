// lint's findings in reviewers' formats: annotations most important first with the rest counted,
// the job summary's table (Markdown that a message cannot break), SARIF's shape, and fingerprints
// that follow a finding when its rule moves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding, FindingKind, Severity } from '../../src/analysis/index.js';
import { annotationLines } from '../../src/review/annotations.js';
import { failsAt, reviewFindings, type ReviewFinding } from '../../src/review/lint-findings.js';
import { lintSummary } from '../../src/review/lint-summary.js';
import { sarifLog } from '../../src/review/sarif.js';

const finding = (rule: string, kind: FindingKind, message = `${rule}: ${kind}`): Finding => ({ ruleset: 'fw', rule, kind, blocked_by: [], different_action: false, witness: null, message });
const placed = (severity: Severity, line: number, kind: FindingKind = 'unreachable'): ReviewFinding => ({
  finding: finding(`r${line}`, kind),
  severity,
  location: { file: 'config.json', line, column: 5 },
  fingerprint: `f${line}`,
  subject: { ruleset: 0, rule: line, expression: '' },
});

describe('annotationLines', () => {
  it('prints errors first, ten of a level at most, and one line counting the rest', () => {
    const findings = [...Array.from({ length: 3 }, (_, i) => placed('warning', i + 1, 'empty_list')), ...Array.from({ length: 12 }, (_, i) => placed('error', 100 + i))];
    const lines = annotationLines(findings);
    expect(lines).toHaveLength(10 + 1 + 3);
    expect(lines.slice(0, 10).every((l) => l.startsWith('::error '))).toBe(true);
    expect(lines[0]).toBe('::error title=edgesim unreachable,file=config.json,line=100,col=5::r100: unreachable');
    expect(lines[10]).toBe('edgesim: 2 more error findings not annotated (GitHub shows about 10 a level); every finding is in the job summary and in --format sarif');
    expect(lines.slice(11).every((l) => l.startsWith('::warning '))).toBe(true);
  });

  it('for any findings: at most ten of a level, the rest counted, levels in order of importance (property)', () => {
    const severity = fc.constantFrom<Severity>('error', 'warning', 'note');
    fc.assert(
      fc.property(fc.array(severity, { maxLength: 40 }), (severities) => {
        const lines = annotationLines(severities.map((s, i) => placed(s, i + 1)));
        const order = lines.map((l) => ['error', 'warning', 'notice'].indexOf(/^::(\w+) /.exec(l)?.[1] ?? (/more (\w+) finding/.exec(l)![1] === 'note' ? 'notice' : /more (\w+) finding/.exec(l)![1]!)));
        expect(order).toEqual([...order].sort());
        for (const [severity, level] of [['error', 'error'], ['warning', 'warning'], ['note', 'notice']] as const) {
          const total = severities.filter((s) => s === severity).length;
          const shown = lines.filter((l) => l.startsWith(`::${level} `)).length;
          const more = lines.map((l) => new RegExp(`^edgesim: (\\d+) more ${severity} finding`).exec(l)?.[1]).find((n) => n !== undefined);
          expect(shown).toBe(Math.min(total, 10));
          expect(shown + Number(more ?? 0)).toBe(total);
        }
      }),
    );
  });

  it('writes notes as notices and a Terraform address into the message', () => {
    const note: ReviewFinding = { ...placed('note', 1, 'indeterminate'), location: { file: 'plan.json', address: 'cloudflare_ruleset.mt rules[0]' } };
    expect(annotationLines([note])).toEqual(['::notice title=edgesim indeterminate,file=plan.json::cloudflare_ruleset.mt rules[0]: r1: indeterminate']);
  });
});

describe('lintSummary', () => {
  it('is a table of findings, errors first, with file:line:column', () => {
    const md = lintSummary('config.json', [placed('warning', 3, 'empty_list'), placed('error', 9)]);
    expect(md).toBe(
      [
        '### edgesim lint config.json: 1 error, 1 warning, 0 notes',
        '',
        '| Severity | Finding | Rule | Where | Message |',
        '| --- | --- | --- | --- | --- |',
        '| error | unreachable | fw / r9 | config.json:9:5 | r9: unreachable |',
        '| warning | empty\\_list | fw / r3 | config.json:3:5 | r3: empty\\_list |',
        '',
      ].join('\n'),
    );
    expect(lintSummary('config.json', [])).toBe('### edgesim lint config.json: no findings\n');
  });

});

describe('reviewFindings', () => {
  const sources = (expression: string, line: number) => ({
    file: 'config.json',
    locate: (rs: number, r = -1) => ({ file: 'config.json', line: line + r, column: 7 }),
    analysed: [{ finding: finding('b', 'unreachable'), subject: { ruleset: 0, rule: 1, expression } }],
    origin: (rs: number, r: number): [number, number] => [rs, r + 1],
    deployTime: [{ finding: finding('a', 'allow_action'), subject: { ruleset: 0, rule: 0, expression: 'tcp.dstport == 1' } }],
  });

  it('places findings through origin, in file order, severity from the kind', () => {
    const out = reviewFindings(sources('tcp.dstport == 22', 10));
    expect(out.map((r) => [r.finding.rule, r.severity, r.location.line])).toEqual([
      ['a', 'error', 10],
      ['b', 'error', 12],
    ]);
  });

  it('keeps fingerprints when the rule moves or its expression is re-indented, not when the expression changes', () => {
    const fp = (expression: string, line: number) => reviewFindings(sources(expression, line)).map((r) => r.fingerprint);
    expect(fp('tcp.dstport == 22', 40)).toEqual(fp('tcp.dstport ==\n   22', 10));
    expect(fp('tcp.dstport == 23', 10)[1]).not.toBe(fp('tcp.dstport == 22', 10)[1]);
  });

  it('fails at error always, at warning with --fail-on warning, never for notes', () => {
    expect(failsAt([placed('note', 1, 'indeterminate')], 'warning')).toBe(false);
    expect(failsAt([placed('warning', 1, 'empty_list')], 'error')).toBe(false);
    expect(failsAt([placed('warning', 1, 'empty_list')], 'warning')).toBe(true);
    expect(failsAt([placed('error', 1)], 'error')).toBe(true);
  });
});

describe('sarifLog', () => {
  const tool = { name: 'edgesim', version: '0.1.0', informationUri: 'https://www.npmjs.com/package/edgesim' };

  it('one result per finding, its rule id, region, logical location and fingerprint; the file relative to the working folder', () => {
    const log = sarifLog([{ ...placed('error', 9), location: { file: '/work/repo/rules/config.json', line: 9, column: 5 } }], tool, { cwd: '/work/repo' });
    const run = log.runs[0]!;
    expect(run.tool.driver.rules!.find((r) => r.id === 'edgesim/unreachable')!.defaultConfiguration).toEqual({ level: 'error' });
    expect(run.results).toEqual([
      {
        ruleId: 'edgesim/unreachable',
        level: 'error',
        message: { text: 'r9: unreachable' },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: 'rules/config.json', uriBaseId: '%SRCROOT%' }, region: { startLine: 9, startColumn: 5 } },
            logicalLocations: [
              { name: 'fw', kind: 'namespace' },
              { name: 'r9', fullyQualifiedName: 'fw/r9', kind: 'member' },
            ],
          },
        ],
        partialFingerprints: { 'edgesimFinding/v2': 'f9' },
      },
    ]);
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///work/repo/' } });
  });

  it('a file outside the working folder is a file: URI', () => {
    const log = sarifLog([{ ...placed('error', 9), location: { file: '/elsewhere/c.json', line: 9 } }], tool, { cwd: '/work/repo' });
    expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: 'file:///elsewhere/c.json' });
  });
});
