// The coverage table: rules whose conditions were not seen both ways are listed up to a limit, and
// the rest are counted, so a large ruleset's table stays readable in a CI log; names are printable.
import { describe, expect, it } from 'vitest';
import { coverageReport, type RuleCoverage } from '../../src/suite/coverage.js';
import { coverageTable } from '../../src/suite/reports/coverage-text.js';

function rule(ref: string, seen: { true: boolean; false: boolean }): RuleCoverage {
  return { rule: ref, ruleset: 'edge', status: 'decided', reached: 1, matched: 1, decided: 1, spaces: 0, excluded: null, conditions: [{ condition: 'tcp.dstport == 22', ...seen }] };
}

describe('coverage table', () => {
  it('lists 20 rules with conditions not seen both ways and counts the rest', () => {
    const details = Array.from({ length: 23 }, (_, i) => rule(`r${i}`, { true: false, false: true }));
    const text = coverageTable(coverageReport([...details, rule('done', { true: true, false: true })]));
    expect(text).toMatch(/\n +24\/24 +100\.0% +1\/24 +4\.2%  edge\n/);
    expect(text).toContain('  rule r19: tcp.dstport == 22 (never true)');
    expect(text).not.toContain('r20:');
    expect(text).toContain('(and 3 more rules with conditions not seen both ways: every one is in --json)');
  });

  it('writes control characters of a rule name as JSON does', () => {
    const text = coverageTable(coverageReport([{ ...rule('evil\u001b[2J', { true: false, false: false }), matched: 0, decided: 0, status: 'reached' }]));
    expect(text).toContain('not matched by any case: evil\\u001b[2J (reached, never matched)');
    expect(text).not.toContain('\u001b');
  });
});
