// The coverage table `edgesim test --coverage` prints after the totals: rules covered and conditions
// seen both ways, per ruleset and in all, then the rules no case matched and those no case can. A line
// starts with our own words or figures, a ruleset's or rule's name after them (terminal-text.ts).
import { counted } from '../../numbers.js';
import { printable } from '../../terminal-text.js';
import { percent, type CoverageReport, type Tally } from '../coverage.js';

/** rules whose conditions were not seen both ways are listed one per line up to this many; the rest are counted */
const LISTED = 20;

function cell(t: Tally): string {
  return `${t.covered}/${t.total}`.padStart(9) + `${percent(t).toFixed(1)}%`.padStart(8);
}

export function coverageTable(c: CoverageReport): string {
  const rows = [...c.rulesets.map((r) => ({ name: printable(r.ruleset), rules: r.rules, conditions: r.conditions })), { name: 'all', rules: c.rules, conditions: c.conditions }];
  const lines = [
    'Coverage (a rule: matched by a case; a condition, each operand of and/or/xor/not: seen true and false)',
    `  ${'rules'.padStart(17)}  ${'conditions'.padStart(17)}  ruleset`,
    ...rows.map((r) => `  ${cell(r.rules)}  ${cell(r.conditions)}  ${r.name}`),
  ];
  const uncovered = c.details.filter((r) => r.excluded === null && (r.status === 'reached' || r.status === 'never reached'));
  if (uncovered.length > 0) lines.push(`  not matched by any case: ${uncovered.map((r) => `${printable(r.rule)} (${r.status === 'reached' ? 'reached, never matched' : 'never reached'})`).join(', ')}`);
  if (c.excluded.length > 0) lines.push(`  not counted (no case can reach them): ${c.excluded.map((e) => `${printable(e.rule)} (${e.why})`).join(', ')}`);
  const partial = c.details.filter((r) => r.excluded === null && r.conditions.some((k) => !(k.true && k.false)));
  for (const r of partial.slice(0, LISTED)) {
    const missing = r.conditions.filter((k) => !(k.true && k.false)).map((k) => `${printable(k.condition)} (never ${k.true ? 'false' : k.false ? 'true' : 'seen'})`);
    lines.push(`  rule ${printable(r.rule)}: ${missing.join('; ')}`);
  }
  if (partial.length > LISTED) lines.push(`  (and ${counted(partial.length - LISTED, 'more rule')} with conditions not seen both ways: every one is in --json)`);
  return lines.join('\n');
}
