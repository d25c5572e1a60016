// Each finding kind's default severity and summary (src/analysis/findings.ts), which decide
// whether lint fails (errors always, warnings with --fail-on warning, notes never) and what
// `lint --help` and SARIF rules say of each kind.
import { describe, expect, it } from 'vitest';
import { FINDING_KINDS, severityOf, type FindingKind } from '../../src/analysis/findings.js';
import { DEPLOY_CHECKS } from '../../src/config/deploy-checks.js';

const LINT_KINDS: Record<string, string> = {
  unmatchable: 'error',
  unreachable: 'error',
  indeterminate: 'note',
  negated_protocol_field: 'warning',
  impossible_comparison: 'warning',
  empty_list: 'warning',
  unknown_list: 'warning',
  atp_filter_never_applies: 'warning',
};

describe('finding kinds', () => {
  it("gives dead rules error, the analysis's doubts note, the rest warning", () => {
    for (const [kind, severity] of Object.entries(LINT_KINDS)) expect(severityOf(kind as FindingKind), kind).toBe(severity);
  });

  it('makes every deploy-time problem an error the API would refuse, summarised from its check', () => {
    const codes = Object.keys(DEPLOY_CHECKS) as FindingKind[];
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      expect(severityOf(code), code).toBe('error');
      expect(FINDING_KINDS[code].summary).toBe(`${DEPLOY_CHECKS[code as keyof typeof DEPLOY_CHECKS]}; the API refuses it when the ruleset is deployed`);
    }
    expect(Object.keys(FINDING_KINDS).sort()).toEqual([...Object.keys(LINT_KINDS), ...codes].sort());
  });

  it('says what each kind finds, each in its own words', () => {
    const summaries = Object.values(FINDING_KINDS).map((k) => k.summary);
    for (const s of summaries) expect(s.length).toBeGreaterThan(20);
    expect(new Set(summaries).size).toBe(summaries.length);
  });
});
