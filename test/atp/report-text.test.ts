// The warnings of the ATP report are printed as they are (stderr, the table): counts with their noun.
import { describe, expect, it } from 'vitest';
import { unprotectedWarning, type AtpReport } from '../../src/atp/report.js';

/** An active ATP report that saw `seen` IP packets, none of them to a protected prefix. */
function sawNothingProtected(seen: number): AtpReport {
  const packets = { seen, protected: 0, allowlisted: 0, egress: 0, passed: seen, dropped: 0, flagged: 0, undecided: 0 };
  return { active: true, packets } as Partial<AtpReport> as AtpReport;
}

describe('the warning that protection inspected nothing', () => {
  it('counts one packet in the singular and more in the plural', () => {
    const rest = 'TCP to a protected prefix, so Advanced TCP Protection inspected nothing: check the configuration\'s prefixes';
    expect(unprotectedWarning(sawNothingProtected(1))).toBe(`the 1 IP packet was not ${rest}`);
    expect(unprotectedWarning(sawNothingProtected(2))).toBe(`none of the 2 IP packets was ${rest}`);
    expect(unprotectedWarning(sawNothingProtected(4526))).toBe(`none of the 4,526 IP packets was ${rest}`);
  });

  it('is not given when protection saw no packet', () => {
    expect(unprotectedWarning(sawNothingProtected(0))).toBeNull();
  });
});
