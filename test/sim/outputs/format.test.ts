// The summary's tables are drawn by our own TextTable (src/sim/outputs/format.ts), which replaced
// cli-table3 for start-up time: the same text as cli-table3 with the options the summary used, for
// any cells (wide East Asian characters, emoji, combining marks, several lines, empty), in rows as
// wide as the header, as the summary's are.
import Table from 'cli-table3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { table } from '../../../src/sim/outputs/format.js';

function cliTable3(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: { head: [], border: [] }, chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } });
  t.push(...rows);
  return t.toString();
}

function ours(head: string[], rows: string[][]): string {
  const t = table(head);
  t.push(...rows);
  return t.toString();
}

const piece = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.:,/()%'.split('')), maxLength: 12 }),
  fc.constantFrom('日本語', '한국어', 'ｆｕｌｌ', '🙂', '👍🏽', 'e\u0301', 'ﬁ', '\n', 'é', 'Ωmega', '\u00a0', '–'),
);
const cell = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));

describe('TextTable', () => {
  it('draws what cli-table3 drew, for any cells', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) => fc.tuple(fc.array(cell, { minLength: width, maxLength: width }), fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 6 }))),
        ([head, rows]) => {
          expect(ours(head, rows)).toBe(cliTable3(head, rows));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('draws the replay summary\'s verdict table as before', () => {
    const rows = [['pass', '1,234', '98.20%'], ['drop', '22', '1.80%'], ['  by firewall', '22', '1.80%']];
    expect(ours(['verdict', 'packets', 'share'], rows)).toBe(
      [
        '┌───────────────┬─────────┬────────┐',
        '│ verdict       │ packets │ share  │',
        '│ pass          │ 1,234   │ 98.20% │',
        '│ drop          │ 22      │ 1.80%  │',
        '│   by firewall │ 22      │ 1.80%  │',
        '└───────────────┴─────────┴────────┘',
      ].join('\n'),
    );
    expect(ours(['verdict', 'packets', 'share'], rows)).toBe(cliTable3(['verdict', 'packets', 'share'], rows));
  });
});
