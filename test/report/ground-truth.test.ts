// The replay's table and the HTML report score the demo against its labels with the same measures:
// every row of one is a row of the other, under the same label, with the same numbers.
import { describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/config/load.js';
import { renderHtmlReport } from '../../src/report/render.js';
import { formatSummary } from '../../src/sim/outputs/summary-table.js';
import { replayFile } from '../../src/sim/replay.js';

type Row = { measure: string; dropped: string; total: string };

function tableRows(text: string): Row[] {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => l.includes('whole path against ground truth'));
  const rows: Row[] = [];
  for (const line of lines.slice(head + 1)) {
    const cells = line.split('│').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4) break;
    rows.push({ measure: cells[0], total: cells[1], dropped: cells[2] });
  }
  return rows;
}

function pageRows(html: string): Row[] {
  const section = /<caption>Label scores<\/caption>[^]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...section.matchAll(/<tr><th scope="row">([^<]*)<\/th><td class="n">([\d,]+) of ([\d,]+)<\/td>/g)].map((m) => ({ measure: m[1], dropped: m[2], total: m[3] }));
}

describe('ground truth in the table and in the report', () => {
  it('the demo has the same measures and numbers in both', async () => {
    const { report, warnings } = await replayFile('examples/demo.pcap', await loadSnapshotFile('examples/demo-snapshot.json'));
    expect(report.labels).not.toBeNull();
    const table = tableRows(formatSummary(report, warnings));
    const page = pageRows(renderHtmlReport({ ...report, warnings }));
    expect(table.map((r) => r.measure)).toContain('legitimate flows with a dropped packet');
    expect(table.length).toBeGreaterThanOrEqual(3);
    expect(page).toEqual(table);
  });
});
